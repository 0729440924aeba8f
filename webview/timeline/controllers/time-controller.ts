// Time: each record at its real start and duration (turns, steps, assistant spans split into time to
// first token and decoding, tool spans from call to result), and usage per turn or per step. This holds
// what is shown — the spans, the time range in view, the spans active in a chosen interval — and does
// the zooming, panning and picking; the canvas that draws it (views/time-canvas.ts) speaks in fractions
// of its width, so nothing here knows about pixels.
import type { TimeSpan, TimeSpans, UsageTable } from '../../../src/protocol';
import { counted } from '../strings';
import type { NavigationController } from './navigation-controller';
import { TimelineController, type TimelineHost } from './timeline-host';

/** The lanes drawn, top to bottom. */
export const LANES: readonly TimeSpan['kind'][] = ['turn', 'step', 'assistant', 'tool'];
/** The narrowest range zooming in reaches, in ms. */
const MIN_RANGE_MS = 5;

export interface TimeOptions {
  /** Puts the focus on the canvas (once the panel is drawn). */
  focusCanvas(): void;
  /** Draws the canvas again (the range or the chosen spans changed). */
  redraw(): void;
}

export class TimeController extends TimelineController {
  open = false;
  spans: TimeSpans | undefined;
  usage: UsageTable | undefined;
  usageLevel: 'turn' | 'step' = 'turn';
  /** The time range in view, ms since the epoch. */
  range = { from: 0, to: 1 };
  /** The spans active in the interval chosen last. */
  chosen: TimeSpan[] = [];

  constructor(
    host: TimelineHost,
    private readonly navigation: NavigationController,
    private readonly options: TimeOptions,
  ) {
    super(host);
  }

  /** The canvas is drawn imperatively: after each update of the view, while the panel is open. */
  hostUpdated(): void {
    if (this.open) this.options.redraw();
  }

  async toggle(): Promise<void> {
    this.open = !this.open;
    this.host.requestUpdate();
    if (!this.open) return;
    await this.load();
    await this.host.updateComplete;
    this.options.focusCanvas();
  }

  private async load(): Promise<void> {
    const [spans, usage] = await Promise.all([
      this.host.request('timeSpans', { maxSpans: 20_000 }),
      this.host.request('usage', { level: this.usageLevel, start: 0, count: 500 }),
    ]);
    this.spans = spans.result;
    this.usage = usage.result;
    const first = this.spans.first ?? 0;
    this.range = { from: first, to: Math.max(this.spans.last ?? 1, first + 1) };
    this.host.requestUpdate();
    await this.host.updateComplete;
    this.options.redraw();
  }

  async setUsageLevel(level: 'turn' | 'step'): Promise<void> {
    this.usageLevel = level;
    const { result } = await this.host.request('usage', { level, start: 0, count: 500 });
    this.usage = result;
    this.host.requestUpdate();
  }

  /** The time at a fraction (0..1) of the canvas's width. */
  timeAt(fraction: number): number {
    return this.range.from + fraction * (this.range.to - this.range.from);
  }

  /** Where a time falls, as a fraction of the canvas's width (outside 0..1 when out of view). */
  fractionOf(time: number): number {
    return (time - this.range.from) / (this.range.to - this.range.from);
  }

  /** Zooms by `factor` (below 1 zooms in) keeping the time under `anchor` (a fraction of the width) in place. */
  zoom(factor: number, anchor: number): void {
    const at = this.timeAt(anchor);
    const span = Math.max(MIN_RANGE_MS, (this.range.to - this.range.from) * factor);
    const left = anchor * span;
    this.range = { from: at - left, to: at - left + span };
    this.options.redraw();
  }

  /** Moves the range by a tenth of its width, earlier (-1) or later (1). */
  pan(direction: -1 | 1): void {
    const shift = (this.range.to - this.range.from) * 0.1 * direction;
    this.range = { from: this.range.from + shift, to: this.range.to + shift };
    this.options.redraw();
  }

  /** A key on the canvas: + and − zoom, Left and Right pan, Enter chooses what is in view. True when taken. */
  key(key: string, altKey: boolean): boolean {
    if (key === '+' || key === '=') this.zoom(0.8, 0.5);
    else if (key === '-') this.zoom(1.25, 0.5);
    else if (key === 'ArrowLeft' && !altKey) this.pan(-1);
    else if (key === 'ArrowRight' && !altKey) this.pan(1);
    else if (key === 'Enter') this.chooseInterval(this.range.from, this.range.to);
    else return false;
    return true;
  }

  /** A click at a fraction of the width: the list goes to the span under it (turns excepted: they hold everything). */
  pick(fraction: number): void {
    const at = this.timeAt(fraction);
    const hit = this.spans?.spans.find((s) => s.kind !== 'turn' && s.start <= at && at <= s.start + (s.duration ?? 0));
    if (hit) void this.navigation.jumpTo(hit.seq, { record: true, focusList: false });
    this.options.redraw();
  }

  /** Spans active in [from, to]: the list moves to the first of them; the count is announced. */
  chooseInterval(from: number, to: number): void {
    const active = (this.spans?.spans ?? []).filter((s) => s.kind !== 'turn' && s.start <= to && s.start + (s.duration ?? 0) >= from);
    this.chosen = active;
    this.host.say(counted(active.length, '1 span was active in the selected interval', '{0} spans were active in the selected interval'));
    const first = active.reduce<TimeSpan | undefined>((a, s) => (!a || s.seq < a.seq ? s : a), undefined);
    if (first) void this.navigation.jumpTo(first.seq, { record: true, focusList: false });
    this.host.requestUpdate();
    this.options.redraw();
  }
}
