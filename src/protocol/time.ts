// Time and usage: each record's real extent (turns, steps, assistant and tool spans) and token usage
// per turn or per step.
// Plain JSON data only. Every string in here has already been made safe to show by the host's
// presentation layer (single line where it says so, bounded, bidi controls neutralised); the webview
// still renders all of it as text, never as HTML.
import { arrayOf, bool, count, literal, num, optional, shape, str, type Validator } from './validate';
import { isUsageView, type UsageView } from './detail';

/**
 * One record's real extent. `turn`/`step`: from start to end event. `assistant`: from the step start
 * (or first chunk's request) to the assistant/message, split at the first chunk into time to first
 * token and decoding. `tool`: from tool/call to its tool/result. `event`: an instant.
 */
export interface TimeSpan {
  kind: 'turn' | 'step' | 'assistant' | 'tool' | 'event';
  seq: number;
  /** The event that ends the span (absent while it is still open). */
  endSeq?: number;
  start: number;
  /** Milliseconds; absent while open. */
  duration?: number;
  /** Assistant spans: ms from the start to the first chunk. */
  firstTokenMs?: number;
  label: string;
  turn?: number;
  step?: number;
}
export const isTimeSpan: Validator<TimeSpan> = shape<TimeSpan>({
  kind: literal('turn', 'step', 'assistant', 'tool', 'event'),
  seq: count,
  endSeq: optional(count),
  start: num,
  duration: optional(num),
  firstTokenMs: optional(num),
  label: str,
  turn: optional(count),
  step: optional(count),
});

export interface TimeSpans {
  /** Time range of the whole log (ms since the epoch); absent when no event records a time. */
  first?: number;
  last?: number;
  spans: TimeSpan[];
  /** Spans in the asked range beyond `maxSpans` were left out (the longest are kept). */
  truncated: boolean;
  /** Events whose time cannot be real (0, or before the session was created), left out; and a sentence saying so. */
  ignoredTimes?: number;
  ignoredNote?: string;
  /** The whole log's time range, worded ("2 h 04 min"). */
  rangeText?: string;
}
export const isTimeSpans: Validator<TimeSpans> = shape<TimeSpans>({
  first: optional(num),
  last: optional(num),
  spans: arrayOf(isTimeSpan),
  truncated: bool,
  ignoredTimes: optional(count),
  ignoredNote: optional(str),
  rangeText: optional(str),
});

export interface UsageRow {
  level: 'turn' | 'step';
  /** The turn/start or step/start event. */
  seq: number;
  turn: number;
  step?: number;
  usage: UsageView;
}
export const isUsageRow: Validator<UsageRow> = shape<UsageRow>({
  level: literal('turn', 'step'),
  seq: count,
  turn: count,
  step: optional(count),
  usage: isUsageView,
});

export interface UsageTable {
  level: 'turn' | 'step';
  start: number;
  total: number;
  rows: UsageRow[];
  /** Sum over the whole log. */
  sum: UsageView;
}
export const isUsageTable: Validator<UsageTable> = shape<UsageTable>({
  level: literal('turn', 'step'),
  start: count,
  total: count,
  rows: arrayOf(isUsageRow),
  sum: isUsageView,
});
