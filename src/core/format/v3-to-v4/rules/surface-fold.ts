// The surface as the v4 relationships fold it (spec §4, §6): appends and replacements in surface order,
// with the protected system head — the first surface node when it is a system/message — which only a
// system/message covering exactly that head may replace, and no compaction may shadow.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { earlierSeq, list, record } from './checks';
import { jsonEqual, type JsonObject } from '../../json';
import { V4_SURFACE_TYPES } from '../vocabulary';

export class SurfaceFold {
  /** Current surface nodes, in surface order. */
  private readonly nodes: number[] = [];
  /**
   * Each node's order key, ascending along the surface (so a node is found by binary search, not by
   * scanning a surface of tens of thousands of nodes on every replacement): an append takes the next
   * key, a replacement the key of the first node it shadows.
   */
  private readonly keys: number[] = [];
  /**
   * The key of each seq on the current surface, plus one (0: not on it), by seq. The relationships
   * run over dense events only, so a seq is an index among the events read so far.
   */
  private keyOf = new Float64Array(1024);
  private nextKey = 0;
  /** Seq of the node now holding the protected head, once a system/message opened the surface. */
  protectedHead: number | undefined;

  /** Applies a surface event's append or replacement; returns the nodes a replacement shadowed. Other events pass. */
  apply(event: FormatEvent): readonly number[] {
    if (!V4_SURFACE_TYPES.has(event.type)) return [];
    const system = event.type === 'system/message';
    const nodes = this.nodes;
    if (system && nodes.length > 0 && this.protectedHead === undefined) {
      throw new SessionFormatError('system/message requires a protected first surface head');
    }
    if (event.surfaceOp === 'append') {
      if (system && nodes.length === 0) this.protectedHead = event.seq;
      this.place(nodes.length, 0, event.seq, this.nextKey++);
      return [];
    }
    const operation = record(event.surfaceOp, `${event.type} surfaceOp`);
    const first = this.position(earlierSeq(operation.startSeq, event.seq, 'replacement start'));
    const last = this.position(earlierSeq(operation.endSeq, event.seq, 'replacement end'));
    if (first < 0 || last < first) throw new SessionFormatError(`${event.type} replacement range is not on the current surface`);
    const removed = nodes.slice(first, last + 1);
    const sources = list(event.sourceEventSeqs, 'replacement sourceEventSeqs');
    // A compaction's checkpoint shadows thousands of nodes and cites them all: look them up in a set.
    const cited = new Set(removed.length > 16 ? sources : []);
    const isCited = (seq: number): boolean => (cited.size > 0 ? cited.has(seq) : sources.includes(seq));
    if (!removed.every(isCited)) throw new SessionFormatError('replacement sourceEventSeqs omit a shadowed surface node');
    if (this.protectedHead !== undefined && removed.includes(this.protectedHead)) {
      if (!system || removed.length !== 1) throw new SessionFormatError('surface replacement cannot shadow the protected system head');
      this.protectedHead = event.seq;
    }
    for (const seq of removed) this.keyOf[seq] = 0;
    this.place(first, removed.length, event.seq, this.keys[first]);
    return removed;
  }

  /**
   * Checks a compaction summary's or prune's span: its range and its seqs name exactly one run of
   * current surface nodes, and not the protected head.
   */
  checkShadowedSpan(event: FormatEvent, data: JsonObject): void {
    const range = record(data.shadowedRange, 'compaction shadowedRange');
    const start = this.position(earlierSeq(range.start, event.seq, 'compaction range start'));
    const end = this.position(earlierSeq(range.end, event.seq, 'compaction range end'));
    const seqs = list(data.shadowedSeqs, 'compaction shadowedSeqs');
    if (start < 0 || end < start || !jsonEqual(this.nodes.slice(start, end + 1), seqs)) {
      throw new SessionFormatError(`${event.type} shadowedSeqs do not name an exact current surface span`);
    }
    if (this.protectedHead !== undefined && seqs.includes(this.protectedHead)) {
      throw new SessionFormatError('compaction cannot shadow the protected system head');
    }
  }

  /** Where `seq` is on the current surface, or -1. */
  private position(seq: number): number {
    const key = seq < this.keyOf.length ? this.keyOf[seq] - 1 : -1;
    if (key < 0) return -1;
    const keys = this.keys;
    let low = 0;
    let high = keys.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = keys[middle];
      if (found === key) return middle;
      if (found < key) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** Puts `seq` with order key `key` at `at`, in place of `count` nodes. */
  private place(at: number, count: number, seq: number, key: number): void {
    if (count === 0 && at === this.nodes.length) {
      this.nodes.push(seq);
      this.keys.push(key);
    } else if (count === 1) {
      // A rewrite of one node (a pruned result, a new system head): no need to move the rest.
      this.nodes[at] = seq;
      this.keys[at] = key;
    } else {
      this.nodes.splice(at, count, seq);
      this.keys.splice(at, count, key);
    }
    if (seq >= this.keyOf.length) {
      const grown = new Float64Array(Math.max(this.keyOf.length * 2, seq + 1));
      grown.set(this.keyOf);
      this.keyOf = grown;
    }
    this.keyOf[seq] = key + 1;
  }
}
