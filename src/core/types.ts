// Shared vocabulary of the session core. Pure data types: no I/O, no vscode, no DOM.
import type { Words } from './words';

export type { Words, WordArg } from './words';

/** A JSON value as parsed from a log line. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * The step of dsh's load pipeline that refused a log (`done` when it loads). A v0 log is read as
 * dsh 0.1.1 reads it (header, parse, adopt, known-types, closers, seed); a later generation as dsh's
 * format layer reads it (header, bytes — the zstd container —, jsonl, decode, migrate — with the
 * edge —, restore).
 */
export type Stage =
  'header' | 'parse' | 'adopt' | 'known-types' | 'closers' | 'seed' | 'bytes' | 'jsonl' | 'decode' | 'migrate' | 'restore' | 'done';

/**
 * dsh's error class for a refusal: `SessionFormatUnsupportedError` refuses an intact log (v0); the
 * format layer's `SessionFormatError` and `SessionFormatUnsupportedMigrationError`, and its header
 * read's `readHeader:malformed` / `readHeader:unsupported`, name later generations' refusals.
 */
export type ErrorName =
  | 'Error'
  | 'TypeError'
  | 'SessionFormatUnsupportedError'
  | 'SessionFormatError'
  | 'SessionFormatUnsupportedMigrationError'
  | 'readHeader:malformed'
  | 'readHeader:unsupported';

/** `append`, or a replace in its generation's spelling: `start`/`end` (v0–v2), `startSeq`/`endSeq` (v3 and on). */
export type SurfaceOp = 'append' | { op: 'replace'; start: number; end: number } | { op: 'replace'; startSeq: number; endSeq: number };

/** One event of the log, after packed-row expansion and the legacy upgrade. */
export interface SessionEvent {
  type: string;
  seq: number;
  time: number;
  data: any;
  ignorable?: true;
  sourceEventSeqs?: number[];
  surfaceOp?: SurfaceOp;
}

/** The header as dsh's reader builds it (unknown keys dropped). */
export interface SessionHeader {
  version: number;
  id: string;
  createdAt: number;
  cwd?: string;
  parentSession?: string;
  seedLength?: number;
  /** v2 and on: whether the log starts with events inherited from its parent (the cut is marked by an end-seed). */
  isSeeded?: boolean;
  origin?: string;
  delegationDepth?: number;
  agentPreset?: string;
}

export type Severity = 'error' | 'warning' | 'info';

/** A place in the file: 1-based line, byte offset of the line start and its length (without the newline). */
export interface FilePlace {
  line: number;
  offset: number;
  length: number;
}

export interface RelatedPlace extends Partial<FilePlace> {
  seq?: number;
  message: string;
  /** `message` as a template and its arguments, for a display in another language (see words.ts). */
  words?: Words;
}

/** Every problem the core finds. `rule` uses the conformance MANIFEST rule names where one fits. */
export interface Diagnostic {
  severity: Severity;
  rule: string;
  message: string;
  /** `message` as a template and its arguments, for a display in another language (see words.ts). */
  words?: Words;
  line?: number;
  offset?: number;
  length?: number;
  seq?: number;
  related?: RelatedPlace[];
  /** True for the one diagnostic that is dsh's refusal of the log. */
  refusing?: boolean;
}

/** dsh's verdict on a log: what the reference implementation would do when opening it. */
export interface Verdict {
  ok: boolean;
  stage: Stage;
  /** Our wording of the refusal; names the line or seq and the rule. */
  error?: string;
  /** The reference implementation's own message for the same refusal. */
  dshError?: string;
  errorName?: ErrorName;
  rule?: string;
  line?: number;
  seq?: number;
  /** A migration's refusal: the adjacent edge that refused (`v2-to-v3`). */
  edge?: string;
}

/** What the byte scan saw (the conformance `scan` object). */
export interface ScanSummary {
  fileBytes: number;
  committedBytes: number;
  endsWithNewline: boolean;
  packedRows: number;
  /** Present only when committedBytes < fileBytes: "torn-tail" or why the prefix ended. */
  stoppedAt?: string;
}

export interface Replacement {
  seq: number;
  start: number;
  end: number;
  shadowedSeqs: number[];
}

/** Where one event came from in the file. Packed chunk rows hold several events on one line. */
export interface EventPlace extends FilePlace {
  /** Index of the event inside its packed chunk row, when it came from one. */
  packedMember?: number;
}
