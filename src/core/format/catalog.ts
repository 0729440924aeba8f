// Reading a file as a target generation, the way dsh's catalog does: the header (refused when newer
// than the target), the stored generation's decoder, the chain of adjacent migrations up to the
// target streamed row by row, then the target generation's restore. The outcome is a verdict in the
// conformance corpus's terms (stage, dsh's error verbatim, the physical line).
import type { NativeZstd } from '../zstd/backend';
import type { ZstdLimits } from '../zstd/decode';
import type { Artifact, FormatGeneration, Recovery } from './types';

export type FormatStage = 'header' | 'jsonl' | 'decode' | 'migrate' | 'restore' | 'bytes' | 'done';

export interface FormatVerdict {
  ok: boolean;
  stage: FormatStage;
  targetVersion: number;
  /** The stored generation (the header's `version`), once the header was read. */
  headerVersion?: number;
  /** With stage `migrate`: the edge that refused, `v0-to-v1` … */
  edge?: string;
  /** dsh's exception name (`SessionFormatError`, `SessionFormatUnsupportedMigrationError`, `Error`, `readHeader:malformed` …). */
  errorName?: string;
  /** dsh's message verbatim. */
  dshError?: string;
  /** The 1-based physical line that caused the refusal. */
  line?: number;
  /** The later line whose `turn/end` made a recoverable problem fatal. */
  throwLine?: number;
  /** What recovery dropped silently: the first issue and its line. */
  recovered?: { line: number; error: string };
  events?: number;
  inheritedEventCount?: number;
  isSeeded?: boolean;
  /** sha256 and UTF-8 byte length of the target form as dsh's encoder writes it. */
  sha256?: string;
  bytes?: number;
  /** Event-type histogram of the target form. */
  types?: Record<string, number>;
}

/** Where a decoded event of the stored generation sits in the file. */
export interface EventPlaces {
  /** line[i]: the physical line of event i. */
  line: number[];
  /** member[i]: its index inside a packed row, -1 for an event alone on its line. */
  member: number[];
}

export interface FormatRead {
  verdict: FormatVerdict;
  /** The target form, when the read succeeded. */
  artifact?: Artifact;
  /** For a read of the stored generation as itself: where each event is in the file. */
  eventPlaces?: EventPlaces;
}

export interface ReadGenerationOptions {
  targetVersion: number;
  /** `recoverable` (default): what dsh does when it opens a session. `strict`: an isolated verifier. */
  recovery?: Recovery;
  zstdCodec?: NativeZstd;
  zstdLimits?: Partial<ZstdLimits>;
  /** The registered generations (default: generations.ts). */
  generations?: readonly FormatGeneration[];
  /** The generation the file's name says, when known: a header version that differs is refused. */
  fileNameVersion?: number;
  /** Handed to every migration stage (e.g. child logs for an edge that needs them). */
  evidence?: Readonly<Record<string, unknown>>;
  /** Compute sha256/bytes of the target form (default true). */
  encode?: boolean;
}

export function readGeneration(file: Uint8Array, options: ReadGenerationOptions): FormatRead {
  void file;
  void options;
  throw new Error('not implemented');
}
