// Reading a dsh `session.jsonl.zstd` log: concatenated, independent, checksummed Zstandard frames, the first
// holding exactly the header line and every later one a durable append batch of complete JSONL lines
// (spec §1.2). The frame and block headers are walked first (frames.ts), which finds each frame's end and
// whether it is complete without decoding anything; then the frames are decoded and checked in order, so
// that a damaged frame is named by its index and compressed offset and a torn final frame keeps the
// complete lines it holds (spec §1.6).
//
// Bounded: a frame whose header declares a window or content size beyond the text limit is refused before
// it is decoded, and decoding stops as soon as the text passes the text limit or a line passes the line
// limit, so the work done is proportional to the limits, never to what a frame claims.
//
// Codecs: Node's zlib when the caller hands it in (it checks content checksums itself, and decodes all
// complete frames in one call when they declare their sizes, since per-call overhead dominates logs of
// many small frames), else fzstd (pure JS; it does not check checksums, so XXH64 is computed here).
// Frames that could hold a line longer than the line limit, and a torn final frame, are always read with
// fzstd, whose progress through a frame can be watched (see `WatchedTarget`) and stopped.
import { decompress as fzstdDecompress } from 'fzstd';
import type { NativeZstd } from './backend';
import { DEFAULT_READ_LIMITS } from '../api';
import { longestKnownLine, MAX_BLOCK_SIZE, scanFrame, storedChecksum, type FrameScan, type ZstdFrameScan } from './frames';
import { xxh64Low32 } from './xxh64';

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

const NEWLINE = 0x0a;
const HEADERLESS = 'empty or header-less Zstandard session log';
const HEADER_FRAME = 'corrupt Zstandard session log: first frame is not exactly one header line';
const TORN_RECORD = 'corrupt Zstandard session log: complete frame contains a torn JSONL record';

/**
 * True when the bytes start with the Zstandard frame magic 28 B5 2F FD, or with a skippable frame's
 * magic (5? 2A 4D 18), which may precede the header frame. Neither can start a JSONL line.
 */
export function isZstd(bytes: Uint8Array): boolean {
  return startsLikeFrame(bytes);
}

/**
 * True for fewer than 4 bytes that could still begin a frame (none at all included): a file that is empty
 * or holds only a partial magic number when it is first read may turn out to be either kind of log.
 */
export function mayStartFrame(bytes: Uint8Array): boolean {
  if (bytes.length >= 4) return false;
  const zstd = [0x28, 0xb5, 0x2f, 0xfd];
  const skippable = [0x50, 0x2a, 0x4d, 0x18];
  const prefixOf = (magic: number[], mask = 0xff) => Array.from(bytes).every((b, i) => (b & (i === 0 ? mask : 0xff)) === magic[i]);
  return prefixOf(zstd) || prefixOf(skippable, 0xf0);
}

function startsLikeFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  if (bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd) return true;
  return (bytes[0] & 0xf0) === 0x50 && bytes[1] === 0x2a && bytes[2] === 0x4d && bytes[3] === 0x18;
}

/** A growable output buffer: one allocation when the frames declare their sizes, geometric growth otherwise. */
class Output {
  buf: Uint8Array;
  len = 0;
  constructor(
    capacity: number,
    private readonly ceiling: number,
    private readonly allocate?: (length: number) => Uint8Array,
  ) {
    this.buf = this.make(capacity);
  }
  /** Takes over decoded bytes as the buffer, with `len` 0: the frame loop then walks over them. */
  static wrap(content: Uint8Array): Output {
    const o = new Output(0, content.length);
    o.buf = content;
    return o;
  }
  private make(length: number): Uint8Array {
    if (this.allocate && length > 0) {
      try {
        const made = this.allocate(length);
        if (made instanceof Uint8Array && made.length === length) return made;
      } catch {
        // the caller's allocator failed: ours
      }
    }
    return new Uint8Array(length);
  }
  reserve(extra: number): void {
    const need = this.len + extra;
    if (need <= this.buf.length) return;
    const next = this.make(Math.max(need, Math.min(Math.ceil(this.buf.length * 1.5), this.ceiling), 1 << 16));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  push(chunk: Uint8Array): void {
    this.reserve(chunk.length);
    this.buf.set(chunk, this.len);
    this.len += chunk.length;
  }
}

class FrameError extends Error {
  constructor(
    readonly rule: ZstdRule,
    message: string,
    readonly limit?: number,
  ) {
    super(message);
  }
}

const hex = (n: number): string => '0x' + (n >>> 0).toString(16).padStart(8, '0');
const mib = (n: number): string => (n >= 1024 * 1024 ? `${+(n / (1024 * 1024)).toFixed(1)} MiB` : `${n} bytes`);

function textLimitError(what: string, limit: number): FrameError {
  return new FrameError('limits.text-bytes', `${what} (the text limit is ${mib(limit)}, maxTextBytes)`, limit);
}

function lineLimitError(limit: number): FrameError {
  return new FrameError('limits.line-bytes', `holds a line longer than the line limit of ${mib(limit)} (maxLineBytes)`, limit);
}

/**
 * Decodes a whole `session.jsonl.zstd` (or, with `expectHeaderFrame: false`, frames appended to one).
 * Never throws: every problem is reported in `error` (see `ZstdDecodeResult`).
 */
export function decodeZstdLog(bytes: Uint8Array, options: ZstdDecodeOptions = {}): ZstdDecodeResult {
  const zlib = options.backend === 'fzstd' ? undefined : options.codec;
  const backend: ZstdBackend = zlib ? 'zlib' : 'fzstd';
  const expectHeader = options.expectHeaderFrame !== false;
  const ownChecksums = backend === 'fzstd' || options.alwaysVerifyChecksums === true;
  const limits = effectiveLimits(options.limits);
  const textBefore = Math.max(0, options.textBefore ?? 0);
  const textBudget = Math.max(0, limits.maxTextBytes - textBefore);
  const ceiling = textBudget + MAX_BLOCK_SIZE;

  // 1. A first structural walk sizes the output (frames are walked again, one at a time, below).
  const survey = surveyFrames(bytes);

  // 2. With zlib and declared sizes, all complete frames in one call (the codec checks the checksums);
  //    the declared sizes then give the frame boundaries. Per-call overhead dominates logs made of many
  //    small frames. On any failure, fall back to frame-by-frame decoding, which names the bad frame.
  let out: Output | undefined;
  let batched = false;
  if (
    zlib &&
    survey.allDeclared &&
    survey.declared > 0 &&
    survey.declared <= textBudget &&
    survey.largestFrame <= limits.maxLineBytes &&
    survey.largestWindow <= limits.maxTextBytes
  ) {
    try {
      const content = zlib.zstdDecompressSync(bytes.subarray(0, survey.completeEnd), {
        params: zlibParams(zlib),
        maxOutputLength: survey.declared,
      });
      if (content.length === survey.declared) {
        out = Output.wrap(content);
        batched = true;
      }
    } catch {
      // decoded again below, frame by frame
    }
  }
  // Otherwise one buffer sized from the frame headers (exact when every frame declares its size).
  if (!out) {
    try {
      out = new Output(Math.min(survey.estimate, ceiling), ceiling, options.allocate);
    } catch {
      out = new Output(0, ceiling, options.allocate);
    }
  }
  const output = out;

  const result: ZstdDecodeResult = {
    text: output.buf.subarray(0, 0),
    frames: 0,
    frameEnds: [],
    frameOffsets: [],
    skippableFrames: 0,
    compressedBytes: bytes.length,
    committedCompressedBytes: 0,
    backend,
    checksumsVerified: 0,
  };
  /** `message` null: dsh only calls it corruption, so the message is ours and names the frame. */
  const fail = (
    rule: ZstdRule,
    message: string | null,
    frameIndex: number,
    offset: number,
    what: string,
    limit?: number,
  ): ZstdDecodeResult => {
    const detail = frameIndex < 0 ? what : `frame ${frameIndex + 1} at compressed offset ${offset}: ${what}`;
    const ours = rule.startsWith('limits.')
      ? 'Zstandard session log is beyond the read limits'
      : `corrupt Zstandard session log: ${detail}`;
    result.error = { message: message ?? ours, rule, detail, frameIndex, compressedOffset: offset };
    if (limit !== undefined) result.error.limit = limit;
    return finish();
  };
  const finish = (): ZstdDecodeResult => {
    result.text = output.buf.subarray(0, output.len);
    return result;
  };

  // 3. Decode the complete frames in order.
  let index = 0;
  let last: FrameScan | undefined;
  for (let p = 0; p < bytes.length; index++) {
    const scan = scanFrame(bytes, p);
    if (scan.kind === 'invalid' || !scan.complete) {
      last = scan;
      break;
    }
    p = scan.end;
    if (scan.kind !== 'zstd') {
      result.skippableFrames++;
      result.committedCompressedBytes = scan.end;
      continue;
    }
    const isHeaderFrame = expectHeader && result.frames === 0;
    const start = output.len;
    try {
      if (batched) output.len += scan.contentSize ?? 0;
      else {
        refuseBeyondLimits(bytes, scan, limits, textBudget - start);
        decodeFrame(bytes, scan, output, zlib, {
          budget: textBudget - start,
          lineLimit: limits.maxLineBytes,
          textLimit: limits.maxTextBytes,
        });
      }
      if (scan.hasChecksum) {
        if (ownChecksums) {
          const stored = storedChecksum(bytes, scan);
          const computed = xxh64Low32(output.buf, start, output.len);
          if (stored !== computed)
            throw new FrameError('zstd.checksum', `content checksum mismatch (stored ${hex(stored)}, computed ${hex(computed)})`);
        }
        result.checksumsVerified++;
      }
    } catch (e) {
      output.len = start;
      const rule =
        e instanceof FrameError
          ? e.rule
          : isChecksumError(e)
            ? 'zstd.checksum'
            : isOutputLimitError(e)
              ? 'limits.text-bytes'
              : 'zstd.frame-corrupt';
      const what =
        e instanceof FrameError
          ? e.message
          : rule === 'limits.text-bytes'
            ? textLimitError('decodes to more text than the limit leaves', limits.maxTextBytes).message
            : `cannot be decoded (${describe(e)})`;
      return fail(
        rule,
        null,
        index,
        scan.start,
        what,
        e instanceof FrameError ? e.limit : rule === 'limits.text-bytes' ? limits.maxTextBytes : undefined,
      );
    }
    const end = output.len;
    const buf = output.buf;
    if (isHeaderFrame) {
      if (end === start || buf.indexOf(NEWLINE, start) !== end - 1) {
        output.len = start;
        const lines = countLines(buf, start, end);
        return fail(
          'zstd.header-frame',
          HEADER_FRAME,
          index,
          scan.start,
          `the first frame holds ${end - start} bytes in ${lines} line${lines === 1 ? '' : 's'}`,
        );
      }
    } else if (end > start && buf[end - 1] !== NEWLINE && options.recordsAcrossFrames !== true) {
      output.len = start;
      return fail('zstd.torn-record', TORN_RECORD, index, scan.start, 'the frame content does not end with a newline');
    }
    result.frames++;
    result.frameEnds.push(end);
    result.frameOffsets.push(scan.start);
    result.committedCompressedBytes = scan.end;
  }

  // With records across frames, the complete frames together must still end on a record.
  const kept = result.frameEnds.length;
  if (options.recordsAcrossFrames === true && kept > 0 && output.len > 0 && output.buf[output.len - 1] !== NEWLINE) {
    const at = result.frameOffsets[kept - 1];
    return fail('zstd.torn-record', TORN_RECORD, index - 1, at, 'the last complete frame does not end with a newline');
  }

  // 4. The end of the input: clean, an invalid frame, or a torn frame.
  const lastIndex = index;
  if (last?.kind === 'invalid') {
    // Bytes that do not even start like a frame are no Zstandard log; a frame that starts like one and
    // breaks a rule is a corrupt frame, the header frame included.
    if (expectHeader && result.frames === 0 && last.start === 0 && !startsLikeFrame(bytes)) {
      return fail('zstd.header-less', HEADERLESS, lastIndex, 0, `the file does not start with a Zstandard frame (${last.reason})`);
    }
    return fail('zstd.frame-corrupt', null, lastIndex, last.start, last.reason);
  }
  if (last && expectHeader && result.frames === 0) {
    return fail('zstd.header-less', HEADERLESS, lastIndex, last.start, 'the input ends inside the first frame');
  }
  if (last) {
    result.tornFrameStart = last.start;
    result.tornFrameIndex = lastIndex;
    result.tornFrameKind = last.kind;
    if (last.kind === 'skippable') result.tornFrameDeclares = skippableSize(bytes, last.start);
    try {
      result.recoveredBytes = last.kind === 'zstd' ? recoverLines(bytes, last, output, limits, textBudget - output.len) : 0;
    } catch (e) {
      const limitError = e instanceof FrameError ? e : textLimitError('decodes to more text than the limit leaves', limits.maxTextBytes);
      result.recoveredBytes = 0;
      return fail(limitError.rule, null, lastIndex, last.start, `(torn) ${limitError.message}`, limitError.limit);
    }
  }
  if (expectHeader && result.frames === 0) {
    return fail('zstd.header-less', HEADERLESS, -1, 0, bytes.length === 0 ? 'the file is empty' : 'the file holds no data frame');
  }
  return finish();
}

/** What a skippable frame's header says it holds (undefined when the size field is cut off). */
function skippableSize(bytes: Uint8Array, start: number): number | undefined {
  if (bytes.length - start < 8) return undefined;
  return (bytes[start + 4] | (bytes[start + 5] << 8) | (bytes[start + 6] << 16) | (bytes[start + 7] << 24)) >>> 0;
}

/** Refuses, before any decoding, a frame whose header asks for more than the limits allow. */
function refuseBeyondLimits(bytes: Uint8Array, scan: ZstdFrameScan, limits: ZstdLimits, budget: number): void {
  if (scan.contentSize !== undefined && scan.contentSize > budget) {
    throw textLimitError(
      `declares ${mib(scan.contentSize)} of content, more than the ${mib(Math.max(0, budget))} left`,
      limits.maxTextBytes,
    );
  }
  if (scan.windowSize > limits.maxTextBytes)
    throw textLimitError(`declares a ${mib(scan.windowSize)} window, more than the whole text may hold`, limits.maxTextBytes);
  if (scan.minContent > budget)
    throw textLimitError(
      `holds at least ${mib(scan.minContent)} of content, more than the ${mib(Math.max(0, budget))} left`,
      limits.maxTextBytes,
    );
  // Runs of raw and RLE blocks are measured from the compressed bytes; the decoder watches the rest.
  if ((scan.contentSize ?? scan.maxContent) > limits.maxLineBytes && longestKnownLine(bytes, scan) > limits.maxLineBytes)
    throw lineLimitError(limits.maxLineBytes);
}

interface FrameSurvey {
  /** Content bytes of the complete data frames that declare their size. */
  declared: number;
  /** True when every complete data frame declares its content size. */
  allDeclared: boolean;
  /** Offset just after the last complete frame. */
  completeEnd: number;
  /** What to allocate for the text: declared sizes, plus a guess for frames that do not declare one. */
  estimate: number;
  /** The largest declared content size and window of a complete frame. */
  largestFrame: number;
  largestWindow: number;
}

/** Walks the frame and block headers once, keeping only totals. */
function surveyFrames(bytes: Uint8Array): FrameSurvey {
  const survey: FrameSurvey = { declared: 0, allDeclared: true, completeEnd: 0, estimate: 0, largestFrame: 0, largestWindow: 0 };
  for (let p = 0; p < bytes.length;) {
    const scan = scanFrame(bytes, p);
    if (scan.kind === 'invalid') break;
    if (scan.kind === 'zstd') {
      // A compressed block may regenerate up to 128 KiB, so maxContent can be far above the real size;
      // without a declared size, guess a typical JSONL ratio and let the buffer grow if needed.
      const guess = Math.min(scan.maxContent, 16 * (scan.end - scan.start));
      if (!scan.complete) {
        survey.estimate += Math.min(scan.contentSize ?? guess, guess);
        break;
      }
      if (scan.contentSize === undefined) survey.allDeclared = false;
      else survey.declared += scan.contentSize;
      survey.estimate += scan.contentSize ?? guess;
      survey.largestFrame = Math.max(survey.largestFrame, scan.contentSize ?? scan.maxContent);
      survey.largestWindow = Math.max(survey.largestWindow, scan.windowSize);
    }
    if (!scan.complete) break;
    p = survey.completeEnd = scan.end;
  }
  return survey;
}

/** Accept windows up to 2 GiB (zlib's default limit is 128 MiB; fzstd's is 2 GiB); the limits check them first. */
function zlibParams(zlib: NativeZstd): Record<number, number> {
  return { [zlib.constants.ZSTD_d_windowLogMax]: 31 };
}

interface FrameBounds {
  /** Text bytes this frame may still add. */
  budget: number;
  lineLimit: number;
  /** The text limit itself (for messages). */
  textLimit: number;
}

/** Decodes one complete frame, appending its content to `out`. Throws on any codec failure or limit. */
function decodeFrame(bytes: Uint8Array, scan: ZstdFrameScan, out: Output, zlib: NativeZstd | undefined, bounds: FrameBounds): void {
  const frame = bytes.subarray(scan.start, scan.end);
  const mostContent = scan.contentSize ?? scan.maxContent;
  // zlib cannot be stopped mid-frame, so it only gets frames too small to hold an over-long line.
  if (zlib && mostContent <= bounds.lineLimit) {
    const content = zlib.zstdDecompressSync(frame, {
      params: zlibParams(zlib),
      maxOutputLength: Math.max(1, Math.min(bounds.budget, mostContent)),
    });
    if (scan.contentSize !== undefined && content.length !== scan.contentSize) {
      throw new FrameError('zstd.frame-corrupt', `decodes to ${content.length} bytes, but its header declares ${scan.contentSize}`);
    }
    if (content.length > bounds.budget) throw textLimitError('decodes to more text than the limit leaves', bounds.textLimit);
    out.push(content);
  } else if (scan.contentSize !== undefined) {
    // fzstd decodes straight into our buffer when given one of the declared size.
    out.reserve(scan.contentSize);
    const target = new WatchedTarget(out.buf.buffer as ArrayBuffer, out.buf.byteOffset + out.len, scan.contentSize);
    if (scan.contentSize > bounds.lineLimit) target.watch = new Watch(target, bounds.budget, bounds.lineLimit, bounds.textLimit);
    fzstdDecompress(frame, target);
    target.watch?.finish(scan.contentSize);
    out.len += scan.contentSize;
  } else {
    out.len += decodeWatched(bytes, scan, out, bounds);
  }
}

/**
 * Decodes the complete blocks of a frame whose content size is unknown (undeclared, or a torn final
 * frame) into `out`, watching the output position, and returns how many bytes it produced.
 * fzstd does not say how much it wrote into a buffer it was given, so the blocks are handed to it with a
 * zero-length raw block as their last one: fzstd copies that block with `set` at the final position.
 */
function decodeWatched(bytes: Uint8Array, scan: ZstdFrameScan, out: Output, bounds: FrameBounds, keepPrefixOnError = false): number {
  if (scan.blocks === 0) return 0;
  const head = scan.completeBlocksEnd - scan.start;
  const input = new Uint8Array(head + 3);
  input.set(bytes.subarray(scan.start, scan.completeBlocksEnd));
  input[scan.lastBlockStart - scan.start] &= 0xfe; // the real last block is no longer the last
  input[head] = 0x01; // raw block, size 0, last
  const capacity = Math.min(scan.maxContent, bounds.budget + MAX_BLOCK_SIZE);
  out.reserve(capacity);
  const target = new WatchedTarget(out.buf.buffer as ArrayBuffer, out.buf.byteOffset + out.len, capacity);
  const watch = (target.watch = new Watch(target, bounds.budget, bounds.lineLimit, bounds.textLimit));
  try {
    fzstdDecompress(input, target);
  } catch (e) {
    // A torn frame's last complete blocks may be damaged too: what came before the failing block stays.
    if (!keepPrefixOnError || e instanceof FrameError) throw e;
    return Math.max(0, watch.position);
  }
  if (watch.position < 0) throw new FrameError('zstd.frame-corrupt', 'the decoder did not reach the end of the frame');
  watch.finish(watch.position);
  return watch.position;
}

/**
 * Follows fzstd through a frame decoded into our buffer: fzstd calls `subarray` at the start of every
 * compressed block and `set` for every raw block, each at its output position. A position beyond the text
 * budget, or a run without a newline longer than the line limit, stops the decoder by throwing.
 */
class Watch {
  /** The last output position fzstd revealed (-1: none yet). */
  position = -1;
  private checked = 0;
  private lineStart = 0;
  constructor(
    private readonly target: Uint8Array,
    private readonly budget: number,
    private readonly lineLimit: number,
    private readonly limit: number,
  ) {}

  /** fzstd is at `position`; with `written` false, the bytes up to it are about to be written. */
  reveal(position: number, written = true): void {
    if (position > this.budget) throw textLimitError('decodes to more text than the limit leaves', this.limit);
    if (written) this.scanLines(position);
    this.position = position;
  }

  /** The last bytes, up to the frame's end. */
  finish(end: number): void {
    if (end > this.budget) throw textLimitError('decodes to more text than the limit leaves', this.limit);
    this.scanLines(end);
  }

  private scanLines(upTo: number): void {
    const end = Math.min(upTo, this.target.length);
    if (end <= this.checked) return;
    const fresh = new Uint8Array(this.target.buffer, this.target.byteOffset + this.checked, end - this.checked);
    const newline = fresh.lastIndexOf(NEWLINE);
    if (newline >= 0) this.lineStart = this.checked + newline + 1;
    this.checked = end;
    if (end - this.lineStart > this.lineLimit) throw lineLimitError(this.lineLimit);
  }
}

/**
 * A view of our output buffer handed to fzstd. fzstd 0.1.x tells "allocate for me" from a caller's
 * buffer with loose comparisons (`buf == 1`), which convert a plain Uint8Array to a string of all its
 * bytes: seconds for a large frame. This view converts to NaN instead, so the comparisons stay false
 * and cheap. With a `watch`, the positions fzstd writes at are reported to it (see `Watch`).
 */
class WatchedTarget extends Uint8Array {
  watch: Watch | undefined;
  [Symbol.toPrimitive](): number {
    return NaN;
  }
  override subarray(begin?: number, end?: number): Uint8Array<ArrayBuffer> {
    if (this.watch && begin !== undefined) this.watch.reveal(begin);
    return super.subarray(begin, end);
  }
  override set(array: ArrayLike<number>, offset?: number): void {
    const watch = this.watch;
    if (!watch || offset === undefined) return super.set(array, offset);
    // Everything before `offset` is written; the raw block about to be written must fit the budget.
    watch.reveal(offset);
    watch.reveal(offset + array.length, false);
    super.set(array, offset);
  }
}

/**
 * Decodes the complete blocks of a torn final frame and keeps the complete lines among them.
 * Returns how many bytes were kept (appended to `out`).
 */
function recoverLines(bytes: Uint8Array, scan: ZstdFrameScan, out: Output, limits: ZstdLimits, budget: number): number {
  if (scan.blocks === 0) return 0;
  refuseBeyondLimits(bytes, { ...scan, contentSize: undefined }, limits, budget);
  const start = out.len;
  const produced = decodeWatched(bytes, scan, out, { budget, lineLimit: limits.maxLineBytes, textLimit: limits.maxTextBytes }, true);
  let keep = start + produced;
  while (keep > start && out.buf[keep - 1] !== NEWLINE) keep--;
  out.len = keep;
  return keep - start;
}

function countLines(buf: Uint8Array, start: number, end: number): number {
  let lines = 0;
  for (let p = start; p < end; p++) if (buf[p] === NEWLINE) lines++;
  if (end > start && buf[end - 1] !== NEWLINE) lines++;
  return lines;
}

function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? `${e.message}; ${code}` : e.message;
}

/** Node's zlib reports a content checksum mismatch with this code. */
function isChecksumError(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === 'ZSTD_error_checksum_wrong';
}

/** Node's zlib stops at `maxOutputLength` with this error. */
function isOutputLimitError(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
}
