// The one message protocol between the extension host and the session webview.
// Both sides import this file: the host (Node) and the webview bundle (DOM). It holds only plain,
// JSON-serialisable data types and type guards — no vscode, no DOM, and from the core only its pure
// data types — so the webview never depends on how the host reads logs. Messages carry data, never HTML.
import type { SessionHeader } from '../core/types';

/** Bump when a message changes shape; the webview says which version it speaks in `ready`. */
export const PROTOCOL_VERSION = 1;

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

/**
 * What the host knows about the file on disk:
 *  - `following`: watched, appended lines are folded in;
 *  - `truncated` / `rewritten` / `deleted`: the loaded prefix no longer matches the file;
 *    the view keeps what it had and offers a reload (nothing is ever written);
 *  - `stopped`: an append could not be folded (for example the core refused it).
 */
export type FileState = 'following' | 'truncated' | 'rewritten' | 'deleted' | 'stopped';

export interface FileStatus {
  state: FileState;
  /** One sentence for the user when state is not `following`. */
  explanation?: string;
  size: number;
  mtimeMs: number;
  /** Milliseconds since the epoch of the last append that was folded in. */
  lastAppendAt?: number;
}

/** Whether the session looks like it is still being written. */
export type LiveState = 'live' | 'closed' | 'unknown';

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
  /** The editor never writes the log in this version; kept explicit so the UI can say so. */
  readOnly: true;
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

export type HostToWebview = LoadingMessage | SnapshotMessage | LoadFailedMessage;

/**
 * Notifications the host sends besides the document's state (a webview that does not know one yet
 * ignores it: `isHostToWebview` does not accept them; `isHostNotification` does).
 */
export type HostNotification = RevealMessage | StringsMessage;

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

export type WebviewToHost = ReadyMessage | ReloadMessage | RevealLineMessage | RenderedMessage;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Messages from a webview are untrusted input: check their shape before acting on them. */
export function isWebviewToHost(v: unknown): v is WebviewToHost {
  if (!isObject(v)) return false;
  switch (v.type) {
    case 'ready': return typeof v.protocolVersion === 'number';
    case 'reload': return true;
    case 'revealLine': return typeof v.line === 'number' && Number.isInteger(v.line) && v.line >= 1;
    case 'rendered': return typeof v.events === 'number' && typeof v.hasHeader === 'boolean';
    default: return false;
  }
}

export function isHostToWebview(v: unknown): v is HostToWebview {
  if (!isObject(v)) return false;
  switch (v.type) {
    case 'loading': return typeof v.fileName === 'string' && typeof v.totalBytes === 'number';
    case 'snapshot': return isObject(v.snapshot);
    case 'loadFailed': return typeof v.message === 'string';
    default: return false;
  }
}

export function isHostNotification(v: unknown): v is HostNotification {
  if (!isObject(v)) return false;
  switch (v.type) {
    case 'reveal': return typeof v.seq === 'number' || typeof v.line === 'number';
    case 'strings': return typeof v.language === 'string' && isObject(v.strings);
    default: return false;
  }
}
