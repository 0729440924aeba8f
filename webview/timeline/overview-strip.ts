// The overview strip beside the list: the whole log at once, top to bottom in seq order. Each bucket
// draws how much of it is on the surface, shadowed, or has problems; marks show compactions, prunes,
// repairs and errors. Clicking (or Enter on a focused strip) scrolls the list there.
import type { Overview, OverviewMarkKind } from '../../src/protocol/timeline';
import type { WebviewString } from '../../src/protocol/webview-strings';
import { t } from './strings';

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
  readonly element: HTMLCanvasElement;
  private overview: Overview | undefined;

  constructor(private readonly onPick: (seq: number) => void) {
    const c = document.createElement('canvas');
    c.id = 'overview-strip';
    c.tabIndex = 0;
    c.setAttribute('role', 'slider');
    c.setAttribute('aria-valuemin', '0');
    c.width = 28;
    c.height = 400;
    this.element = c;
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
  }

  private pick(fraction: number): void {
    const o = this.overview;
    if (!o || o.events === 0) return;
    const seq = Math.max(0, Math.min(o.events - 1, Math.floor(fraction * o.events)));
    // Prefer a mark near the click (within two pixels), so a thin compaction line can be hit.
    const bucketCount = o.surface.length || 1;
    const bucket = Math.floor(fraction * bucketCount);
    const near = o.marks.find((m) => Math.abs(m.bucket - bucket) <= Math.max(1, Math.round(bucketCount / this.element.clientHeight) * 2));
    this.onPick(near ? near.seq : seq);
  }

  draw(o: Overview, selectedSeq: number | undefined): void {
    this.overview = o;
    const c = this.element;
    // Labelled at each draw rather than when made, so the strings table that arrives later applies.
    c.setAttribute(
      'aria-label',
      t('Overview of the whole log: surface, shadowed spans, compactions, repairs and problems. Up and Down move through the log.'),
    );
    c.setAttribute('aria-valuemax', String(Math.max(0, o.events - 1)));
    const height = Math.max(50, c.clientHeight || 400);
    const width = Math.max(10, c.clientWidth || 28);
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
    if (selectedSeq !== undefined && o.events > 0) {
      g.fillStyle = color('--vscode-focusBorder', '#08f');
      g.fillRect(0, Math.min(height - 2, (selectedSeq / o.events) * height) - 1, width, 3);
    }
  }
}
