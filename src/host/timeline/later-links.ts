// Links between the events of dsh's later generations (v2–v4) that the provenance index does not
// record: a developer message and the request header its tool changes bind to (`headerSeq`), a model
// attempt that did not settle and its step and the message that settled the step after it, an image
// offload and the messages whose images it offloads. Gathered in one pass over the few events that
// carry them (parsed once), extended as the log grows.
import type { SessionLog } from '../../core';
import { offloadTargets } from '../../present';
import type { LinkRelation } from '../../protocol';
import type { TimelineIndex } from './timeline-index';

type Loose = Record<string, unknown>;
const isLoose = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How far past an attempt the message that settled its step is looked for. */
const SETTLE_SCAN = 20_000;

export interface LaterLink {
  relation: LinkRelation;
  target: number;
}

export class LaterLinks {
  private scanned = 0;
  /** request/header seq → the developer messages that bind to it. */
  private readonly developersOf = new Map<number, number[]>();
  /** developer/message seq → the request header it names. */
  private readonly headerOf = new Map<number, number>();
  /** assistant/attempt seqs, ascending. */
  private readonly attempts: number[] = [];
  /** A message's seq → the image offloads naming it, with the image indexes each names. */
  private readonly offloadsOf = new Map<number, { offload: number; images: number[] }[]>();
  /** image/offload seq → the messages it names. */
  private readonly targetsOf = new Map<number, number[]>();

  constructor(
    private readonly log: SessionLog,
    private readonly index: TimelineIndex,
  ) {}

  /** Takes in the events added since the last call. */
  extend(): this {
    const log = this.log;
    for (let seq = this.scanned; seq < log.eventCount; seq++) {
      const type = log.eventType(seq);
      if (type === 'assistant/attempt') this.attempts.push(seq);
      else if (type === 'developer/message') {
        const header = (log.event(seq)?.data as Loose | undefined)?.headerSeq;
        if (typeof header === 'number' && Number.isSafeInteger(header) && header >= 0 && header < seq) {
          this.headerOf.set(seq, header);
          const list = this.developersOf.get(header) ?? [];
          list.push(seq);
          this.developersOf.set(header, list);
        }
      } else if (type === 'image/offload') {
        const targets = offloadTargets(log.event(seq)?.data).filter((t) => t.seq < seq);
        this.targetsOf.set(
          seq,
          targets.map((t) => t.seq),
        );
        for (const t of targets) {
          const list = this.offloadsOf.get(t.seq) ?? [];
          list.push({ offload: seq, images: t.images });
          this.offloadsOf.set(t.seq, list);
        }
      }
    }
    this.scanned = log.eventCount;
    return this;
  }

  /** Which of a message's images (by their order among its image blocks) an offload names, and which offload. */
  offloadedImages(seq: number): Map<number, number> {
    const out = new Map<number, number>();
    for (const { offload, images } of this.offloadsOf.get(seq) ?? []) for (const i of images) if (!out.has(i)) out.set(i, offload);
    return out;
  }

  /** The links of one event, both directions. */
  linksOf(seq: number): LaterLink[] {
    const type = this.log.eventType(seq);
    const out: LaterLink[] = [];
    const header = this.headerOf.get(seq);
    if (header !== undefined) out.push({ relation: 'requestHeader', target: header });
    for (const d of this.developersOf.get(seq) ?? []) out.push({ relation: 'toolChange', target: d });
    for (const t of this.targetsOf.get(seq) ?? []) out.push({ relation: 'offloads', target: t });
    for (const { offload } of this.offloadsOf.get(seq) ?? []) out.push({ relation: 'offloadedBy', target: offload });
    if (type === 'assistant/attempt') {
      const step = this.stepStartOf(seq);
      if (step !== undefined) out.push({ relation: 'step', target: step });
      const settled = this.settledAfter(seq);
      if (settled !== undefined) out.push({ relation: 'settledBy', target: settled });
    } else if (type === 'assistant/message') {
      for (const a of this.attemptsBefore(seq)) out.push({ relation: 'attempt', target: a });
    }
    return out;
  }

  /** The step/start of the step an event sits in. */
  stepStartOf(seq: number): number | undefined {
    const starts = this.index.stepStarts;
    const i = starts.floorIndex(seq);
    if (i < 0) return undefined;
    const start = starts.get(i);
    const turn = this.index.turnAt(seq);
    const step = this.index.stepAt(seq);
    return this.index.turnAt(start) === turn && this.index.stepAt(start) === step ? start : undefined;
  }

  /** The assistant/message that settled the attempt's step after it, while the step lasts. */
  private settledAfter(attempt: number): number | undefined {
    const turn = this.index.turnAt(attempt);
    const step = this.index.stepAt(attempt);
    const end = Math.min(this.log.eventCount, attempt + SETTLE_SCAN);
    for (let seq = attempt + 1; seq < end; seq++) {
      if (this.index.turnAt(seq) !== turn || this.index.stepAt(seq) !== step) return undefined;
      if (this.log.eventType(seq) === 'assistant/message') return seq;
    }
    return undefined;
  }

  /** The attempts of a message's step before it. */
  private attemptsBefore(message: number): number[] {
    const start = this.stepStartOf(message);
    if (start === undefined) return [];
    const out: number[] = [];
    for (let i = upperBound(this.attempts, message) - 1; i >= 0 && this.attempts[i] > start; i--) out.unshift(this.attempts[i]);
    return out;
  }
}

/** The first position in an ascending list whose value is above `v`. */
function upperBound(list: readonly number[], v: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
