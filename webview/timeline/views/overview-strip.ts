// The overview strip beside the list: the whole log at once, top to bottom in seq order, in lanes side
// by side: how much is on the surface, how much is shadowed, then where compactions (and other
// replacements), prunes, crash repairs and problems are. Each lane is drawn by density (how many of
// the buckets a pixel row stands for hold its kind), so a kind that is everywhere (a prune every few
// turns of a 300k-event log) fills its own lane and hides nothing else. The lanes' colours come from
// the stylesheet (the legend shows the same ones). Clicking (or Up and Down on the focused strip)
// moves the list there.
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

/** The strip's lanes, left to right, as fractions of its width; each is a kind of the legend. */
export const STRIP_LANES = ['surface', 'shadowed', 'compaction', 'prune', 'repair', 'problem'] as const;
export type StripLane = (typeof STRIP_LANES)[number];

const LANE_OF: Record<OverviewMarkKind, StripLane> = {
  compaction: 'compaction',
  replacement: 'compaction',
  prune: 'prune',
  repair: 'repair',
  error: 'problem',
  warning: 'problem',
};

export class OverviewStrip {
  /** The strip's column content: the canvas and, over it, the selection's marker. */
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly marker: HTMLElement;
  private readonly inks: HTMLElement;
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
    // One hidden probe per lane (and the warning colour): the stylesheet colours them, the canvas reads it.
    this.inks = document.createElement('div');
    this.inks.hidden = true;
    for (const kind of [...STRIP_LANES, 'warning', 'info']) {
      const ink = document.createElement('span');
      ink.className = `strip-ink ${kind}`;
      this.inks.append(ink);
    }
    this.element.append(c, this.marker, this.inks);
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
    g.clearRect(0, 0, width, height);
    const n = o.surface.length;
    if (!n) return;
    const ink = this.laneInks();
    const laneWidth = width / STRIP_LANES.length;
    const x = (lane: StripLane) => STRIP_LANES.indexOf(lane) * laneWidth;
    // Each pixel row stands for the buckets under it (or one bucket stands for several pixel rows).
    const rows = Math.max(1, Math.min(n, Math.floor(height)));
    const rowH = height / rows;
    const bucketsPerRow = n / rows;
    const density = this.densities(o, rows, bucketsPerRow);
    for (let r = 0; r < rows; r++) {
      const y = r * rowH;
      const h = Math.max(1, rowH);
      for (const lane of STRIP_LANES) {
        const share = density[lane][r];
        if (!share) continue;
        // The problem lane takes the colour of the worst problem in the row.
        g.fillStyle = lane !== 'problem' || density.error[r] ? ink[lane] : density.warning[r] ? ink.warning : ink.info;
        // Anything at all is clearly visible; a lane full of its kind is solid.
        g.globalAlpha = 0.45 + 0.55 * Math.min(1, share);
        g.fillRect(x(lane) + 1, y, laneWidth - 1, h);
      }
    }
    g.globalAlpha = 1;
    // A single rare mark (one compaction in a long log) is at least two pixels tall.
    for (const m of o.marks) {
      const lane = LANE_OF[m.kind];
      if (lane === 'prune') continue;
      g.fillStyle = m.kind === 'warning' ? ink.warning : ink[lane];
      g.fillRect(x(lane) + 1, Math.min(height - 2, (m.bucket / n) * height), laneWidth - 1, 2);
    }
    this.placeMarker();
  }

  /** The colour of each lane as the stylesheet gives it (the theme's, resolved). */
  private laneInks(): Record<StripLane | 'warning' | 'info', string> {
    const ink = {} as Record<StripLane | 'warning' | 'info', string>;
    for (const probe of this.inks.children) {
      const kind = probe.classList[1] as StripLane | 'warning' | 'info';
      ink[kind] = getComputedStyle(probe).color || '#888';
    }
    return ink;
  }

  /**
   * Per pixel row and lane, how much of it holds the lane's kind (0–1): for surface and shadowed the
   * share of the events, for the marks the share of the buckets that hold one.
   */
  private densities(o: Overview, rows: number, bucketsPerRow: number): Record<StripLane | 'error' | 'warning', Float32Array> {
    const d = Object.fromEntries([...STRIP_LANES, 'error', 'warning'].map((k) => [k, new Float32Array(rows)])) as Record<
      StripLane | 'error' | 'warning',
      Float32Array
    >;
    const rowOf = (bucket: number) => Math.min(rows - 1, Math.floor(bucket / bucketsPerRow));
    const perRow = Math.max(1, bucketsPerRow);
    for (let b = 0; b < o.surface.length; b++) {
      const inBucket = Math.max(1, Math.min(o.bucketSize, o.events - b * o.bucketSize));
      const r = rowOf(b);
      d.surface[r] += o.surface[b] / inBucket / perRow;
      d.shadowed[r] += o.shadowed[b] / inBucket / perRow;
      if (o.problems[b]) d.problem[r] += 1 / perRow;
    }
    for (const m of o.marks) {
      const r = rowOf(m.bucket);
      if (m.kind === 'error' || m.kind === 'warning') d[m.kind][r] += 1 / perRow;
      else d[LANE_OF[m.kind]][r] += 1 / perRow;
    }
    return d;
  }
}
