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
// fzstd, whose progress through a frame can be watched (fzstd-watch.ts) and stopped.
//
// This file is the frame loop; the terms it takes and gives are in decode-types.ts, the decoding of one
// frame in frame-decoding.ts, the structural walk and the magic numbers in frames.ts.
import { effectiveLimits, type ZstdBackend, type ZstdDecodeOptions, type ZstdDecodeResult, type ZstdRule } from './decode-types';
import { FrameError, describe, hex, isChecksumError, isOutputLimitError, textLimitError } from './decode-errors';
import { Output, decodeFrame, recoverLines, refuseBeyondLimits, zlibParams } from './frame-decoding';
import { MAX_BLOCK_SIZE, scanFrame, skippableSize, startsLikeFrame, storedChecksum, surveyFrames, type FrameScan } from './frames';
import { xxh64Low32 } from './xxh64';

const NEWLINE = 0x0a;
const HEADERLESS = 'empty or header-less Zstandard session log';
const HEADER_FRAME = 'corrupt Zstandard session log: first frame is not exactly one header line';
const TORN_RECORD = 'corrupt Zstandard session log: complete frame contains a torn JSONL record';

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

function countLines(buf: Uint8Array, start: number, end: number): number {
  let lines = 0;
  for (let p = start; p < end; p++) if (buf[p] === NEWLINE) lines++;
  if (end > start && buf[end - 1] !== NEWLINE) lines++;
  return lines;
}
