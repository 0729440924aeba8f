// The public face of a loaded session log, used by the extension host, the CLI and the tests.
import type { Diagnostic, EventPlace, Replacement, ScanSummary, SessionEvent, SessionHeader, Verdict } from './types';
import type { DerivedMessage } from './surface/projections';
import type { NativeZstd } from './zstd/backend';
import type { Utf8Slicer } from './read/columns';

/** A message as the model sees it (`deriveMessages`). */
export type { DerivedMessage };

/**
 * Bounds on what reading a log may cost. A line longer than `maxLineBytes`, or a text (a zstd log's
 * decompressed bytes) longer than `maxTextBytes`, stops the read with a diagnostic that names the limit.
 */
export interface ReadLimits {
  maxLineBytes: number;
  maxTextBytes: number;
}

/**
 * Real dsh lines reach tens of MB and real logs hundreds of MB decompressed: the defaults leave a wide
 * margin. The text limit stays below 4 GiB, the longest typed array Node 20 makes, so a decoder can
 * hold the text and a block of headroom; the line limit stays below 512 MiB, the longest string V8 makes.
 */
export const DEFAULT_READ_LIMITS: Readonly<ReadLimits> = Object.freeze({
  maxLineBytes: 256 * 1024 * 1024,
  maxTextBytes: 2 * 1024 * 1024 * 1024,
});

export interface LoadOptions {
  /** Bounds on line and text size; each missing field takes its `DEFAULT_READ_LIMITS` value. */
  limits?: Partial<ReadLimits>;
  /** Used in messages only. */
  fileName?: string;
  /**
   * Node's zlib when the running Node has zstd (Node ≥ 22.15), handed in by the CLI or the host; without
   * it, zstd logs are decoded by the pure-JS fzstd. The core never imports Node modules itself.
   */
  zstdCodec?: NativeZstd;
  /**
   * Node's Buffer as the UTF-8 decoder of the log's lines, handed in by the CLI and the host: given the
   * bytes the core holds, a function decoding bytes start..end exactly as TextDecoder does (it decodes a
   * line faster). Without it, TextDecoder.
   */
  utf8Slicer?: Utf8Slicer;
  /** Called now and then during long loads with the fraction done (0..1). */
  onProgress?: (fraction: number) => void;
  /**
   * `false`: provenance gathers only what its diagnostics need, not the edge index behind the
   * provenance views (sourcesOf, derivativesOf and the rest then find no edges). For a caller that
   * reports problems only, as `session-surface check` does: every diagnostic is the same.
   */
  provenanceEdges?: boolean;
}

/** The result of appending bytes that a writer added to the file after we loaded it. */
export interface ExtendResult {
  /** Events added to the view. */
  added: number;
  /** Problems found in the new bytes (a refused append stops the view growing). */
  diagnostics: Diagnostic[];
}

/**
 * A session log as the core reads it: dsh's verdict plus everything that could be read.
 * Event bodies are parsed again from the bytes when asked for, so a large log stays small in memory.
 */
export interface SessionLogView {
  readonly verdict: Verdict;
  /** The header as dsh builds it, when the header line could be read. */
  readonly header: SessionHeader | undefined;
  /** The first line as parsed, even when dsh refuses it as a header. */
  readonly headerLine: unknown;
  readonly scan: ScanSummary;
  readonly diagnostics: readonly Diagnostic[];
  /** Events kept by the scan, packed rows expanded (the conformance `events`). */
  readonly eventCount: number;
  /** Seqs rewritten by the legacy-shape upgrade. */
  readonly upgradedSeqs: readonly number[];
  /** Closers dsh would append for an open final turn (in memory only). */
  readonly closers: readonly SessionEvent[];
  /**
   * Lines after the first damaged line that still read as events (dsh keeps none of them), among the first
   * 10,000 lines after it; `more` when further lines follow (they are not read for the view).
   */
  readonly linesBeyondDamage: { count: number; lines: readonly { line: number; type: string; seq?: number }[]; more: boolean };
  /** True when the last turn is open: a live writer or a crash. */
  readonly lastTurnOpen: boolean;

  /** One event, parsed on demand (legacy shapes upgraded). Closers have seqs after the kept events. */
  event(seq: number): SessionEvent | undefined;
  eventType(seq: number): string | undefined;
  /** The file line and bytes an event came from (undefined for closers). */
  place(seq: number): EventPlace | undefined;

  /** The surface of the raw log (no closers): what a read-only viewer of the log sees. */
  surface(): readonly number[];
  replaceGeneration(): number;
  replacements(): readonly Replacement[];
  deriveMessages(): DerivedMessage[];
  /** Cut positions 0..surface.length that are tool-pairing balanced, or the error the check raises. */
  balancedCuts(): { cuts: number[] } | { error: string };
  /** Human transcript: append-origin surface events in log order. */
  transcript(): number[];

  /** Folds bytes a writer appended to the file (the bytes after `scan.fileBytes`). */
  extend(appended: Uint8Array): ExtendResult;
}
