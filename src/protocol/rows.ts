// The rows of the timeline: the generation stamp every answer carries, the three orders, the filter,
// and one row of a window.
// Plain JSON data only. Every string in here has already been made safe to show by the host's
// presentation layer (single line where it says so, bounded, bidi controls neutralised); the webview
// still renders all of it as text, never as HTML.
import { arrayOf, bool, count, line, literal, num, optional, shape, str, type Shape, type Validator } from './validate';

// ---- generation stamps ----------------------------------------------------------------------------

/**
 * What a response was computed from. `events` grows with every folded append; `replaceGeneration`
 * grows with every surface replacement (a compaction or prune re-orders the surface); `load` grows
 * with every (re)load of the file. A response whose stamp differs from the latest one the webview
 * has seen (from `appended`/`summary`) is stale: fetch it again.
 */
export interface Generation {
  events: number;
  replaceGeneration: number;
  load: number;
}
export const isGeneration: Validator<Generation> = shape<Generation>({ events: count, replaceGeneration: count, load: count });

export function sameGeneration(a: Generation, b: Generation): boolean {
  return a.events === b.events && a.replaceGeneration === b.replaceGeneration && a.load === b.load;
}

// ---- rows -----------------------------------------------------------------------------------------

/**
 * `log`: every event in seq order (Full log). `surface`: the surface nodes in surface order, each a
 * derived message (Model view: exactly `deriveMessages`). `transcript`: what the user and the agent said.
 */
export type RowOrder = 'log' | 'surface' | 'transcript';
export const isRowOrder: Validator<RowOrder> = literal('log', 'surface', 'transcript');

export interface RowFilter {
  /** Only these event types (all when absent or empty). */
  types?: string[];
  /** Log order: a run of consecutive assistant/chunk events is one row (kind `chunkRun`). */
  collapseChunkRuns?: boolean;
  /** First seqs of chunk runs shown expanded although `collapseChunkRuns` is set. */
  expandedRuns?: number[];
  /** Only the events a crash repair wrote (its closers and the seed after them). */
  repairsOnly?: boolean;
}
export const isRowFilter: Validator<RowFilter> = shape<RowFilter>({
  types: optional(arrayOf(str, 200)),
  collapseChunkRuns: optional(bool),
  expandedRuns: optional(arrayOf(count, 10_000)),
  repairsOnly: optional(bool),
});

/** Where an event stands relative to the surface (of the raw log, without closers). */
export type SurfaceMark = 'node' | 'shadowed' | 'none';
export const isSurfaceMark: Validator<SurfaceMark> = literal('node', 'shadowed', 'none');

export type SeverityMark = 'error' | 'warning' | 'info';
export const isSeverityMark: Validator<SeverityMark> = literal('error', 'warning', 'info');

/** What names an event wherever it is shown: a row of the list, the inspector's heading. */
export interface EventHeading {
  seq: number;
  /** The event type as written (`assistant/message`). */
  type: string;
  /** Short label of the type for people ("Assistant message"). */
  label: string;
  /** A codicon name without the `codicon-` prefix. */
  icon: string;
  /** 1-based file line (several packed events share a line). */
  line: number;
  /** Milliseconds since the epoch, when the event records a time. */
  time?: number;
  /** The event's time, formatted in the display language. */
  timeText?: string;
  /** Index of the turn (0-based) and step in the turn that contain the event, when inside one. */
  turn?: number;
  step?: number;
  surface: SurfaceMark;
  /** The replacement event that shadowed this node. */
  shadowedBy?: number;
  /**
   * The protected system head (v3 and on): the system prompt the model reads first. No compaction or
   * prune may shadow it; only a system/message covering exactly it replaces it.
   */
  systemHead?: boolean;
}
export const eventHeadingFields: Shape<EventHeading> = {
  seq: count,
  type: str,
  label: str,
  icon: str,
  line: line,
  time: optional(num),
  timeText: optional(str),
  turn: optional(count),
  step: optional(count),
  surface: isSurfaceMark,
  shadowedBy: optional(count),
  systemHead: optional(bool),
};

export interface TimelineRow extends EventHeading {
  /** `event`: one event; `chunkRun`: a collapsed run of assistant/chunk events from `seq` to `lastSeq`. */
  kind: 'event' | 'chunkRun';
  /** Position of the row in its order (with the filter applied). */
  index: number;
  /** Last seq of a chunk run (the run has `runLength` chunks). */
  lastSeq?: number;
  runLength?: number;
  /** One line, bounded. */
  summary: string;
  /** Index in the surface order (surface nodes only). */
  surfaceIndex?: number;
  /** Index of the derived message the node gives (surface order; absent when it gives none). */
  messageIndex?: number;
  /** Set on replacement events: how many nodes they shadowed. */
  replacesCount?: number;
  /** Tokens recorded on the event (usage output/total), already formatted. */
  tokensText?: string;
  /** Most severe diagnostic on this event. */
  severity?: SeverityMark;
  /** Written by a crash repair: one of its closers, or the seed dsh wrote on reopening after it. */
  repair?: 'closer' | 'seed';
  /** Part of the seed a child session inherited from its parent (seq < the inherited event count). */
  inherited?: boolean;
}
export const isTimelineRow: Validator<TimelineRow> = shape<TimelineRow>({
  ...eventHeadingFields,
  kind: literal('event', 'chunkRun'),
  index: count,
  lastSeq: optional(count),
  runLength: optional(count),
  summary: str,
  surfaceIndex: optional(count),
  messageIndex: optional(count),
  replacesCount: optional(count),
  tokensText: optional(str),
  severity: optional(isSeverityMark),
  repair: optional(literal('closer', 'seed')),
  inherited: optional(bool),
});

export interface RowWindow {
  order: RowOrder;
  start: number;
  /** Rows in the whole order (with the filter applied). */
  total: number;
  rows: TimelineRow[];
}
export const isRowWindow: Validator<RowWindow> = shape<RowWindow>({
  order: isRowOrder,
  start: count,
  total: count,
  rows: arrayOf(isTimelineRow),
});
