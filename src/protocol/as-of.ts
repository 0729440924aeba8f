// The surface and derived messages as of a seq (after folding every event up to it), and the derived
// messages of two points compared.
// Plain JSON data only. Every string in here has already been made safe to show by the host's
// presentation layer (single line where it says so, bounded, bidi controls neutralised); the webview
// still renders all of it as text, never as HTML.
import { arrayOf, bool, count, literal, optional, shape, str, tagged, type Validator } from './validate';

export interface AsOfNode {
  surfaceIndex: number;
  seq: number;
  type: string;
  label: string;
  /** The derived message in one line, or the event summary when the node gives no message. */
  summary: string;
  messageIndex?: number;
}
export const isAsOfNode: Validator<AsOfNode> = shape<AsOfNode>({
  surfaceIndex: count,
  seq: count,
  type: str,
  label: str,
  summary: str,
  messageIndex: optional(count),
});

export interface SurfaceAsOf {
  /** The surface after folding every event up to and including this seq. */
  asOfSeq: number;
  surfaceLength: number;
  messageCount: number;
  start: number;
  nodes: AsOfNode[];
}
export const isSurfaceAsOf: Validator<SurfaceAsOf> = shape<SurfaceAsOf>({
  asOfSeq: count,
  surfaceLength: count,
  messageCount: count,
  start: count,
  nodes: arrayOf(isAsOfNode),
});

export type DiffEntry =
  | { kind: 'same'; count: number; fromIndex: number; toIndex: number }
  | { kind: 'removed'; fromIndex: number; seq: number; summary: string }
  | { kind: 'added'; toIndex: number; seq: number; summary: string };
export const isDiffEntry: Validator<DiffEntry> = tagged<DiffEntry, 'kind'>('kind', {
  same: shape({ kind: literal('same'), count: count, fromIndex: count, toIndex: count }),
  removed: shape({ kind: literal('removed'), fromIndex: count, seq: count, summary: str }),
  added: shape({ kind: literal('added'), toIndex: count, seq: count, summary: str }),
});

export interface MessagesDiff {
  fromSeq: number;
  toSeq: number;
  fromCount: number;
  toCount: number;
  added: number;
  removed: number;
  /** Unchanged runs are one `same` entry each. */
  entries: DiffEntry[];
  /** True when entries beyond the bound were left out (the counts above are whole). */
  truncated: boolean;
}
export const isMessagesDiff: Validator<MessagesDiff> = shape<MessagesDiff>({
  fromSeq: count,
  toSeq: count,
  fromCount: count,
  toCount: count,
  added: count,
  removed: count,
  entries: arrayOf(isDiffEntry),
  truncated: bool,
});
