// The data of the timeline: rows, event details, provenance, search, surface-as-of, overview, time
// spans and usage. Plain JSON data only. Every string in here has already been made safe to show by
// the host's presentation layer (single line where it says so, bounded, bidi controls neutralised);
// the webview still renders all of it as text, never as HTML.
import { arrayOf, bool, count, line, literal, num, optional, shape, str, tagged, type Validator } from './validate';

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

export interface TimelineRow {
  /** `event`: one event; `chunkRun`: a collapsed run of assistant/chunk events from `seq` to `lastSeq`. */
  kind: 'event' | 'chunkRun';
  /** Position of the row in its order (with the filter applied). */
  index: number;
  seq: number;
  /** Last seq of a chunk run (the run has `runLength` chunks). */
  lastSeq?: number;
  runLength?: number;
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
  /** One line, bounded. */
  summary: string;
  surface: SurfaceMark;
  /** Index in the surface order (surface nodes only). */
  surfaceIndex?: number;
  /** Index of the derived message the node gives (surface order; absent when it gives none). */
  messageIndex?: number;
  /** The replacement event that shadowed this node. */
  shadowedBy?: number;
  /** Set on replacement events: how many nodes they shadowed. */
  replacesCount?: number;
  /** Tokens recorded on the event (usage output/total), already formatted. */
  tokensText?: string;
  /** Most severe diagnostic on this event. */
  severity?: SeverityMark;
  /** Written by a crash repair: one of its closers, or the seed dsh wrote on reopening after it. */
  repair?: 'closer' | 'seed';
  /** Part of the seed a child session inherited from its parent (seq < the header's seedLength). */
  inherited?: boolean;
}
export const isTimelineRow: Validator<TimelineRow> = shape<TimelineRow>({
  kind: literal('event', 'chunkRun'),
  index: count,
  seq: count,
  lastSeq: optional(count),
  runLength: optional(count),
  type: str,
  label: str,
  icon: str,
  line: line,
  time: optional(num),
  timeText: optional(str),
  turn: optional(count),
  step: optional(count),
  summary: str,
  surface: isSurfaceMark,
  surfaceIndex: optional(count),
  messageIndex: optional(count),
  shadowedBy: optional(count),
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

// ---- event detail (the inspector) ------------------------------------------------------------------

export interface BoundedText {
  text: string;
  /** True when `text` was cut; `length` is the full length in UTF-16 units. */
  truncated: boolean;
  length: number;
}
export const isBoundedText: Validator<BoundedText> = shape<BoundedText>({ text: str, truncated: bool, length: count });

export type ContentBlockView =
  | { kind: 'text'; text: BoundedText }
  | { kind: 'reasoning'; text: BoundedText }
  | { kind: 'toolCall'; name: string; callId: string; /** pretty-printed JSON when the arguments parse */ arguments: BoundedText }
  | { kind: 'toolResult'; callId: string; isError: boolean; content: BoundedText }
  | { kind: 'image'; mediaType: string; width?: number; height?: number; bytes?: number; name?: string }
  | { kind: 'other'; blockType: string; json: BoundedText };
export const isContentBlockView: Validator<ContentBlockView> = tagged<ContentBlockView, 'kind'>('kind', {
  text: shape({ kind: literal('text'), text: isBoundedText }),
  reasoning: shape({ kind: literal('reasoning'), text: isBoundedText }),
  toolCall: shape({ kind: literal('toolCall'), name: str, callId: str, arguments: isBoundedText }),
  toolResult: shape({ kind: literal('toolResult'), callId: str, isError: bool, content: isBoundedText }),
  image: shape({
    kind: literal('image'),
    mediaType: str,
    width: optional(num),
    height: optional(num),
    bytes: optional(num),
    name: optional(str),
  }),
  other: shape({ kind: literal('other'), blockType: str, json: isBoundedText }),
});

export interface UsageView {
  input?: number;
  cachedInput?: number;
  output?: number;
  reasoning?: number;
  total?: number;
}
export const isUsageView: Validator<UsageView> = shape<UsageView>({
  input: optional(num),
  cachedInput: optional(num),
  output: optional(num),
  reasoning: optional(num),
  total: optional(num),
});

/** How two events are related (from the selected event's point of view). */
export type LinkRelation =
  | 'chunk' // a chunk this message was streamed from
  | 'message' // the message this chunk went into
  | 'requestedBy' // the assistant/message that asked for this tool/call
  | 'call' // a tool/call this message asked for
  | 'result' // a tool/result answering this call
  | 'answers' // the tool/call this result answers
  | 'shadowed' // a node this replacement shadowed
  | 'shadowedBy' // the replacement that shadowed this node
  | 'source' // any other recorded source
  | 'derived'; // any other event derived from this one
export const isLinkRelation: Validator<LinkRelation> = literal(
  'chunk',
  'message',
  'requestedBy',
  'call',
  'result',
  'answers',
  'shadowed',
  'shadowedBy',
  'source',
  'derived',
);

export interface ProvenanceLink {
  relation: LinkRelation;
  /** The event the link leads to. */
  target: number;
  targetType: string;
  targetLine: number;
  /** One line, bounded. */
  targetSummary: string;
  /** Recorded in the log, or inferred (by call id, by turn/step). */
  how: 'recorded' | 'inferred';
}
export const isProvenanceLink: Validator<ProvenanceLink> = shape<ProvenanceLink>({
  relation: isLinkRelation,
  target: count,
  targetType: str,
  targetLine: line,
  targetSummary: str,
  how: literal('recorded', 'inferred'),
});

/** A problem as the editor shows it: everything of ours in 1-based file lines. */
export interface ProblemView {
  severity: SeverityMark;
  rule: string;
  /** One sentence; when it quotes dsh's own message it says whose numbering that message uses. */
  message: string;
  line?: number;
  seq?: number;
  refusing: boolean;
  related: { message: string; line?: number; seq?: number }[];
}
export const isProblemView: Validator<ProblemView> = shape<ProblemView>({
  severity: isSeverityMark,
  rule: str,
  message: str,
  line: optional(line),
  seq: optional(count),
  refusing: bool,
  related: arrayOf(shape({ message: str, line: optional(line), seq: optional(count) })),
});

export interface EventDetail {
  seq: number;
  type: string;
  label: string;
  icon: string;
  line: number;
  time?: number;
  timeText?: string;
  turn?: number;
  step?: number;
  surface: SurfaceMark;
  shadowedBy?: number;
  /** The readable content of the event's message (text, reasoning, tool calls, results, images). */
  blocks: ContentBlockView[];
  /** The message's source ("model openai/gpt-5", "tool call_1", …) when it has one. */
  sourceText?: string;
  usage?: UsageView;
  /** Other fields of `data` as `name: value` lines, bounded. */
  fields: { name: string; value: string }[];
  /** The raw JSON line as written, bounded. */
  raw: BoundedText;
  links: ProvenanceLink[];
  problems: ProblemView[];
}
export const isEventDetail: Validator<EventDetail> = shape<EventDetail>({
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
  blocks: arrayOf(isContentBlockView),
  sourceText: optional(str),
  usage: optional(isUsageView),
  fields: arrayOf(shape({ name: str, value: str })),
  raw: isBoundedText,
  links: arrayOf(isProvenanceLink),
  problems: arrayOf(isProblemView),
});

// ---- provenance ---------------------------------------------------------------------------------

export interface ProvenanceView {
  seq: number;
  /** Everything linked to `seq`, both directions. */
  links: ProvenanceLink[];
  /** Seqs to highlight in the list when `seq` is selected (its chunks, its call/result, …). */
  highlight: number[];
  /** Orphan chunks, reassembly mismatches and the like that concern `seq`. */
  problems: ProblemView[];
}
export const isProvenanceView: Validator<ProvenanceView> = shape<ProvenanceView>({
  seq: count,
  links: arrayOf(isProvenanceLink),
  highlight: arrayOf(count),
  problems: arrayOf(isProblemView),
});

// ---- search -------------------------------------------------------------------------------------

export interface SearchQuery {
  text: string;
  caseSensitive?: boolean;
  /** Matches are reported as row indexes of this order and filter. */
  order: RowOrder;
  filter?: RowFilter;
}
export const isSearchQuery: Validator<SearchQuery> = shape<SearchQuery>({
  text: (v): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 1000,
  caseSensitive: optional(bool),
  order: isRowOrder,
  filter: optional(isRowFilter),
});

export interface SearchMatch {
  /** 0-based index of the match among all matches (in order of rows). */
  matchIndex: number;
  seq: number;
  /** Row index in the searched order, so the list can scroll to it. */
  rowIndex: number;
  /** One line around the match, bounded. */
  excerpt: string;
}
export const isSearchMatch: Validator<SearchMatch> = shape<SearchMatch>({ matchIndex: count, seq: count, rowIndex: count, excerpt: str });

export interface SearchResult {
  searchId: number;
  matchCount: number;
  /** False when the search was cancelled (by `cancelSearch` or a newer `search`) before the end. */
  complete: boolean;
  /** The first matches (up to 100); more through `searchMatches`. */
  first: SearchMatch[];
}
export const isSearchResult: Validator<SearchResult> = shape<SearchResult>({
  searchId: count,
  matchCount: count,
  complete: bool,
  first: arrayOf(isSearchMatch, 100),
});

// ---- surface as of a seq, and a diff of two points -------------------------------------------------

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

// ---- overview strip -----------------------------------------------------------------------------

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

// ---- time ---------------------------------------------------------------------------------------

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
}
export const isTimeSpans: Validator<TimeSpans> = shape<TimeSpans>({
  first: optional(num),
  last: optional(num),
  spans: arrayOf(isTimeSpan),
  truncated: bool,
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
