// Writing Zstandard frames the way dsh does: one independent frame per append batch, with the content
// size in the header and a content checksum. With Node's zlib handed in (Node ≥ 22.15) it compresses; else the frame is
// built here from raw (stored) and RLE blocks, which is valid Zstandard that any decoder reads, only not
// smaller than its input.
import type { NativeZstd } from './backend';
import { MAX_BLOCK_SIZE } from './frames';
import { xxh64Low32 } from './xxh64';

export interface ZstdEncodeOptions {
  /** `auto` (default): `codec` when one is handed in, else stored blocks. `raw`: always stored/RLE blocks. */
  encoder?: 'auto' | 'raw';
  /** Node's zlib when the running Node has zstd. */
  codec?: NativeZstd;
  /** zlib compression level (default zstd's 3). */
  level?: number;
}

/** One complete frame holding `content`, with Frame_Content_Size and a content checksum. */
export function encodeZstdFrame(content: Uint8Array, options: ZstdEncodeOptions = {}): Uint8Array {
  const zlib = options.encoder === 'raw' ? undefined : options.codec;
  if (zlib) {
    const c = zlib.constants;
    const params: Record<number, number> = { [c.ZSTD_c_checksumFlag]: 1, [c.ZSTD_c_contentSizeFlag]: 1 };
    if (options.level !== undefined) params[c.ZSTD_c_compressionLevel] = options.level;
    return zlib.zstdCompressSync(content, { params });
  }
  return encodeRawZstdFrame(content);
}

export interface RawFrameOptions {
  /** Content bytes per block (1 … 128 KiB, default 128 KiB). Small blocks let tests tear a frame between blocks. */
  blockSize?: number;
  /** Write the content checksum (default true). */
  checksum?: boolean;
}

/**
 * Above this content size a stored frame declares a window of one block instead of being single-segment:
 * a single-segment frame asks for a window as large as its content, and decoders refuse windows above
 * 128 MiB by default (the reference `zstd` decoder, Node's zlib), while stored and RLE blocks never
 * reference earlier content and need no window beyond their own block.
 */
export const SINGLE_SEGMENT_MAX = 8 * 1024 * 1024;

/** Window_Descriptor of a 128 KiB window (Exponent 7, Mantissa 0): exactly one largest block. */
const BLOCK_WINDOW_DESCRIPTOR = (17 - 10) << 3;

/**
 * A frame of stored (raw) blocks, or RLE blocks where a block is one repeated byte (RFC 8878 §3.1.1).
 * Single-segment up to SINGLE_SEGMENT_MAX (the window is the content size, no window descriptor);
 * larger content gets a 128 KiB window, so any decoder takes it whatever its size.
 */
export function encodeRawZstdFrame(content: Uint8Array, options: RawFrameOptions = {}): Uint8Array {
  const n = content.length;
  const blockSize = Math.max(1, Math.min(MAX_BLOCK_SIZE, Math.floor(options.blockSize ?? MAX_BLOCK_SIZE)));
  const checksum = options.checksum !== false;
  const singleSegment = n <= SINGLE_SEGMENT_MAX;
  // Frame_Content_Size field: 1, 2 (value - 256), 4 or 8 bytes (a large frame always has 4 or 8).
  const fcsFlag = n < 256 ? 0 : n < 65536 + 256 ? 1 : n <= 0xffffffff ? 2 : 3;
  const fcsSize = fcsFlag === 0 ? 1 : 1 << fcsFlag;
  const blocks = Math.max(1, Math.ceil(n / blockSize));
  const out = new Uint8Array(4 + 1 + (singleSegment ? 0 : 1) + fcsSize + blocks * 3 + n + 4);
  let p = 0;
  out[p++] = 0x28;
  out[p++] = 0xb5;
  out[p++] = 0x2f;
  out[p++] = 0xfd;
  out[p++] = (fcsFlag << 6) | (singleSegment ? 0x20 : 0) | (checksum ? 0x04 : 0);
  if (!singleSegment) out[p++] = BLOCK_WINDOW_DESCRIPTOR;
  let fcs = fcsFlag === 1 ? n - 256 : n;
  for (let i = 0; i < fcsSize; i++) {
    out[p++] = fcs % 256;
    fcs = Math.floor(fcs / 256);
  }
  for (let b = 0; b < blocks; b++) {
    const from = b * blockSize;
    const size = Math.min(blockSize, n - from);
    const last = b === blocks - 1 ? 1 : 0;
    const rle = size > 1 && isRun(content, from, from + size);
    const header = (size << 3) | ((rle ? 1 : 0) << 1) | last;
    out[p++] = header & 0xff;
    out[p++] = (header >>> 8) & 0xff;
    out[p++] = header >>> 16;
    if (rle) {
      out[p++] = content[from];
    } else {
      out.set(content.subarray(from, from + size), p);
      p += size;
    }
  }
  if (checksum) {
    const sum = xxh64Low32(content);
    out[p++] = sum & 0xff;
    out[p++] = (sum >>> 8) & 0xff;
    out[p++] = (sum >>> 16) & 0xff;
    out[p++] = sum >>> 24;
  }
  return out.subarray(0, p);
}

function isRun(bytes: Uint8Array, from: number, to: number): boolean {
  const b = bytes[from];
  for (let i = from + 1; i < to; i++) if (bytes[i] !== b) return false;
  return true;
}

export interface DshZstdLogOptions extends ZstdEncodeOptions {
  /** Lines per batch frame after the header frame (default: all of them in one frame, as a fresh log). */
  linesPerFrame?: number;
}

/**
 * A dsh `session.jsonl.zstd`: frame 1 holds the header line (`lines[0]`), then the other lines in batch
 * frames. Lines are given without their `\n`; every line gets one.
 */
export function encodeDshZstdLog(lines: readonly string[], options: DshZstdLogOptions = {}): Uint8Array {
  const enc = new TextEncoder();
  const frames: Uint8Array[] = [];
  if (lines.length > 0) frames.push(encodeZstdFrame(enc.encode(lines[0] + '\n'), options));
  const per = Math.max(1, options.linesPerFrame ?? Infinity);
  for (let i = 1; i < lines.length; i += per) {
    const batch = lines.slice(i, Math.min(lines.length, i + per));
    frames.push(encodeZstdFrame(enc.encode(batch.join('\n') + '\n'), options));
  }
  return concatBytes(frames);
}

/** Concatenates byte arrays with one allocation. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let p = 0;
  for (const part of parts) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}
