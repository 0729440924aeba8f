// The one message protocol between the extension host and the session webview.
// Both sides import this file: the host (Node) and the webview bundle (DOM). It holds only plain,
// JSON-serialisable data types and type guards — no vscode, no DOM, and from the core only its pure
// data types — so the webview never depends on how the host reads logs. Messages carry data, never HTML.
//
// Two kinds of traffic: requests from the webview, each answered once by a `response` (requests.ts
// lists every method with its params and result), and notifications the host pushes on its own:
// load progress, the session summary when a load ends, small `appended` notes when a live log grows,
// search progress. Rows are never pushed: the webview asks for the windows it shows.
import type { SessionHeader } from '../core/types';
import { isRequestMessage, isResponseMessage, type RequestMessage, type ResponseMessage } from './requests';
import {
  isFieldView,
  isFileStatus,
  isSessionSummary,
  isSummaryCounts,
  type FieldView,
  type FileStatus,
  type LiveState,
  type SessionSummary,
  type SummaryCounts,
} from './summary';
import { isGeneration, type Generation } from './timeline';
import { arrayOf, bool, count, isObject, literal, num, optional, shape, str } from './validate';

export * from './crash';
export * from './lineage';
export * from './requests';
export * from './summary';
export * from './timeline';

/** Bump when a message changes shape; the webview says which version it speaks in `ready`. */
export const PROTOCOL_VERSION = 2;

export type Severity = 'error' | 'warning' | 'info';

/** The header fields shown: dsh's header, or the first line as written when dsh refused it. */
export type HeaderFields = SessionHeader;

export interface RelatedView {
  message: string;
  line?: number;
  seq?: number;
}

export interface DiagnosticView {
  severity: Severity;
  rule: string;
  message: string;
  /** 1-based file line, when the problem has one. */
  line?: number;
  seq?: number;
  refusing: boolean;
  related: RelatedView[];
}

export interface VerdictView {
  /** True when dsh would open the log. */
  ok: boolean;
  /** Pipeline step that refused the log (`done` when it loads). */
  stage: string;
  rule?: string;
  line?: number;
  seq?: number;
  message?: string;
  errorName?: string;
}

export interface CountsView {
  events: number;
  turns: number;
  /** Bytes of the file that the core has read. */
  fileBytes: number;
  /** Bytes up to the last complete record the core kept. */
  committedBytes: number;
  packedRows: number;
  closers: number;
  /** Lines after the first damaged line that still read as events; dsh keeps none of them. */
  linesBeyondDamage: number;
  errors: number;
  warnings: number;
  infos: number;
}

/** The summary as protocol 1 sent it; still sent beside `summary` while the webview moves over. */
export interface SessionSnapshot {
  fileName: string;
  /** Path shown to the user (fsPath for local files). */
  filePath: string;
  header?: HeaderFields;
  /** False when `header` is the line as written and dsh refuses it as a header. */
  headerAccepted: boolean;
  verdict: VerdictView;
  counts: CountsView;
  /** The last turn is open: an agent is writing, or it crashed (dsh would then append closers). */
  lastTurnOpen: boolean;
  live: LiveState;
  file: FileStatus;
  diagnostics: DiagnosticView[];
  /** Diagnostics beyond this many are counted in `counts` but not sent. */
  diagnosticsTruncated: boolean;
  /** Set when the workspace is not trusted: the editor is read-only and says why. */
  restrictedMode: boolean;
  /** Milliseconds the core took to read the log. */
  loadMs: number;
}

// ---- host -> webview ------------------------------------------------------------------------

export interface LoadingMessage {
  type: 'loading';
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

/** The load ended (or the file changed state): the whole "Session health" summary. */
export interface SummaryMessage {
  type: 'summary';
  summary: SessionSummary;
}

/**
 * A live log grew by appended events. Small on purpose: the new counts and generation, and whether
 * the surface changed (so surface-order windows and as-of views are fetched again).
 */
export interface AppendedMessage {
  type: 'appended';
  generation: Generation;
  /** Events added by this append. */
  added: number;
  surfaceChanged: boolean;
  counts: SummaryCounts;
  live: LiveState;
  liveText: string;
  file: FileStatus;
}

export interface SearchProgressMessage {
  type: 'searchProgress';
  searchId: number;
  /** Events searched so far of `total`. */
  scanned: number;
  total: number;
  matchCount: number;
}

export interface SnapshotMessage {
  type: 'snapshot';
  snapshot: SessionSnapshot;
}

export interface LoadFailedMessage {
  type: 'loadFailed';
  fileName: string;
  message: string;
}

/**
 * Bring an event (by seq) or a file line into view and mark it as the current place. Sent by the
 * keyboard commands of the session editor: Go to Seq…, Next/Previous Problem.
 */
export interface RevealMessage {
  type: 'reveal';
  seq?: number;
  line?: number;
  reason: 'goToSeq' | 'nextProblem' | 'previousProblem';
}

/**
 * The user-visible strings of the webview in VS Code's display language, sent before the first
 * snapshot and whenever they change. `language` is VS Code's display language (`vscode.env.language`,
 * e.g. `en`, `zh-cn`): the webview sets its `lang` attribute from it and formats numbers and dates with
 * it. `strings` maps an English source string to its translation; a missing key shows the English.
 */
export interface StringsMessage {
  type: 'strings';
  language: string;
  strings: Record<string, string>;
}

/** An event a pending edit would append: planned, shown in the timeline, not in the file until Save. */
export interface PendingEventRow {
  seq: number;
  type: string;
  /** The type in words ("Compaction start"). */
  label: string;
  /** A codicon name without the `codicon-` prefix. */
  icon: string;
  /** The edit that plans it ("Compact seqs 3–10"). */
  edit: string;
}

/** The document's pending edits changed (applied, undone, redone, saved, reverted, planned again). */
export interface PendingEditsMessage {
  type: 'pendingEdits';
  events: PendingEventRow[];
}

export type HostToWebview =
  LoadingMessage | SummaryMessage | AppendedMessage | SearchProgressMessage | SnapshotMessage | LoadFailedMessage | ResponseMessage;

/**
 * Notifications the host sends besides the document's state (a webview that does not know one yet
 * ignores it: `isHostToWebview` does not accept them; `isHostNotification` does).
 */
export type HostNotification = RevealMessage | StringsMessage | PendingEditsMessage;

// ---- webview -> host ------------------------------------------------------------------------

export interface ReadyMessage {
  type: 'ready';
  protocolVersion: number;
}

/** Read the file again from the start (after a truncation, rewrite or deletion). */
export interface ReloadMessage {
  type: 'reload';
}

/** Show a line of the log in the text editor (from a diagnostic row). */
export interface RevealLineMessage {
  type: 'revealLine';
  line: number;
}

/** The webview drew a snapshot; lets the host and the tests time "open -> header shown". */
export interface RenderedMessage {
  type: 'rendered';
  events: number;
  hasHeader: boolean;
}

/**
 * A measurement or marker for the end-to-end tests (first rows painted, frame times, heap). The
 * webview sends it only in test mode, and the host records it only in test mode.
 */
export interface TestReportMessage {
  type: 'testReport';
  name: string;
  values: Record<string, number | string | boolean>;
}

export type WebviewToHost = ReadyMessage | ReloadMessage | RevealLineMessage | RenderedMessage | TestReportMessage | RequestMessage;

const isTestValues = (v: unknown): v is Record<string, number | string | boolean> =>
  isObject(v) &&
  Object.keys(v).length <= 100 &&
  Object.values(v).every((x) => typeof x === 'boolean' || num(x) || (typeof x === 'string' && x.length <= 10_000));

/** Messages from a webview are untrusted input: check their shape before acting on them. */
export function isWebviewToHost(v: unknown): v is WebviewToHost {
  if (!isObject(v)) return false;
  switch (v.type) {
    case 'ready':
      return typeof v.protocolVersion === 'number';
    case 'reload':
      return true;
    case 'revealLine':
      return typeof v.line === 'number' && Number.isInteger(v.line) && v.line >= 1;
    case 'rendered':
      return typeof v.events === 'number' && typeof v.hasHeader === 'boolean';
    case 'testReport':
      return typeof v.name === 'string' && v.name.length <= 200 && isTestValues(v.values);
    case 'request':
      return isRequestMessage(v);
    default:
      return false;
  }
}

/** Messages from the host, checked by the webview before it draws anything from them. */
export function isHostToWebview(v: unknown): v is HostToWebview {
  if (!isObject(v)) return false;
  switch (v.type) {
    case 'loading':
      return (
        typeof v.fileName === 'string' &&
        count(v.totalBytes) &&
        optional(num)(v.fraction) &&
        literal('reading', 'parsing')(v.phase) &&
        optional(arrayOf(isFieldView, 50))(v.headerFields) &&
        optional(count)(v.events)
      );
    case 'summary':
      return isSessionSummary(v.summary);
    case 'appended':
      return shape<Omit<AppendedMessage, 'type'>>({
        generation: isGeneration,
        added: count,
        surfaceChanged: bool,
        counts: isSummaryCounts,
        live: literal('live', 'closed', 'noTurns', 'refused', 'unknown'),
        liveText: str,
        file: isFileStatus,
      })(v);
    case 'searchProgress':
      return shape<Omit<SearchProgressMessage, 'type'>>({ searchId: count, scanned: count, total: count, matchCount: count })(v);
    case 'snapshot':
      return isObject(v.snapshot);
    case 'loadFailed':
      return typeof v.message === 'string' && typeof v.fileName === 'string';
    case 'response':
      return isResponseMessage(v);
    default:
      return false;
  }
}

export function isHostNotification(v: unknown): v is HostNotification {
  if (!isObject(v)) return false;
  switch (v.type) {
    case 'reveal':
      return typeof v.seq === 'number' || typeof v.line === 'number';
    case 'strings':
      return typeof v.language === 'string' && isObject(v.strings) && Object.values(v.strings).every((x) => typeof x === 'string');
    case 'pendingEdits':
      return arrayOf(shape<PendingEventRow>({ seq: count, type: str, label: str, icon: str, edit: str }), 100_000)(v.events);
    default:
      return false;
  }
}
