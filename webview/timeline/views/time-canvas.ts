// The canvas of the Time panel: draws the TimeController's spans in their lanes over the range in view,
// and turns the pointer and the keys into the controller's terms — the wheel zooms around the pointer,
// a click picks the span under it, a drag chooses an interval (drawn while it is dragged).
import { LANES, type TimeController } from '../controllers/time-controller';
import { formatDuration, t } from '../strings';
import type { WebviewString } from '../../../src/protocol';

/** Each lane's name, in the display language. */
const LANE_NAMES: Record<(typeof LANES)[number], WebviewString> = {
  turn: 'turns',
  step: 'steps',
  assistant: 'model',
  tool: 'tools',
  event: 'Events',
};

const LANE_H = 18;
/** A pointer that moves less than this between down and up clicks rather than drags. */
const CLICK_PX = 3;

export class TimeCanvas {
  readonly element: HTMLCanvasElement;
  private drag: { x0: number; x1: number } | undefined;
  private time: TimeController | undefined;

  constructor() {
    const c = document.createElement('canvas');
    c.id = 'time-canvas';
    c.tabIndex = 0;
    c.setAttribute('role', 'img');
    c.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    c.addEventListener('pointerdown', (e) => {
      c.setPointerCapture(e.pointerId);
      this.drag = { x0: e.offsetX, x1: e.offsetX };
    });
    c.addEventListener('pointermove', (e) => {
      if (this.drag) {
        this.drag.x1 = e.offsetX;
        this.draw();
      }
    });
    c.addEventListener('pointerup', () => this.endDrag());
    c.addEventListener('keydown', (e) => {
      if (this.time?.key(e.key, e.altKey)) e.preventDefault();
    });
    this.element = c;
  }

  /** The controller whose spans this draws (set once, by the element composing both). */
  attach(time: TimeController): void {
    this.time = time;
  }

  private fraction(x: number): number {
    return x / Math.max(1, this.element.clientWidth);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    this.time?.zoom(e.deltaY > 0 ? 1.25 : 0.8, this.fraction(e.offsetX));
  }

  private endDrag(): void {
    const d = this.drag;
    this.drag = undefined;
    if (!d || !this.time) return;
    if (Math.abs(d.x1 - d.x0) < CLICK_PX) this.time.pick(this.fraction(d.x0));
    else
      this.time.chooseInterval(
        this.time.timeAt(this.fraction(Math.min(d.x0, d.x1))),
        this.time.timeAt(this.fraction(Math.max(d.x0, d.x1))),
      );
  }

  draw(): void {
    const c = this.element;
    // Labelled at each draw rather than when made, so the strings table that arrives later applies.
    c.setAttribute('aria-label', t('Time view: turns, steps, assistant and tool spans. Plus and minus zoom, Left and Right pan.'));
    const time = this.time;
    const spans = time?.spans;
    if (!time || !spans || !c.isConnected) return;
    const width = Math.max(100, c.clientWidth);
    const height = LANES.length * LANE_H + 18;
    const ratio = window.devicePixelRatio || 1;
    c.width = Math.round(width * ratio);
    c.height = Math.round(height * ratio);
    c.style.height = `${height}px`;
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(document.body);
    const color = (v: string, f: string) => style.getPropertyValue(v).trim() || f;
    g.clearRect(0, 0, width, height);
    const fills: Record<string, string> = {
      turn: color('--vscode-charts-blue', '#48c'),
      step: color('--vscode-charts-green', '#4a4'),
      assistant: color('--vscode-charts-purple', '#a6c'),
      tool: color('--vscode-charts-orange', '#d84'),
    };
    const ttft = color('--vscode-charts-yellow', '#cc4');
    const chosen = new Set(time.chosen.map((s) => s.seq));
    const x = (at: number) => time.fractionOf(at) * width;
    let drawn = 0;
    for (const s of spans.spans) {
      const lane = LANES.indexOf(s.kind);
      if (lane < 0) continue;
      const end = s.start + (s.duration ?? (spans.last ?? s.start) - s.start);
      const x0 = x(s.start);
      const x1 = x(end);
      if (x1 < 0 || x0 > width) continue;
      if (x1 - x0 >= 1) drawn += 1;
      const y = lane * LANE_H + 2;
      g.globalAlpha = chosen.size && !chosen.has(s.seq) ? 0.35 : 1;
      g.fillStyle = fills[s.kind];
      g.fillRect(x0, y, Math.max(1, x1 - x0), LANE_H - 4);
      if (s.kind === 'assistant' && s.firstTokenMs !== undefined) {
        g.fillStyle = ttft;
        g.fillRect(x0, y, Math.max(1, x(s.start + s.firstTokenMs) - x0), LANE_H - 4);
      }
    }
    g.globalAlpha = 1;
    g.fillStyle = color('--vscode-foreground', '#888');
    g.font = `11px ${color('--vscode-font-family', 'sans-serif')}`;
    const lanes = LANES.map((l) => t(LANE_NAMES[l]));
    lanes.forEach((name, i) => g.fillText(name, 2, i * LANE_H + 13));
    const shown = t('{0} shown', formatDuration(time.range.to - time.range.from));
    g.fillText(shown, 2, height - 4);
    // What was drawn, for assistive checks and tests (a canvas has no text of its own).
    c.dataset.lanes = lanes.join('|');
    c.dataset.rangeText = shown;
    c.dataset.rangeMs = String(Math.round(time.range.to - time.range.from));
    c.dataset.drawnSpans = String(drawn);
    if (this.drag) {
      g.fillStyle = color('--vscode-editor-selectionBackground', '#39f');
      g.globalAlpha = 0.35;
      g.fillRect(Math.min(this.drag.x0, this.drag.x1), 0, Math.abs(this.drag.x1 - this.drag.x0), height);
      g.globalAlpha = 1;
    }
  }
}
