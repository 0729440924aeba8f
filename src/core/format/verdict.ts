// A read's outcome in the conformance corpus's terms: where dsh stopped (stage), dsh's exception and
// message verbatim, the physical line, and for a successful read the target form's counts and digest.
import type { Utf8Slicer } from '../read/columns';
import type { Sha256Stream } from '../sha256';
import type { NativeZstd } from '../zstd/backend';
import type { ZstdLimits } from '../zstd/decode-types';
import type { DecodedEventCallback } from './read-events';
import type { Artifact, FormatGeneration, Recovery } from './types';

export type FormatStage = 'header' | 'jsonl' | 'decode' | 'migrate' | 'restore' | 'bytes' | 'done';

export interface FormatVerdict {
  ok: boolean;
  stage: FormatStage;
  targetVersion: number;
  /** The stored generation (the header's `version`), once the header line was read. */
  headerVersion?: number;
  /** With stage `migrate`: the edge that refused, `v0-to-v1` … */
  edge?: string;
  /**
   * dsh's exception name (`SessionFormatError`, `SessionFormatUnsupportedMigrationError`, `Error`,
   * `readHeader:malformed`, `readHeader:unsupported` …).
   */
  errorName?: string;
  /** dsh's message verbatim. */
  dshError?: string;
  /** Why the read could not even start, in our words (a target this build does not register). */
  reason?: string;
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
  /** Event-type histogram of the target form, types sorted. */
  types?: Record<string, number>;
}

export interface FormatRead {
  verdict: FormatVerdict;
  /** The target form, when the read succeeded and the artifact was kept (`encode`, `keepArtifact`). */
  artifact?: Artifact;
  /** Whether the file was zstd. */
  compressed?: boolean;
}

export interface ReadGenerationOptions {
  targetVersion: number;
  /** `recoverable` (default): what dsh does when it opens a session. `strict`: an isolated verifier. */
  recovery?: Recovery;
  /** `current` (default): a restore's refusal is reported as it is; `transformed`: wrapped as a migration refusal. */
  validation?: 'current' | 'transformed';
  zstdCodec?: NativeZstd;
  zstdLimits?: Partial<ZstdLimits>;
  utf8Slicer?: Utf8Slicer;
  /** The registered generations (default: generations.ts). */
  generations?: readonly FormatGeneration[];
  /** The generation the file's name says, when known: a header version that differs is refused. */
  fileNameVersion?: number;
  /** Handed to every migration stage (e.g. child logs for an edge that needs them). */
  evidence?: Readonly<Record<string, unknown>>;
  /** Compute sha256/bytes of the target form (default true); the artifact is then kept. */
  encode?: boolean;
  /** Keep the target form's events and return the artifact even when it is not encoded. */
  keepArtifact?: boolean;
  /**
   * For a read of the stored generation as itself: each event, with its place in the file, as it is
   * decoded (before the restore's verdict; a refused read has handed some or all of its events).
   * What the callback throws passes through `readGeneration`.
   */
  onEvent?: DecodedEventCallback;
  /** A faster SHA-256 a host may hand in (Node's crypto) for the target form's digest. */
  sha256?: () => Sha256Stream;
}
