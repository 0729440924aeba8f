// The last frames of a large zstd log, found without decompressing the rest: a dsh writer appends one
// frame per durable batch, so the end of the file is a chain of whole frames (the last one possibly
// torn). Within a window of the file's last bytes, the earliest offset from which frames chain exactly
// to the end of the file is a frame start; decoding from there gives the log's last complete lines.
import { scanFrame } from './frames';

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** True when every frame from `start` on is whole and the last one ends exactly at the window's end (or is cut by it). */
function chainsToEnd(window: Uint8Array, start: number): boolean {
  let at = start;
  while (at < window.length) {
    const frame = scanFrame(window, at);
    if (frame.kind === 'invalid') return false;
    if (!frame.complete) return frame.kind === 'zstd';
    if (frame.end <= at) return false;
    at = frame.end;
  }
  return true;
}

/**
 * Offsets, in `window` (the last bytes of a zstd file, ending at its end), of zstd frame starts from
 * which whole frames run to the end, earliest first; none when a single frame is longer than the
 * window. Bytes inside a frame's compressed data may look like a frame start and, by a rare
 * coincidence, chain too: a caller decodes from the first offset and tries the next when that fails.
 */
export function* tailFrameStarts(window: Uint8Array): Generator<number> {
  for (let at = window.indexOf(MAGIC[0]); at !== -1 && at + 4 <= window.length; at = window.indexOf(MAGIC[0], at + 1)) {
    if (window[at + 1] !== MAGIC[1] || window[at + 2] !== MAGIC[2] || window[at + 3] !== MAGIC[3]) continue;
    if (chainsToEnd(window, at)) yield at;
  }
}
