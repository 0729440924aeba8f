// The overview strip: the whole log in buckets, and the shadowed brackets drawn around the rows a
// replacement shadowed.
// Plain JSON data only. Every string in here has already been made safe to show by the host's
// presentation layer (single line where it says so, bounded, bidi controls neutralised); the webview
// still renders all of it as text, never as HTML.
import { arrayOf, count, line, literal, optional, shape, str, type Validator } from './validate';

export type OverviewMarkKind = 'compaction' | 'prune' | 'replacement' | 'repair' | 'error' | 'warning';
export const isOverviewMarkKind: Validator<OverviewMarkKind> = literal('compaction', 'prune', 'replacement', 'repair', 'error', 'warning');

export interface Overview {
  /** Events covered (log order); bucket b holds seqs [b*bucketSize, (b+1)*bucketSize). */
  events: number;
  bucketSize: number;
  /** Per bucket: how many events are surface nodes, shadowed nodes, and carry a diagnostic. */
  surface: number[];
  shadowed: number[];
  problems: number[];
  /** Notable points, at most a few hundred (the first of each kind per bucket). */
  marks: { kind: OverviewMarkKind; seq: number; bucket: number }[];
}
export const isOverview: Validator<Overview> = shape<Overview>({
  events: count,
  bucketSize: count,
  surface: arrayOf(count, 10_000),
  shadowed: arrayOf(count, 10_000),
  problems: arrayOf(count, 10_000),
  marks: arrayOf(shape({ kind: isOverviewMarkKind, seq: count, bucket: count }), 5_000),
});

// ---- shadowed brackets --------------------------------------------------------------------------

export interface ShadowBracket {
  /** The event that replaced the nodes (a compaction summary, a prune, …). */
  replacementSeq: number;
  replacementType: string;
  replacementLine: number;
  /** The replacement's summary excerpt, one line, bounded. */
  excerpt: string;
  /** Surface positions the replacement took (its surfaceOp range). */
  rangeStart: number;
  rangeEnd: number;
  shadowedCount: number;
  /** The shadowed seqs, ascending (at most 10,000; `shadowedCount` is whole). */
  shadowedSeqs: number[];
  /** Tokens the replacement records (before/after), formatted, when it records them. */
  tokensText?: string;
}
export const isShadowBracket: Validator<ShadowBracket> = shape<ShadowBracket>({
  replacementSeq: count,
  replacementType: str,
  replacementLine: line,
  excerpt: str,
  rangeStart: count,
  rangeEnd: count,
  shadowedCount: count,
  shadowedSeqs: arrayOf(count, 10_000),
  tokensText: optional(str),
});
