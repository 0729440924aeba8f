// Decoding one frame's content into the log's output buffer, by the codec that suits it: Node's zlib for
// frames too small to hold an over-long line (it cannot be stopped mid-frame), fzstd, watched, for the
// rest, and for a torn final frame the complete blocks, of which only the complete lines are kept. A
// frame whose header already asks for more than the limits allow is refused before it is decoded.
import { decompress as fzstdDecompress } from 'fzstd';
import type { NativeZstd } from './backend';
import type { ZstdLimits } from './decode-types';
import { FrameError, lineLimitError, mib, textLimitError } from './decode-errors';
import { longestKnownLine, MAX_BLOCK_SIZE, type ZstdFrameScan } from './frames';
import { Watch, WatchedTarget } from './fzstd-watch';

const NEWLINE = 0x0a;

/** A growable output buffer: one allocation when the frames declare their sizes, geometric growth otherwise. */
export class Output {
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

/** Refuses, before any decoding, a frame whose header asks for more than the limits allow. */
export function refuseBeyondLimits(bytes: Uint8Array, scan: ZstdFrameScan, limits: ZstdLimits, budget: number): void {
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

/** Accept windows up to 2 GiB (zlib's default limit is 128 MiB; fzstd's is 2 GiB); the limits check them first. */
export function zlibParams(zlib: NativeZstd): Record<number, number> {
  return { [zlib.constants.ZSTD_d_windowLogMax]: 31 };
}

export interface FrameBounds {
  /** Text bytes this frame may still add. */
  budget: number;
  lineLimit: number;
  /** The text limit itself (for messages). */
  textLimit: number;
}

/** Decodes one complete frame, appending its content to `out`. Throws on any codec failure or limit. */
export function decodeFrame(bytes: Uint8Array, scan: ZstdFrameScan, out: Output, zlib: NativeZstd | undefined, bounds: FrameBounds): void {
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
 * Decodes the complete blocks of a torn final frame and keeps the complete lines among them.
 * Returns how many bytes were kept (appended to `out`).
 */
export function recoverLines(bytes: Uint8Array, scan: ZstdFrameScan, out: Output, limits: ZstdLimits, budget: number): number {
  if (scan.blocks === 0) return 0;
  refuseBeyondLimits(bytes, { ...scan, contentSize: undefined }, limits, budget);
  const start = out.len;
  const produced = decodeWatched(bytes, scan, out, { budget, lineLimit: limits.maxLineBytes, textLimit: limits.maxTextBytes }, true);
  let keep = start + produced;
  while (keep > start && out.buf[keep - 1] !== NEWLINE) keep--;
  out.len = keep;
  return keep - start;
}
