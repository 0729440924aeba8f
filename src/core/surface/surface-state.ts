// The surface state of a loaded log: the fold of the kept events (what a read-only viewer sees), the
// closers dsh would append for an open final turn and the repaired surface they give, the derived
// messages (projected once per surface node, rebuilt only after a replace), the tool-pairing cuts
// and the human transcript. Everything here grows with the log without rescanning it.
import type { Replacement, SessionEvent } from '../types';
import type { DerivedMessage } from './projections';
import { balancedCuts, deriveEventMessage, type BalanceResult } from './projections';
import { CloserScan, RepairTypeError } from './repair';
import { SurfaceFold } from './surface';
import type { SurfaceRules } from './surface-rules';
import { SurfaceRole, type EventIndex } from '../read/event-index';
import type { Refusal } from '../read/verdict';

interface Repaired {
  count: number;
  closers: SessionEvent[];
  fold: SurfaceFold;
  /** Where dsh's repair itself throws making the closers (its closers stage): then there are none. */
  closerCrash: Refusal | null;
  /** Where the seed refuses a closer it replays. */
  closerRefusal: Refusal | null;
}

export class SurfaceState {
  /** The fold of the kept events; its rules are the generation's, set before the first event. */
  fold: SurfaceFold;
  readonly closerScan: CloserScan;
  private repairedCache: Repaired | undefined;
  private readonly derived: { generation: number; nodes: number; messages: DerivedMessage[] };
  /** Append-origin surface events in log order, extended as the log grows. */
  private readonly transcriptSeqs: number[];
  private transcriptScanned: number;

  /**
   * `closersRefused`: the closer scan crashed (dsh's closers stage refused), so there are none.
   * `from`: the state of the log this one's is a fork of (over a fork of its index): it goes on from there.
   */
  constructor(
    private readonly index: EventIndex,
    private readonly closersRefused: () => boolean,
    from?: SurfaceState,
  ) {
    this.fold = from ? from.fold.clone() : new SurfaceFold();
    this.closerScan = from ? from.closerScan.clone() : new CloserScan();
    // The copy shares the projected messages (as the log shares them with every caller) and projects only new nodes.
    this.derived = from ? { ...from.derived, messages: from.derived.messages.slice() } : { generation: 0, nodes: 0, messages: [] };
    this.transcriptSeqs = from ? from.transcriptSeqs.slice() : [];
    this.transcriptScanned = from ? from.transcriptScanned : 0;
  }

  /**
   * Where the closers come from when not from the closer scan: a generation whose writer closes an
   * open turn its own way (v4's tool-role results) hands them in.
   */
  closerSource: (() => SessionEvent[]) | undefined;

  /** Folds with `rules` from now on (a log learns its generation from its header, before any event). */
  useRules(rules: SurfaceRules): void {
    if (this.fold.nodes.length === 0 && this.fold.replaceGeneration === 0) this.fold = new SurfaceFold(rules);
  }

  /** Closers and the repaired surface, recomputed only when the log grew. */
  repaired(): Repaired {
    const count = this.index.count;
    if (this.repairedCache?.count === count) return this.repairedCache;
    let closers: SessionEvent[] = [];
    let closerCrash: Refusal | null = null;
    try {
      if (!this.closersRefused()) closers = (this.closerSource?.() ?? this.closerScan.closers()).map(deepFreeze);
    } catch (error) {
      if (!(error instanceof RepairTypeError)) throw error;
      closerCrash = { dshError: error.message, errorName: 'TypeError', rule: 'repair.closers' };
    }
    let closerRefusal: Refusal | null = null;
    let fold = this.fold;
    if (closers.length > 0) {
      fold = this.fold.clone();
      const lookup = (s: number) => (s < count ? this.index.event(s) : closers[s - count]);
      for (const closer of closers) {
        try {
          fold.apply(fold.plan(closer, closer.seq, lookup));
        } catch (error) {
          closerRefusal ??= {
            dshError: `invalid seed event at index ${closer.seq}: ${(error as Error).message}`,
            errorName: 'Error',
            rule: 'repair.closers',
            seq: closer.seq,
          };
        }
      }
    }
    this.repairedCache = { count, closers, fold, closerCrash, closerRefusal };
    return this.repairedCache;
  }

  get closers(): SessionEvent[] {
    return this.repaired().closers;
  }

  surface(): readonly number[] {
    return this.fold.nodes;
  }

  replacements(): readonly Replacement[] {
    return this.fold.replacements;
  }

  /**
   * The messages the model sees. Without `nodes`, the current surface's messages come from a
   * watermark cache: new surface nodes are projected once, and a replace (a new generation) rebuilds.
   */
  deriveMessages(nodes?: readonly number[]): DerivedMessage[] {
    if (nodes !== undefined) return this.project(nodes, 0, []);
    const surface = this.fold.nodes;
    const cache = this.derived;
    if (cache.generation !== this.fold.replaceGeneration) {
      cache.generation = this.fold.replaceGeneration;
      cache.nodes = 0;
      cache.messages = [];
    }
    if (cache.nodes < surface.length) {
      this.project(surface, cache.nodes, cache.messages);
      cache.nodes = surface.length;
    }
    return [...cache.messages];
  }

  private project(nodes: readonly number[], from: number, out: DerivedMessage[]): DerivedMessage[] {
    const count = this.index.count;
    const closers = count > 0 && nodes.some((seq) => seq >= count) ? this.closers : [];
    for (let i = from; i < nodes.length; i++) {
      const seq = nodes[i];
      const event = seq < count ? this.index.event(seq) : closers[seq - count];
      const message = event ? deriveEventMessage(event) : null;
      if (message) out.push(message);
    }
    return out;
  }

  balancedCuts(nodes: readonly number[] = this.fold.nodes): BalanceResult {
    const count = this.index.count;
    return balancedCuts(nodes, (seq) => {
      if (seq >= count) return this.closers[seq - count]?.type === 'tool/result' ? -1 : 0;
      const type = this.index.type(seq);
      if (type === 'tool/result') return -1;
      return type === 'assistant/message' ? this.index.toolCallCount(seq) : 0;
    });
  }

  transcript(): number[] {
    const count = this.index.count;
    for (let seq = this.transcriptScanned; seq < count; seq++)
      if (this.index.role(seq) === SurfaceRole.Append) this.transcriptSeqs.push(seq);
    this.transcriptScanned = count;
    return this.transcriptSeqs.slice();
  }
}

/** Freezes a JSON tree (iteratively: deep nesting is fine). */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'object' && current !== null && !Object.isFrozen(current)) {
      Object.freeze(current);
      for (const key of Object.keys(current)) pending.push((current as Record<string, unknown>)[key]);
    }
  }
  return value;
}
