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
  readonly nodes: number[] = [];
  /** Seq of the node now holding the protected head, once a system/message opened the surface. */
  protectedHead: number | undefined;

  /** Applies a surface event's append or replacement; returns the nodes a replacement shadowed. Other events pass. */
  apply(event: FormatEvent): readonly number[] {
    if (!V4_SURFACE_TYPES.has(event.type)) return [];
    const system = event.type === 'system/message';
    if (system && this.nodes.length > 0 && this.protectedHead === undefined) {
      throw new SessionFormatError('system/message requires a protected first surface head');
    }
    if (event.surfaceOp === 'append') {
      if (system && this.nodes.length === 0) this.protectedHead = event.seq;
      this.nodes.push(event.seq);
      return [];
    }
    const operation = record(event.surfaceOp, `${event.type} surfaceOp`);
    const first = this.nodes.indexOf(earlierSeq(operation.startSeq, event.seq, 'replacement start'));
    const last = this.nodes.indexOf(earlierSeq(operation.endSeq, event.seq, 'replacement end'));
    if (first < 0 || last < first) throw new SessionFormatError(`${event.type} replacement range is not on the current surface`);
    const removed = this.nodes.slice(first, last + 1);
    const sources = list(event.sourceEventSeqs, 'replacement sourceEventSeqs');
    // A compaction's checkpoint shadows thousands of nodes and cites them all: look them up in a set.
    const cited = new Set(removed.length > 16 ? sources : []);
    const isCited = (seq: number): boolean => (cited.size > 0 ? cited.has(seq) : sources.includes(seq));
    if (!removed.every(isCited)) throw new SessionFormatError('replacement sourceEventSeqs omit a shadowed surface node');
    if (this.protectedHead !== undefined && removed.includes(this.protectedHead)) {
      if (!system || removed.length !== 1) throw new SessionFormatError('surface replacement cannot shadow the protected system head');
      this.protectedHead = event.seq;
    }
    this.nodes.splice(first, removed.length, event.seq);
    return removed;
  }

  /**
   * Checks a compaction summary's or prune's span: its range and its seqs name exactly one run of
   * current surface nodes, and not the protected head.
   */
  checkShadowedSpan(event: FormatEvent, data: JsonObject): void {
    const range = record(data.shadowedRange, 'compaction shadowedRange');
    const start = this.nodes.indexOf(earlierSeq(range.start, event.seq, 'compaction range start'));
    const end = this.nodes.indexOf(earlierSeq(range.end, event.seq, 'compaction range end'));
    const seqs = list(data.shadowedSeqs, 'compaction shadowedSeqs');
    if (start < 0 || end < start || !jsonEqual(this.nodes.slice(start, end + 1), seqs)) {
      throw new SessionFormatError(`${event.type} shadowedSeqs do not name an exact current surface span`);
    }
    if (this.protectedHead !== undefined && seqs.includes(this.protectedHead)) {
      throw new SessionFormatError('compaction cannot shadow the protected system head');
    }
  }
}
