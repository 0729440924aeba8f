// The terms of `decodeZstdLog` (decode.ts): what it takes (the codec, the limits, whether the bytes are a
// whole log or frames appended to one), what it gives back (the text and where each frame's content ends),
// and why it stops (the rules, with dsh's wording where dsh has one). The limits in force are worked out
// here too, since a caller's limits are checked against what the engine can hold before any decoding.
import type { NativeZstd } from './backend';
import { DEFAULT_READ_LIMITS } from '../api';
import { MAX_BLOCK_SIZE } from './frames';

/** The codec that decompressed the frames. */
export type ZstdBackend = 'zlib' | 'fzstd';

export interface ZstdDecodeOptions {
  /**
   * `auto` (default): `codec` when one is handed in, else the pure-JS `fzstd`.
   * Asking for `zlib` without a codec falls back to `fzstd` (see `ZstdDecodeResult.backend`).
   */
  backend?: 'auto' | ZstdBackend;
  /** Node's zlib when the running Node has zstd (the core never reaches for Node modules itself). */
  codec?: NativeZstd;
  /** Bounds on the decompressed text and its lines (defaults: `DEFAULT_READ_LIMITS`). */
  limits?: Partial<ZstdLimits>;
  /** Text bytes already read from earlier frames of the same log: they count against `maxTextBytes`. */
  textBefore?: number;
  /**
   * True (default): the bytes are a whole log, so the first data frame must be the header frame.
   * False: the bytes continue a log (frames a writer appended after `committedCompressedBytes` of an
   * earlier result); no header frame is expected and empty input is fine.
   */
  expectHeaderFrame?: boolean;
  /**
   * Check content checksums with our own XXH64 even when the backend checks them itself (zlib does;
   * fzstd does not, so with fzstd they are always checked here). Default false.
   */
  alwaysVerifyChecksums?: boolean;
  /**
   * False (default): every complete frame must end on a record (dsh 0.1's reader). True: a record may
   * continue into the next frame, and only the last complete frame must end on one (dsh's v3-era
   * persistence, which carries a fragment across frames).
   */
  recordsAcrossFrames?: boolean;
  /**
   * Makes the buffer the text is decoded into (default: a Uint8Array). A Node host hands in
   * Buffer.allocUnsafe: the reader then finds line ends with a Buffer's indexOf, several times faster
   * than a Uint8Array's. Anything but a Uint8Array of the asked length is ignored.
   */
  allocate?: (length: number) => Uint8Array;
}

/**
 * Why a log cannot be read past some frame. `message` is dsh's wording (spec §1.6) where dsh has one;
 * `detail` says where and what.
 */
export interface ZstdLogError {
  /**
   * One of: `empty or header-less Zstandard session log`;
   * `corrupt Zstandard session log: first frame is not exactly one header line`;
   * `corrupt Zstandard session log: complete frame contains a torn JSONL record`;
   * `corrupt Zstandard session log: <detail>` (checksum, decode and structure failures of a frame,
   * which dsh only calls corruption).
   */
  message: string;
  rule: ZstdRule;
  /** E.g. `frame 3 at compressed offset 1234: content checksum mismatch (stored 0x…, computed 0x…)`. */
  detail: string;
  /** 0-based index of the frame in the file, skippable frames included (-1: no frame at all). */
  frameIndex: number;
  /** Compressed byte offset where that frame starts. */
  compressedOffset: number;
  /** For the `limits.*` rules: the limit, in bytes. */
  limit?: number;
}

export type ZstdRule =
  /** No complete header frame: empty file, torn first frame, or not Zstandard at all. */
  | 'zstd.header-less'
  /** The first frame does not hold exactly one line. */
  | 'zstd.header-frame'
  /** A complete frame whose content does not end with `\n`. */
  | 'zstd.torn-record'
  /** A content checksum mismatch. */
  | 'zstd.checksum'
  /** A complete frame the codec refuses, a structural rule broken, or bytes that are not a frame. */
  | 'zstd.frame-corrupt'
  /** The decompressed text would pass `maxTextBytes` (or a frame declares a window or size beyond it). */
  | 'limits.text-bytes'
  /** A line of the decompressed text would pass `maxLineBytes`. */
  | 'limits.line-bytes';

export interface ZstdLimits {
  maxTextBytes: number;
  maxLineBytes: number;
}

/**
 * The longest typed array Node 20 makes is 4 GiB; the decoder keeps one block of headroom above the text
 * limit. The longest string V8 makes is 2^29 - 24 characters, so a longer line could never be decoded
 * to text.
 */
const MAX_TEXT_BYTES = 2 ** 32 - 2 * MAX_BLOCK_SIZE;
const MAX_LINE_BYTES = 2 ** 29 - 24;

/** The limits in force: missing, non-numeric or out-of-range values take the default or the engine's bound. */
export function effectiveLimits(limits: Partial<ZstdLimits> | undefined): ZstdLimits {
  const pick = (value: unknown, fallback: number, max: number): number =>
    typeof value === 'number' && value >= 0 && !Number.isNaN(value) ? Math.min(Math.floor(value), max) : Math.min(fallback, max);
  return {
    maxTextBytes: pick(limits?.maxTextBytes, DEFAULT_READ_LIMITS.maxTextBytes, MAX_TEXT_BYTES),
    maxLineBytes: pick(limits?.maxLineBytes, DEFAULT_READ_LIMITS.maxLineBytes, MAX_LINE_BYTES),
  };
}

/**
 * What `decodeZstdLog` read. On an error, everything before the failing frame is still returned, so a
 * viewer can show the readable prefix; `error` then says why reading stopped.
 */
export interface ZstdDecodeResult {
  /**
   * The JSONL text: the decompressed content of the kept frames in order, then the complete lines
   * recovered from a torn final frame (`recoveredBytes` of them). May be a view into a larger buffer.
   */
  text: Uint8Array;
  /** Complete data frames kept (skippable frames are not counted). */
  frames: number;
  /** frameEnds[i]: offset in `text` just after kept frame i; the last one is the committed text size. */
  frameEnds: number[];
  /** frameOffsets[i]: compressed offset where kept frame i starts. */
  frameOffsets: number[];
  /** Skippable frames met (and ignored) before reading stopped. */
  skippableFrames: number;
  /** Size of the input. */
  compressedBytes: number;
  /**
   * Compressed offset just after the last complete frame kept: the safe truncation point, and where
   * to continue with `expectHeaderFrame: false` when the writer appends more frames.
   */
  committedCompressedBytes: number;
  /** Set when the input ends inside a frame: the compressed offset where that torn frame starts. */
  tornFrameStart?: number;
  /** With `tornFrameStart`: bytes of complete lines recovered from the torn frame (at the end of `text`). */
  recoveredBytes?: number;
  /** With `tornFrameStart`: the torn frame's 0-based index (skippable frames included) and kind. */
  tornFrameIndex?: number;
  tornFrameKind?: 'zstd' | 'skippable';
  /** For a torn skippable frame: the size its header declares (it runs past the end of the file). */
  tornFrameDeclares?: number;
  /** Why reading stopped early, when it did (a torn tail alone is not an error). */
  error?: ZstdLogError;
  /** The codec that decompressed the frames (a torn frame's prefix is always read with fzstd's stream). */
  backend: ZstdBackend;
  /** Frames whose content checksum was verified (by us or by the codec). */
  checksumsVerified: number;
}
