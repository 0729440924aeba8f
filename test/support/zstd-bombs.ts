// Zstandard files built to hurt: tiny frames that inflate to gigabytes, frames that declare windows or
// sizes far beyond any limit, and single lines longer than the engine's longest string. Each is made
// of RLE blocks (4 bytes for up to 128 KiB of one byte), so a file of a few KB holds gigabytes.
import { concatBytes } from '../../src/core/zstd/encode';
import { HEADER, enc, rawFrame } from './zstd-data';

const BLOCK = 128 * 1024;

export interface BombOptions {
  /** Bytes of `byte` before the final newline (or lines of `lineBytes` when given). */
  contentBytes: number;
  /** The repeated byte (default "a"). */
  byte?: number;
  /** Split the content into lines this long (each ends with a raw "\n" block). Default: one line. */
  lineBytes?: number;
  /** Write Frame_Content_Size (default true); without it the frame has a 128 KiB window. */
  declareSize?: boolean;
  /** A window descriptor byte for a frame that does not declare its size (default 0x38: 128 KiB). */
  windowDescriptor?: number;
  /**
   * `rle` (default): runs as RLE blocks, whose sizes a reader knows without decoding. `compressed`:
   * runs as compressed blocks holding RLE literals and no sequences (5 bytes each), whose size is known
   * only once decoded.
   */
  runs?: 'rle' | 'compressed';
}

function blockHeader(last: boolean, type: 0 | 1 | 2, size: number): number[] {
  const h = (size << 3) | (type << 1) | (last ? 1 : 0);
  return [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
}

/** A compressed block of `size` (≤ 128 KiB) copies of `byte`: an RLE literals section, no sequences. */
function compressedRun(size: number, byte: number): number[] {
  const literals = [1 | (3 << 2) | ((size & 0xf) << 4), (size >>> 4) & 0xff, (size >>> 12) & 0xff, byte];
  return [...blockHeader(false, 2, literals.length + 1), ...literals, 0];
}

/** One frame of RLE (or compressed) runs and raw newlines, without a checksum. */
export function bombFrame(options: BombOptions): Uint8Array {
  const byte = options.byte ?? 0x61;
  const lineBytes = options.lineBytes ?? options.contentBytes;
  const declare = options.declareSize !== false;
  const lines = Math.ceil(options.contentBytes / lineBytes);
  const total = options.contentBytes + lines; // every line ends with "\n"
  const runBlock = (size: number) => (options.runs === 'compressed' ? compressedRun(size, byte) : [...blockHeader(false, 1, size), byte]);
  const fullRun = runBlock(BLOCK);
  const blocks = Math.ceil(options.contentBytes / BLOCK) + 2 * lines;
  const out = new Uint8Array(14 + blocks * fullRun.length + lines * 4);
  let p = 0;
  const put = (bytes: readonly number[]) => {
    out.set(bytes, p);
    p += bytes.length;
  };
  put([0x28, 0xb5, 0x2f, 0xfd]);
  if (declare) {
    const size: number[] = [];
    let v = total;
    for (let i = 0; i < 8; i++) {
      size.push(v % 256);
      v = Math.floor(v / 256);
    }
    put([(3 << 6) | 0x20, ...size]); // 8-byte content size, single segment
  } else {
    put([0x00, options.windowDescriptor ?? 0x38]); // no content size, a window descriptor
  }
  let left = options.contentBytes;
  for (let line = 0; line < lines; line++) {
    let run = Math.min(lineBytes, left);
    left -= run;
    while (run > 0) {
      const size = Math.min(BLOCK, run);
      put(size === BLOCK ? fullRun : runBlock(size));
      run -= size;
    }
    put([...blockHeader(line === lines - 1, 0, 1), 0x0a]);
  }
  return out.slice(0, p);
}

/** A header frame (a valid session header) followed by `frames`. */
export function bombLog(...frames: Uint8Array[]): Uint8Array {
  return concatBytes([rawFrame(HEADER + '\n'), ...frames]);
}

/** A small ordinary batch frame (one event line). */
export function eventFrame(seq: number): Uint8Array {
  return rawFrame(
    enc.encode(`{"type":"session/title","seq":${seq},"time":0,"data":{"title":"t","messageSeqs":[],"source":{"kind":"fallback"}}}\n`),
  );
}
