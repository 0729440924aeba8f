// Reading a dsh `session.jsonl.zstd` log: concatenated, independent, checksummed Zstandard frames, the first
// holding exactly the header line and every later one a durable append batch of complete JSONL lines
// (spec §1.2). The frame and block headers are walked first (frames.ts), which finds each frame's end and
// whether it is complete without decoding anything; then the frames are decoded and checked in order, so
// that a damaged frame is named by its index and compressed offset and a torn final frame keeps the
// complete lines it holds (spec §1.6).
//
// Codecs: Node's zlib when it has zstd (it checks content checksums itself, and decodes all complete
// frames in one call when they declare their sizes, since per-call overhead dominates logs of many small
// frames), else fzstd (pure JS; it does not check checksums, so XXH64 is computed here). A torn final
// frame is always read with fzstd's streaming decoder, which emits each complete block.
import { decompress as fzstdDecompress, Decompress as FzstdStream } from 'fzstd';
import { nativeZstd } from './backend';
import { scanFrame, storedChecksum, type FrameScan, type ZstdFrameScan } from './frames';
import { xxh64Low32 } from './xxh64';

/** The codec that decompressed the frames. */
export type ZstdBackend = 'zlib' | 'fzstd';

export interface ZstdDecodeOptions {
  /**
   * `auto` (default): Node's `zlib` when it has zstd (Node ≥ 22.15), else the pure-JS `fzstd`.
   * Asking for `zlib` where it is missing falls back to `fzstd` (see `ZstdDecodeResult.backend`).
   */
  backend?: 'auto' | ZstdBackend;
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
  | 'zstd.frame-corrupt';

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

/** True when the bytes start with the Zstandard frame magic 28 B5 2F FD. */
export function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
}

/** A growable output buffer: one allocation when the frames declare their sizes, geometric growth otherwise. */
class Output {
  buf: Uint8Array;
  len = 0;
  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
  }
  /** Takes over decoded bytes as the buffer, with `len` 0: the frame loop then walks over them. */
  static wrap(content: Uint8Array): Output {
    const o = new Output(0);
    o.buf = content;
    return o;
  }
  reserve(extra: number): void {
    const need = this.len + extra;
    if (need <= this.buf.length) return;
    const next = new Uint8Array(Math.max(need, Math.ceil(this.buf.length * 1.5), 1 << 16));
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
  constructor(readonly rule: ZstdRule, message: string) {
    super(message);
  }
}

const hex = (n: number): string => '0x' + (n >>> 0).toString(16).padStart(8, '0');

/**
 * Decodes a whole `session.jsonl.zstd` (or, with `expectHeaderFrame: false`, frames appended to one).
 * Never throws: every problem is reported in `error` (see `ZstdDecodeResult`).
 */
export function decodeZstdLog(bytes: Uint8Array, options: ZstdDecodeOptions = {}): ZstdDecodeResult {
  const zlib = options.backend === 'fzstd' ? undefined : nativeZstd();
  const backend: ZstdBackend = zlib ? 'zlib' : 'fzstd';
  const expectHeader = options.expectHeaderFrame !== false;
  const ownChecksums = backend === 'fzstd' || options.alwaysVerifyChecksums === true;

  // 1. A first structural walk sizes the output (frames are walked again, one at a time, below).
  const survey = surveyFrames(bytes);

  // 2. With zlib and declared sizes, all complete frames in one call (the codec checks the checksums);
  //    the declared sizes then give the frame boundaries. Per-call overhead dominates logs made of many
  //    small frames. On any failure, fall back to frame-by-frame decoding, which names the bad frame.
  let out: Output | undefined;
  let batched = false;
  if (zlib && survey.allDeclared && survey.declared > 0) {
    try {
      const content = zlib.zstdDecompressSync(bytes.subarray(0, survey.completeEnd), { params: zlibParams(zlib) });
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
      out = new Output(survey.estimate);
    } catch {
      out = new Output(0);
    }
  }
  const output = out;

  const result: ZstdDecodeResult = {
    text: output.buf.subarray(0, 0), frames: 0, frameEnds: [], frameOffsets: [], skippableFrames: 0,
    compressedBytes: bytes.length, committedCompressedBytes: 0, backend, checksumsVerified: 0,
  };
  /** `message` null: dsh only calls it corruption, so the message is ours and names the frame. */
  const fail = (rule: ZstdRule, message: string | null, frameIndex: number, offset: number, what: string): ZstdDecodeResult => {
    const detail = frameIndex < 0 ? what : `frame ${frameIndex + 1} at compressed offset ${offset}: ${what}`;
    result.error = { message: message ?? `corrupt Zstandard session log: ${detail}`, rule, detail, frameIndex, compressedOffset: offset };
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
      else decodeFrame(bytes, scan, output, zlib);
      if (scan.hasChecksum) {
        if (ownChecksums) {
          const stored = storedChecksum(bytes, scan);
          const computed = xxh64Low32(output.buf, start, output.len);
          if (stored !== computed) throw new FrameError('zstd.checksum', `content checksum mismatch (stored ${hex(stored)}, computed ${hex(computed)})`);
        }
        result.checksumsVerified++;
      }
    } catch (e) {
      output.len = start;
      const rule = e instanceof FrameError ? e.rule : isChecksumError(e) ? 'zstd.checksum' : 'zstd.frame-corrupt';
      const what = e instanceof FrameError ? e.message : `cannot be decoded (${describe(e)})`;
      return fail(rule, null, index, scan.start, what);
    }
    const end = output.len;
    const buf = output.buf;
    if (isHeaderFrame) {
      if (end === start || buf.indexOf(NEWLINE, start) !== end - 1) {
        output.len = start;
        const lines = countLines(buf, start, end);
        return fail('zstd.header-frame', HEADER_FRAME, index, scan.start, `the first frame holds ${end - start} bytes in ${lines} line${lines === 1 ? '' : 's'}`);
      }
    } else if (end > start && buf[end - 1] !== NEWLINE) {
      output.len = start;
      return fail('zstd.torn-record', TORN_RECORD, index, scan.start, 'the frame content does not end with a newline');
    }
    result.frames++;
    result.frameEnds.push(end);
    result.frameOffsets.push(scan.start);
    result.committedCompressedBytes = scan.end;
  }

  // 4. The end of the input: clean, an invalid frame, or a torn frame.
  const lastIndex = index;
  if (last?.kind === 'invalid') {
    if (expectHeader && result.frames === 0 && last.start === 0) {
      return fail('zstd.header-less', HEADERLESS, lastIndex, 0, `the file does not start with a Zstandard frame (${last.reason})`);
    }
    return fail('zstd.frame-corrupt', null, lastIndex, last.start, last.reason);
  }
  if (last && expectHeader && result.frames === 0) {
    return fail('zstd.header-less', HEADERLESS, lastIndex, last.start, 'the input ends inside the first frame');
  }
  if (last) {
    result.tornFrameStart = last.start;
    result.recoveredBytes = last.kind === 'zstd' ? recoverLines(bytes, last, output) : 0;
  }
  if (expectHeader && result.frames === 0) {
    return fail('zstd.header-less', HEADERLESS, -1, 0, bytes.length === 0 ? 'the file is empty' : 'the file holds no data frame');
  }
  return finish();
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
}

/** Walks the frame and block headers once, keeping only totals. */
function surveyFrames(bytes: Uint8Array): FrameSurvey {
  const survey: FrameSurvey = { declared: 0, allDeclared: true, completeEnd: 0, estimate: 0 };
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
    }
    if (!scan.complete) break;
    p = survey.completeEnd = scan.end;
  }
  return survey;
}

/** Accept windows up to 2 GiB (zlib's default limit is 128 MiB; fzstd's is 2 GiB). */
function zlibParams(zlib: NonNullable<ReturnType<typeof nativeZstd>>): Record<number, number> {
  return { [zlib.constants.ZSTD_d_windowLogMax]: 31 };
}

/** Decodes one complete frame, appending its content to `out`. Throws on any codec failure. */
function decodeFrame(bytes: Uint8Array, scan: ZstdFrameScan, out: Output, zlib: ReturnType<typeof nativeZstd>): void {
  const frame = bytes.subarray(scan.start, scan.end);
  if (zlib) {
    const content = zlib.zstdDecompressSync(frame, { params: zlibParams(zlib) });
    if (scan.contentSize !== undefined && content.length !== scan.contentSize) {
      throw new FrameError('zstd.frame-corrupt', `decodes to ${content.length} bytes, but its header declares ${scan.contentSize}`);
    }
    out.push(content);
  } else if (scan.contentSize !== undefined) {
    // fzstd decodes straight into our buffer when given one of the declared size.
    out.reserve(scan.contentSize);
    fzstdDecompress(frame, new FzstdTarget(out.buf.buffer as ArrayBuffer, out.buf.byteOffset + out.len, scan.contentSize));
    out.len += scan.contentSize;
  } else {
    out.push(fzstdDecompress(frame));
  }
}

/**
 * A view of our output buffer to hand to fzstd. fzstd 0.1.x tells "allocate for me" from a caller's
 * buffer with loose comparisons (`buf == 1`), which convert a plain Uint8Array to a string of all its
 * bytes: seconds for a large frame. This view converts to NaN instead, so the comparisons stay false
 * and cheap; it is an ordinary Uint8Array otherwise.
 */
class FzstdTarget extends Uint8Array {
  [Symbol.toPrimitive](): number {
    return NaN;
  }
}

/**
 * Decodes the complete blocks of a torn final frame with fzstd's streaming decoder and keeps the complete
 * lines among them. Returns how many bytes were kept (appended to `out`).
 */
function recoverLines(bytes: Uint8Array, scan: ZstdFrameScan, out: Output): number {
  if (scan.blocks === 0) return 0;
  const start = out.len;
  const stream = new FzstdStream((chunk) => out.push(chunk));
  try {
    // `final` makes fzstd decode a prefix shorter than its usual 18-byte look-ahead; it then throws
    // "unexpected EOF" after emitting every complete block, which is the expected end here.
    stream.push(bytes.subarray(scan.start, scan.completeBlocksEnd), true);
  } catch {
    // keep what was emitted before the failure
  }
  let keep = out.len;
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
