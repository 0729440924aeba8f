// What the host tells the webview on its own, unasked: one table of notifications, each with its
// params and a validator (the webview checks every notification before it uses it). They travel as
// `{ type: 'notification', method, params }` through one channel per webview, which holds them until the
// webview says it is ready (src/host/webview-channel.ts). Rows are never pushed: the webview asks for
// the windows it shows.
import type { PendingEventRow } from './pending';
import { isPendingEventRow } from './pending';
import { isFieldView, isFileStatus, isSessionSummary, isSummaryCounts } from './summary';
import type { FieldView, FileStatus, LiveState, SessionSummary, SummaryCounts } from './summary';
import { isGeneration, type Generation } from './rows';
import { arrayOf, bool, count, isObject, line, literal, num, optional, shape, str, type Validator } from './validate';

/** The log is being read; coalesced to one a tick. */
export interface LoadProgress {
  fileName: string;
  totalBytes: number;
  /** 0..1 of the current phase (reading the bytes, then the core checking them); undefined: unknown. */
  fraction?: number;
  phase: 'reading' | 'parsing';
  /** Header fields as soon as the first line is read (before the load ends). */
  headerFields?: FieldView[];
  /** Events read so far. */
  events?: number;
}

/**
 * A live log grew by appended events. Small on purpose: the new counts and generation, the facts an
 * append changes worded by the host as the summary's were, and whether the surface changed (so
 * surface-order windows and as-of views are fetched again).
 */
export interface AppendedNote {
  generation: Generation;
  /** Events added by this append. */
  added: number;
  surfaceChanged: boolean;
  counts: SummaryCounts;
  /** The summary's worded facts as they are after the append (they replace the summary's). */
  facts: FieldView[];
  live: LiveState;
  liveText: string;
  file: FileStatus;
}

export interface SearchProgress {
  searchId: number;
  /** Events searched so far of `total`. */
  scanned: number;
  total: number;
  matchCount: number;
}

/**
 * Bring an event (by seq) or a file line into view and mark it as the current place. Sent by the
 * keyboard commands of the session editor: Go to Seq…, Next/Previous Problem.
 */
export interface RevealTarget {
  seq?: number;
  line?: number;
  reason: 'goToSeq' | 'nextProblem' | 'previousProblem';
}

/**
 * The user-visible strings of the webview in VS Code's display language. `language` is VS Code's
 * display language (`vscode.env.language`, e.g. `en`, `zh-cn`): the webview sets its `lang` attribute
 * from it and formats numbers and dates with it. `strings` maps an English source string to its
 * translation; a missing key shows the English.
 */
export interface StringsTable {
  language: string;
  strings: Record<string, string>;
}

export interface NotificationTable {
  loading: LoadProgress;
  /** The load ended (or the file changed state): the whole "Session health" summary. */
  summary: { summary: SessionSummary };
  appended: AppendedNote;
  loadFailed: { fileName: string; message: string };
  /** Progress of a `search` request that is still running. */
  searchProgress: SearchProgress;
  reveal: RevealTarget;
  /** Sent before anything else, whenever the webview (re)starts. */
  strings: StringsTable;
  /** The document's pending edits changed (applied, undone, redone, saved, reverted, planned again). */
  pendingEdits: { events: PendingEventRow[] };
}

export type NotificationMethod = keyof NotificationTable;
export type NotificationParams<N extends NotificationMethod> = NotificationTable[N];

const LIVE_STATES = literal('live', 'closed', 'noTurns', 'refused', 'unknown');

export const NOTIFICATIONS: { [N in NotificationMethod]: Validator<NotificationParams<N>> } = {
  loading: shape<LoadProgress>({
    fileName: str,
    totalBytes: count,
    fraction: optional(num),
    phase: literal('reading', 'parsing'),
    headerFields: optional(arrayOf(isFieldView, 50)),
    events: optional(count),
  }),
  summary: shape({ summary: isSessionSummary }),
  appended: shape<AppendedNote>({
    generation: isGeneration,
    added: count,
    surfaceChanged: bool,
    counts: isSummaryCounts,
    facts: arrayOf(isFieldView, 50),
    live: LIVE_STATES,
    liveText: str,
    file: isFileStatus,
  }),
  loadFailed: shape({ fileName: str, message: str }),
  searchProgress: shape<SearchProgress>({ searchId: count, scanned: count, total: count, matchCount: count }),
  reveal: (v): v is RevealTarget =>
    shape<RevealTarget>({ seq: optional(count), line: optional(line), reason: literal('goToSeq', 'nextProblem', 'previousProblem') })(v) &&
    (v.seq !== undefined || v.line !== undefined),
  strings: shape<StringsTable>({
    language: str,
    strings: (v): v is Record<string, string> => isObject(v) && Object.values(v).every((x) => typeof x === 'string'),
  }),
  pendingEdits: shape({ events: arrayOf(isPendingEventRow, 100_000) }),
};

const NOTIFICATION_METHODS: ReadonlySet<string> = new Set(Object.keys(NOTIFICATIONS));
export const isNotificationMethod = (v: unknown): v is NotificationMethod => typeof v === 'string' && NOTIFICATION_METHODS.has(v);

/** A union told apart by `method` (see RequestMessage for why it is written as a mapped type). */
export type NotificationMessage<N extends NotificationMethod = NotificationMethod> = {
  [K in N]: { type: 'notification'; method: K; params: NotificationParams<K> };
}[N];

export function notification<N extends NotificationMethod>(method: N, params: NotificationParams<N>): NotificationMessage<N> {
  return { type: 'notification', method, params };
}

export function isNotificationMessage(v: unknown): v is NotificationMessage {
  return isObject(v) && v.type === 'notification' && isNotificationMethod(v.method) && NOTIFICATIONS[v.method](v.params);
}
