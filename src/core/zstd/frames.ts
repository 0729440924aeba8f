// Structural walk over concatenated Zstandard frames (RFC 8878 §3.1): frame headers and block headers only,
// no decompression. It finds where each frame ends, whether it is complete, and what its header promises
// (content size, checksum), so a decoder can be run frame by frame and a torn final frame told apart from a
// damaged one. Also here: whether bytes start like a frame at all (the magic numbers), and one walk's
// totals, which size the decoder's output before anything is decoded.

/** Magic number of a Zstandard frame, little-endian bytes 28 B5 2F FD. */
export const ZSTD_MAGIC = 0xfd2fb528;
/** Skippable frames use the magics 0x184D2A50 … 0x184D2A5F. */
const SKIPPABLE_MAGIC_MASKED = 0x184d2a50;
/** Block_Maximum_Size upper bound (RFC 8878 §3.1.1.2.3). */
export const MAX_BLOCK_SIZE = 128 * 1024;

/** What the walk learnt about one frame, starting at `start`. */
export type FrameScan =
  | ZstdFrameScan
  | { kind: 'skippable'; start: number; end: number; complete: boolean }
  /** Bytes at `start` are not any kind of frame, or the frame breaks a structural rule. */
  | { kind: 'invalid'; start: number; reason: string };

export interface ZstdFrameScan {
  kind: 'zstd';
  start: number;
  /** Offset just after the frame (after its checksum); `bytes.length` when incomplete. */
  end: number;
  /** False when the input ends inside the frame (header, a block, or the checksum). */
  complete: boolean;
  /** Frame_Content_Size when the header carries it. */
  contentSize: number | undefined;
  /** Content_Checksum_flag: the frame ends with the low 32 bits of XXH64 of its content. */
  hasChecksum: boolean;
  /** Upper bound of the decoded size of the blocks present (exact when no compressed block). */
  maxContent: number;
  /** Offset of the first block header (just after the frame header). */
  blocksStart: number;
  /** Offset just after the last complete block (== blocksStart when none). */
  completeBlocksEnd: number;
  /** Number of complete blocks. */
  blocks: number;
  /** Window_Size the frame asks a decoder to keep (the content size for a single-segment frame). */
  windowSize: number;
  /** Bytes the complete blocks certainly regenerate (raw and RLE blocks are exact; compressed ones count 0). */
  minContent: number;
  /** Offset of the header of the last complete block (-1 when none). */
  lastBlockStart: number;
}

function u32(b: Uint8Array, p: number): number {
  return (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
}

/** True when bytes[start..] (shorter than 4 bytes) could still become a frame magic number. */
function isMagicPrefix(bytes: Uint8Array, start: number): boolean {
  const n = bytes.length - start;
  const zstd = [0x28, 0xb5, 0x2f, 0xfd];
  let ok = true;
  for (let i = 0; i < n; i++) if (bytes[start + i] !== zstd[i]) ok = false;
  if (ok) return true;
  const first = bytes[start];
  if ((first & 0xf0) !== 0x50) return false;
  const rest = [0x2a, 0x4d, 0x18];
  for (let i = 1; i < n; i++) if (bytes[start + i] !== rest[i - 1]) return false;
  return true;
}

/**
 * Walks the frame that starts at `start` (< bytes.length). Never throws. An input that ends inside the
 * frame gives `complete: false`; a rule broken before the end of the input gives `kind: 'invalid'`.
 */
export function scanFrame(bytes: Uint8Array, start: number): FrameScan {
  const len = bytes.length;
  if (len - start < 4) {
    return isMagicPrefix(bytes, start)
      ? {
          kind: 'zstd',
          start,
          end: len,
          complete: false,
          contentSize: undefined,
          hasChecksum: false,
          maxContent: 0,
          blocksStart: len,
          completeBlocksEnd: len,
          blocks: 0,
          windowSize: 0,
          minContent: 0,
          lastBlockStart: -1,
        }
      : { kind: 'invalid', start, reason: 'unknown frame magic number' };
  }
  const magic = u32(bytes, start);
  if ((magic & 0xfffffff0) >>> 0 === SKIPPABLE_MAGIC_MASKED) {
    if (len - start < 8) return { kind: 'skippable', start, end: len, complete: false };
    const end = start + 8 + u32(bytes, start + 4);
    return end <= len ? { kind: 'skippable', start, end, complete: true } : { kind: 'skippable', start, end: len, complete: false };
  }
  if (magic !== ZSTD_MAGIC) return { kind: 'invalid', start, reason: 'unknown frame magic number' };

  let windowSize = 0;
  let minContent = 0;
  let lastBlockStart = -1;
  const torn = (
    blocksStart: number,
    completeBlocksEnd: number,
    blocks: number,
    maxContent: number,
    contentSize?: number,
    hasChecksum = false,
  ): ZstdFrameScan => ({
    kind: 'zstd',
    start,
    end: len,
    complete: false,
    contentSize,
    hasChecksum,
    maxContent,
    blocksStart,
    completeBlocksEnd,
    blocks,
    windowSize,
    minContent,
    lastBlockStart,
  });

  // Frame header (RFC 8878 §3.1.1.1).
  let p = start + 4;
  if (p >= len) return torn(len, len, 0, 0);
  const fhd = bytes[p++];
  const fcsFlag = fhd >>> 6;
  const singleSegment = (fhd >>> 5) & 1;
  const hasChecksum = ((fhd >>> 2) & 1) === 1;
  const didFlag = fhd & 3;
  if (fhd & 0x08) return { kind: 'invalid', start, reason: 'reserved bit set in the frame header descriptor' };
  const didSize = didFlag === 3 ? 4 : didFlag;
  const fcsSize = fcsFlag === 0 ? singleSegment : 1 << fcsFlag;
  const headerEnd = p + (singleSegment ? 0 : 1) + didSize + fcsSize;
  if (headerEnd > len) return torn(len, len, 0, 0, undefined, hasChecksum);

  if (!singleSegment) {
    const wd = bytes[p++];
    const windowBase = 2 ** (10 + (wd >>> 3));
    windowSize = windowBase + (windowBase / 8) * (wd & 7);
  }
  let dictionaryId = 0;
  for (let i = 0; i < didSize; i++) dictionaryId += bytes[p++] * 2 ** (8 * i);
  if (dictionaryId !== 0)
    return { kind: 'invalid', start, reason: `frame needs dictionary ${dictionaryId}, which a session log never uses` };
  let contentSize: number | undefined;
  if (fcsSize > 0) {
    let v = 0;
    for (let i = 0; i < fcsSize; i++) v += bytes[p + i] * 2 ** (8 * i);
    p += fcsSize;
    if (fcsSize === 2) v += 256;
    if (!Number.isSafeInteger(v)) return { kind: 'invalid', start, reason: 'frame content size too large' };
    contentSize = v;
  }
  if (singleSegment) windowSize = contentSize ?? 0;
  const blockMax = Math.min(windowSize, MAX_BLOCK_SIZE);

  // Blocks (§3.1.1.2).
  const blocksStart = p;
  let blocks = 0;
  let maxContent = 0;
  for (;;) {
    if (p + 3 > len) return torn(blocksStart, p, blocks, maxContent, contentSize, hasChecksum);
    const header = bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16);
    const last = header & 1;
    const type = (header >>> 1) & 3;
    const size = header >>> 3;
    const at = p - start;
    let body: number;
    if (type === 3) return { kind: 'invalid', start, reason: `reserved block type at frame byte ${at}` };
    if (size > blockMax)
      return { kind: 'invalid', start, reason: `block at frame byte ${at} is larger than the block size limit (${size} > ${blockMax})` };
    if (type === 1)
      body = 1; // RLE: one byte repeated `size` times
    else body = size; // raw or compressed
    if (p + 3 + body > len) return torn(blocksStart, p, blocks, maxContent, contentSize, hasChecksum);
    lastBlockStart = p;
    p += 3 + body;
    // A compressed block regenerates at most Block_Maximum_Size bytes.
    maxContent += type === 2 ? blockMax : size;
    if (type !== 2) minContent += size;
    blocks++;
    if (last) break;
  }
  const completeBlocksEnd = p;
  if (hasChecksum) {
    if (p + 4 > len) return torn(blocksStart, completeBlocksEnd, blocks, maxContent, contentSize, hasChecksum);
    p += 4;
  }
  if (contentSize !== undefined && contentSize > maxContent) {
    return { kind: 'invalid', start, reason: `frame content size ${contentSize} is more than its blocks can hold (${maxContent})` };
  }
  return {
    kind: 'zstd',
    start,
    end: p,
    complete: true,
    contentSize,
    hasChecksum,
    maxContent,
    blocksStart,
    completeBlocksEnd,
    blocks,
    windowSize,
    minContent,
    lastBlockStart,
  };
}

/** Reads the stored content checksum of a complete frame (the 4 bytes before `end`). */
export function storedChecksum(bytes: Uint8Array, frame: ZstdFrameScan): number {
  return u32(bytes, frame.end - 4);
}

/**
 * The longest stretch without a newline that the raw and RLE blocks of a complete (or torn) frame
 * certainly produce, read from the compressed bytes without decoding. A compressed block ends a
 * stretch: its content is known only once decoded (the decoder watches those).
 */
export function longestKnownLine(bytes: Uint8Array, scan: ZstdFrameScan): number {
  const NEWLINE = 0x0a;
  let p = scan.blocksStart;
  let run = 0;
  let longest = 0;
  for (let b = 0; b < scan.blocks; b++) {
    const header = bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16);
    const type = (header >>> 1) & 3;
    const size = header >>> 3;
    if (type === 1) {
      run = bytes[p + 3] === NEWLINE ? 0 : run + size;
      p += 4;
    } else if (type === 0) {
      const body = bytes.subarray(p + 3, p + 3 + size);
      const first = body.indexOf(NEWLINE);
      if (first === -1) run += size;
      else {
        longest = Math.max(longest, run + first);
        run = size - 1 - body.lastIndexOf(NEWLINE);
      }
      p += 3 + size;
    } else {
      run = 0;
      p += 3 + size;
    }
    longest = Math.max(longest, run);
  }
  return longest;
}

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

/** True when the bytes start with a Zstandard or a skippable frame's magic. */
export function startsLikeFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  if (bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd) return true;
  return (bytes[0] & 0xf0) === 0x50 && bytes[1] === 0x2a && bytes[2] === 0x4d && bytes[3] === 0x18;
}

/** What a skippable frame's header says it holds (undefined when the size field is cut off). */
export function skippableSize(bytes: Uint8Array, start: number): number | undefined {
  if (bytes.length - start < 8) return undefined;
  return (bytes[start + 4] | (bytes[start + 5] << 8) | (bytes[start + 6] << 16) | (bytes[start + 7] << 24)) >>> 0;
}

/** What one walk over the frame and block headers found: totals that size the output before decoding. */
export interface FrameSurvey {
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
export function surveyFrames(bytes: Uint8Array): FrameSurvey {
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
