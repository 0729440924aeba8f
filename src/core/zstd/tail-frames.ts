// The last frames of a large zstd log, found without decompressing the rest: a dsh writer appends one
// frame per durable batch, so the end of the file is a chain of whole frames (the last one possibly
// torn). Within a window of the file's last bytes, the earliest offset from which frames chain exactly
// to the end of the file is a frame start; decoding from there gives the log's last complete lines.
import { Decompress } from 'fzstd';
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

/** Where the last zstd frame of a whole file starts (skippable frames passed over), or -1 when there is none. */
export function lastFrameStart(bytes: Uint8Array): number {
  let last = -1;
  for (let at = 0; at < bytes.length;) {
    const frame = scanFrame(bytes, at);
    if (frame.kind === 'invalid') break;
    if (frame.kind === 'zstd') last = at;
    if (!frame.complete || frame.end <= at) break;
    at = frame.end;
  }
  return last;
}

/** Compressed bytes handed to the stream decoder at a time, between pauses. */
const STREAM_STEP = 1 << 20;

/**
 * The last `keep` bytes the frames from `start` on decode to, decoded as a stream so that only about
 * `keep` bytes of text are held however large the frames are: the end of a log whose last frame is too
 * large to find cheaply (a log dsh migrated writes all of its events in one frame). `pause` runs between
 * slices of the input, so a caller can yield to its event loop. A torn or damaged frame ends the
 * stream: the bytes decoded before it are returned. `startsAtLine` is true when nothing was dropped
 * (the tail then starts where the frame does, at a line start in dsh's logs).
 */
export async function streamedTail(
  bytes: Uint8Array,
  start: number,
  keep: number,
  pause: () => Promise<void>,
): Promise<{ text: Uint8Array; startsAtLine: boolean }> {
  const chunks: Uint8Array[] = [];
  let held = 0;
  let dropped = false;
  const stream = new Decompress((chunk) => {
    chunks.push(chunk.slice());
    held += chunk.length;
    while (chunks.length > 1 && held - chunks[0].length >= keep) {
      held -= chunks.shift()!.length;
      dropped = true;
    }
  });
  try {
    for (let at = start; at < bytes.length; at += STREAM_STEP) {
      const end = Math.min(bytes.length, at + STREAM_STEP);
      stream.push(bytes.subarray(at, end), end === bytes.length);
      await pause();
    }
  } catch {
    // A torn or damaged frame: what was decoded before it is the tail there is.
  }
  const text = new Uint8Array(held);
  let offset = 0;
  for (const chunk of chunks) {
    text.set(chunk, offset);
    offset += chunk.length;
  }
  const cut = Math.max(0, held - keep);
  return { text: text.subarray(cut), startsAtLine: !dropped && cut === 0 };
}
