// Requests from the webview and the host's answers. A request carries an id; the host answers it
// exactly once with a `response` of the same id: `ok: true` with the method's result and the generation
// stamp it was computed from, or `ok: false` with a typed error. The table below is the contract:
// each method's params and result, and a validator for both (the host checks params, the webview
// checks each result against the method it asked).
import type { SessionSummary } from './summary';
import { isSessionSummary } from './summary';
import { isGeneration, isRowFilter, isRowOrder, isRowWindow, type Generation, type RowFilter, type RowOrder, type RowWindow } from './rows';
import { isEventDetail, isProblemView, type EventDetail, type ProblemView } from './detail';
import { isSearchMatch, isSearchQuery, isSearchResult, type SearchMatch, type SearchQuery, type SearchResult } from './search';
import { isMessagesDiff, isSurfaceAsOf, type MessagesDiff, type SurfaceAsOf } from './as-of';
import { isOverview, isShadowBracket, type Overview, type ShadowBracket } from './overview';
import { isTimeSpans, isUsageTable, type TimeSpans, type UsageTable } from './time';
import { isCrashReviewView, isRepairAction, type CrashReviewView, type RepairAction } from './crash';
import { isLineageTarget, type LineageTarget } from './lineage';
import { isErrorCode, type ErrorCode } from './errors';
import { arrayOf, bool, count, isObject, line, literal, num, optional, shape, str, type Validator } from './validate';

/** Most rows one `rows` request may ask for. */
export const MAX_WINDOW = 2000;
const windowCount: Validator<number> = (v): v is number => count(v) && v <= MAX_WINDOW;

export interface RequestTable {
  /** Header, verdict, counts, sizes, live and file state: the "Session health" panel. */
  summary: { params: Record<string, never>; result: SessionSummary };
  /** A window of diagnostics, in file-line order (the same list `session-surface check` prints). */
  problems: { params: { start: number; count: number }; result: { start: number; total: number; problems: ProblemView[] } };
  /** A window of rows of one order. */
  rows: { params: { order: RowOrder; start: number; count: number; filter?: RowFilter }; result: RowWindow };
  /** The row index of a seq in an order (for jumps); `index` absent when the seq has no row there. */
  rowOf: { params: { order: RowOrder; seq: number; filter?: RowFilter }; result: { index?: number; total: number } };
  /** Everything the inspector shows for one event, and what to mark in the list while it is selected. */
  eventDetail: { params: { seq: number }; result: EventDetail };
  /** Starts a host-side search over the whole log; `searchProgress` notifications follow; answers at the end. */
  search: { params: SearchQuery; result: SearchResult };
  cancelSearch: { params: { searchId: number }; result: { cancelled: boolean } };
  /** A window of a finished (or cancelled) search's matches. */
  searchMatches: { params: { searchId: number; start: number; count: number }; result: { matchCount: number; matches: SearchMatch[] } };
  /** The next (or previous) match after (before) a row index, wrapping around. */
  searchStep: {
    params: { searchId: number; fromRow: number; direction: 'next' | 'previous' };
    result: { match?: SearchMatch; matchCount: number };
  };
  /** The surface and derived messages after folding every event up to `seq`, a window of its nodes. */
  surfaceAsOf: { params: { seq: number; start: number; count: number }; result: SurfaceAsOf };
  /** The derived messages of two points compared. */
  diffAsOf: { params: { fromSeq: number; toSeq: number }; result: MessagesDiff };
  /** The whole log in at most `buckets` buckets for the overview strip. */
  overview: { params: { buckets: number }; result: Overview };
  /** Spans active in [from, to] (ms since the epoch; the whole log when absent), at most `maxSpans`. */
  timeSpans: { params: { from?: number; to?: number; maxSpans: number }; result: TimeSpans };
  /** Token usage per turn or per step, a window of rows plus the sum over the log. */
  usage: { params: { level: 'turn' | 'step'; start: number; count: number }; result: UsageTable };
  /** Every replacement with what it shadowed. */
  shadowBrackets: { params: Record<string, never>; result: { brackets: ShadowBracket[] } };
  /** Opens the log as text at the event's (or the given) 1-based line; a zstd log as its decompressed text. */
  revealInTextEditor: { params: { seq?: number; line?: number }; result: { opened: boolean } };
  /** Reads the file again from the start (after a truncation, a rewrite, a deletion). */
  reload: { params: Record<string, never>; result: { reloading: true } };
  /** The open final turn with its ghost closers, the torn tail, repairs already made, health entries. */
  crashReview: { params: Record<string, never>; result: CrashReviewView };
  /** Runs Apply Crash Repair or Remove Torn Tail on this log (each asks first); never automatic. */
  repairAction: { params: { action: RepairAction }; result: { started: boolean } };
  /** How many child sessions of this one the sessions folder holds (0 when unknown). */
  lineage: { params: Record<string, never>; result: { children: number } };
  /** Opens the parent's log, or a child's (asking which when several), in the session editor. */
  openLineage: { params: { to: LineageTarget }; result: { opened: boolean } };
  /** Opens a session of the sessions folder by its id (a child a subagent catalog entry names). */
  openSession: { params: { id: string }; result: { opened: boolean } };
}

export type Method = keyof RequestTable;
export type Params<M extends Method> = RequestTable[M]['params'];
export type Result<M extends Method> = RequestTable[M]['result'];

const none = shape<Record<string, never>>({});
const revealParams = shape({ seq: optional(count), line: optional(line) });

export const PARAMS: { [M in Method]: Validator<Params<M>> } = {
  summary: none,
  problems: shape({ start: count, count: windowCount }),
  rows: shape({ order: isRowOrder, start: count, count: windowCount, filter: optional(isRowFilter) }),
  rowOf: shape({ order: isRowOrder, seq: count, filter: optional(isRowFilter) }),
  eventDetail: shape({ seq: count }),
  search: isSearchQuery,
  cancelSearch: shape({ searchId: count }),
  searchMatches: shape({ searchId: count, start: count, count: windowCount }),
  searchStep: shape({ searchId: count, fromRow: count, direction: literal('next', 'previous') }),
  surfaceAsOf: shape({ seq: count, start: count, count: windowCount }),
  diffAsOf: shape({ fromSeq: count, toSeq: count }),
  overview: shape({ buckets: (v): v is number => count(v) && v >= 1 && v <= 10_000 }),
  timeSpans: shape({ from: optional(num), to: optional(num), maxSpans: (v): v is number => count(v) && v <= 50_000 }),
  usage: shape({ level: literal('turn', 'step'), start: count, count: windowCount }),
  shadowBrackets: none,
  revealInTextEditor: (v): v is { seq?: number; line?: number } => revealParams(v) && (v.seq !== undefined || v.line !== undefined),
  reload: none,
  crashReview: none,
  repairAction: shape({ action: isRepairAction }),
  lineage: none,
  openLineage: shape({ to: isLineageTarget }),
  openSession: shape({ id: (v): v is string => str(v) && v.length > 0 && v.length <= 1000 }),
};

export const RESULTS: { [M in Method]: Validator<Result<M>> } = {
  summary: isSessionSummary,
  problems: shape({ start: count, total: count, problems: arrayOf(isProblemView) }),
  rows: isRowWindow,
  rowOf: shape({ index: optional(count), total: count }),
  eventDetail: isEventDetail,
  search: isSearchResult,
  cancelSearch: shape({ cancelled: bool }),
  searchMatches: shape({ matchCount: count, matches: arrayOf(isSearchMatch) }),
  searchStep: shape({ match: optional(isSearchMatch), matchCount: count }),
  surfaceAsOf: isSurfaceAsOf,
  diffAsOf: isMessagesDiff,
  overview: isOverview,
  timeSpans: isTimeSpans,
  usage: isUsageTable,
  shadowBrackets: shape({ brackets: arrayOf(isShadowBracket) }),
  revealInTextEditor: shape({ opened: bool }),
  reload: shape({ reloading: literal(true) }),
  crashReview: isCrashReviewView,
  repairAction: shape({ started: bool }),
  lineage: shape({ children: count }),
  openLineage: shape({ opened: bool }),
  openSession: shape({ opened: bool }),
};

const METHODS: ReadonlySet<string> = new Set(Object.keys(PARAMS));
export const isMethod = (v: unknown): v is Method => typeof v === 'string' && METHODS.has(v);

// ---- envelopes ----------------------------------------------------------------------------------
// Written as a mapped type indexed by its own keys, so that `RequestMessage` is a union told apart by
// `method`, and a function generic in the method (`answerRequest`) sees `params` and the handler of
// the same method together, without a cast.

export type RequestMessage<M extends Method = Method> = {
  [K in M]: { type: 'request'; id: number; method: K; params: Params<K> };
}[M];

export type ResponseOk<M extends Method = Method> = {
  [K in M]: { type: 'response'; id: number; method: K; ok: true; generation: Generation; result: Result<K> };
}[M];

export interface ResponseError {
  code: ErrorCode;
  message: string;
}

export interface ResponseFailed {
  type: 'response';
  id: number;
  method: Method;
  ok: false;
  error: ResponseError;
}

export type ResponseMessage<M extends Method = Method> = ResponseOk<M> | ResponseFailed;

/**
 * A response as the webview first receives it: the envelope checked, the result not yet, since only
 * the request waiting for it knows which result it asked for (HostClient checks it with RESULTS).
 */
export type ResponseEnvelope =
  { type: 'response'; id: number; method: Method; ok: true; generation: Generation; result: unknown } | ResponseFailed;

/** A request from the webview: envelope and params (the host answers `badRequest` to a bad one). */
export function isRequestMessage(v: unknown): v is RequestMessage {
  return isObject(v) && v.type === 'request' && count(v.id) && isMethod(v.method) && PARAMS[v.method](v.params);
}

const isResponseError = shape<ResponseError>({ code: isErrorCode, message: str });

/** A response's envelope: id, method, and either a generation stamp or a typed error. */
export function isResponseEnvelope(v: unknown): v is ResponseEnvelope {
  if (!isObject(v) || v.type !== 'response' || !count(v.id) || !isMethod(v.method)) return false;
  return v.ok === true ? isGeneration(v.generation) : v.ok === false && isResponseError(v.error);
}

/** A whole response: its envelope, and the result of the method it names. */
export function isResponseMessage(v: unknown): v is ResponseMessage {
  return isResponseEnvelope(v) && (!v.ok || RESULTS[v.method](v.result));
}
