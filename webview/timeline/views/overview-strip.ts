// The overview strip beside the list: the whole log at once, top to bottom in seq order. Each bucket
// draws how much of it is on the surface, shadowed, or has problems; marks show compactions, prunes,
// repairs and errors. Clicking (or Enter on a focused strip) scrolls the list there.
import type { Overview, OverviewMarkKind, WebviewString } from '../../../src/protocol';
import { t } from '../strings';

const MARK_WORD: Record<OverviewMarkKind, WebviewString> = {
  compaction: 'compaction',
  prune: 'prune',
  replacement: 'replacement',
  repair: 'repair',
  error: 'error',
  warning: 'warning',
};

const MARK_VAR: Record<OverviewMarkKind, string> = {
  compaction: '--vscode-charts-purple',
  prune: '--vscode-charts-orange',
  replacement: '--vscode-charts-purple',
  repair: '--vscode-charts-blue',
  error: '--vscode-errorForeground',
  warning: '--vscode-editorWarning-foreground',
};

export class OverviewStrip {
  /** The strip's column content: the canvas and, over it, the selection's marker. */
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly marker: HTMLElement;
  private overview: Overview | undefined;
  private selectedSeq: number | undefined;
  /** The canvas's size in CSS pixels, as last observed (reading it from layout would force one). */
  private size = { width: 28, height: 400 };

  constructor(private readonly onPick: (seq: number) => void) {
    const c = document.createElement('canvas');
    c.id = 'overview-strip';
    c.tabIndex = 0;
    c.setAttribute('role', 'slider');
    c.setAttribute('aria-valuemin', '0');
    c.width = 28;
    c.height = 400;
    this.canvas = c;
    this.marker = document.createElement('div');
    this.marker.className = 'overview-selection';
    this.marker.hidden = true;
    this.element = document.createElement('div');
    this.element.className = 'overview-strip';
    this.element.append(c, this.marker);
    c.addEventListener('click', (e) => this.pick(e.offsetY / Math.max(1, c.clientHeight)));
    let cursor = 0;
    c.addEventListener('keydown', (e) => {
      if (!this.overview) return;
      const marks = this.overview.marks;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        // Steps from one notable mark to the next: the strip's point is to find them.
        if (!marks.length) return;
        cursor = (cursor + (e.key === 'ArrowDown' ? 1 : marks.length - 1)) % marks.length;
        c.setAttribute('aria-valuenow', String(marks[cursor].seq));
        c.setAttribute('aria-valuetext', t('{0} at seq {1}', t(MARK_WORD[marks[cursor].kind]), marks[cursor].seq));
        this.onPick(marks[cursor].seq);
        e.preventDefault();
      }
    });
    // The canvas is drawn again when its size or the theme changes, and otherwise only for a new overview.
    new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      if (box.width === this.size.width && box.height === this.size.height) return;
      this.size = { width: box.width, height: box.height };
      this.paint();
    }).observe(c);
    const theme = new MutationObserver(() => this.paint());
    theme.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  }

  private pick(fraction: number): void {
    const o = this.overview;
    if (!o || o.events === 0) return;
    const seq = Math.max(0, Math.min(o.events - 1, Math.floor(fraction * o.events)));
    // Prefer a mark near the click (within two pixels), so a thin compaction line can be hit.
    const bucketCount = o.surface.length || 1;
    const bucket = Math.floor(fraction * bucketCount);
    const near = o.marks.find((m) => Math.abs(m.bucket - bucket) <= Math.max(1, Math.round(bucketCount / this.canvas.clientHeight) * 2));
    this.onPick(near ? near.seq : seq);
  }

  /** Shows `o` with the selected event marked: the canvas is drawn for a new overview, the marker moved for a new selection. */
  draw(o: Overview, selectedSeq: number | undefined): void {
    const fresh = o !== this.overview;
    if (!fresh && selectedSeq === this.selectedSeq) return;
    this.overview = o;
    this.selectedSeq = selectedSeq;
    if (fresh) this.paint();
    else this.placeMarker();
  }

  /** The selection is a marker moved over the canvas: selecting an event does not draw the strip again. */
  private placeMarker(): void {
    const o = this.overview;
    const seq = this.selectedSeq;
    this.marker.hidden = !o || o.events === 0 || seq === undefined;
    if (this.marker.hidden || !o || seq === undefined) return;
    const y = Math.min(this.size.height - 2, (seq / o.events) * this.size.height) - 1;
    this.marker.style.transform = `translateY(${Math.max(0, y)}px)`;
  }

  private paint(): void {
    const o = this.overview;
    if (!o) return;
    const c = this.canvas;
    // Labelled at each draw rather than when made, so the strings table that arrives later applies.
    c.setAttribute(
      'aria-label',
      t('Overview of the whole log: surface, shadowed spans, compactions, repairs and problems. Up and Down move through the log.'),
    );
    c.setAttribute('aria-valuemax', String(Math.max(0, o.events - 1)));
    const height = Math.max(50, this.size.height || 400);
    const width = Math.max(10, this.size.width || 28);
    const ratio = window.devicePixelRatio || 1;
    if (c.width !== Math.round(width * ratio) || c.height !== Math.round(height * ratio)) {
      c.width = Math.round(width * ratio);
      c.height = Math.round(height * ratio);
    }
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(document.body);
    const color = (v: string, fallback: string) => style.getPropertyValue(v).trim() || fallback;
    g.clearRect(0, 0, width, height);
    const n = o.surface.length;
    if (!n) return;
    const rowH = height / n;
    const surface = color('--vscode-charts-green', '#3a3');
    const shadowed = color('--vscode-charts-purple', '#a6c');
    const problem = color('--vscode-errorForeground', '#e44');
    for (let b = 0; b < n; b++) {
      const y = b * rowH;
      const h = Math.max(1, rowH);
      const inBucket = Math.max(1, Math.min(o.bucketSize, o.events - b * o.bucketSize));
      if (o.surface[b]) {
        g.fillStyle = surface;
        g.globalAlpha = 0.25 + 0.75 * Math.min(1, o.surface[b] / inBucket);
        g.fillRect(0, y, width * 0.4, h);
      }
      if (o.shadowed[b]) {
        g.fillStyle = shadowed;
        g.globalAlpha = 0.35 + 0.65 * Math.min(1, o.shadowed[b] / inBucket);
        g.fillRect(width * 0.4, y, width * 0.3, h);
      }
      if (o.problems[b]) {
        g.fillStyle = problem;
        g.globalAlpha = 1;
        g.fillRect(width * 0.7, y, width * 0.3, h);
      }
    }
    g.globalAlpha = 1;
    for (const m of o.marks) {
      g.fillStyle = color(MARK_VAR[m.kind], '#888');
      g.fillRect(0, Math.min(height - 2, m.bucket * rowH), width, 2);
    }
    this.placeMarker();
  }
}
