// The append itself, with no gap between the last check and the write that the OS does not impose.
// On the descriptor every write goes through, in one synchronous run: the path must still name that
// open file (not renamed away, replaced by another file or a symlink to one, or deleted), the file must
// have exactly the expected size and end in exactly the expected bytes; then one write() with
// O_APPEND. Afterwards: a short write is continued only while nobody else has written; the bytes are
// read back where they were meant to land, and when they are not there the file is searched to say
// exactly what happened; fsync; and the path must still name the file written to.
import type { LogFileSystem, LogHandle } from './file-access';
import { readAt, sameBytes } from './file-access';
import { osError, WriteRefused } from './write-refusal';

/** What the file must be right before the write: its size, the bytes just before its end, its identity. */
export interface ExpectedEnd {
  size: number;
  /** The last bytes the file must end in (a few KiB at most). */
  tail: Uint8Array;
  /** The file's device and inode when it was read, if known. */
  id?: string;
}

export type AppendOutcome =
  | { ok: true; at: number; length: number; syncError?: string }
  | {
      ok: false;
      /** `write`: the write stopped; `interleaved`: another writer wrote between two parts of ours; `elsewhere`: ours landed after someone else's bytes; `moved`: the path names another file now. */
      stage: 'write' | 'interleaved' | 'elsewhere' | 'moved';
      /** Bytes of ours in the file. */
      written: number;
      message: string;
    };

/** How far after the expected end the file is searched for bytes that landed elsewhere. */
const SEARCH_LIMIT = 64 * 1024 * 1024;

/** Throws WriteRefused (nothing written) unless the open file is exactly what is expected, at its path. */
export function assertExpectedEnd(files: LogFileSystem, handle: LogHandle, path: string, expected: ExpectedEnd): void {
  const open = handle.stat();
  const named = files.stat(path);
  if (!named) throw new WriteRefused(`${path} was deleted or moved since it was read; nothing was written`, 'write.file-changed');
  if (named.id !== open.id || (expected.id !== undefined && expected.id !== open.id))
    throw new WriteRefused(
      `${path} now names another file than the one that was read (it was renamed, replaced, or made a link to another file); nothing was written`,
      'write.file-changed',
    );
  if (open.size !== expected.size) {
    const how =
      open.size > expected.size
        ? `grew to ${open.size} bytes from the ${expected.size} expected (another writer appended)`
        : `shrank to ${open.size} bytes from the ${expected.size} expected (something cut it)`;
    throw new WriteRefused(`${path} ${how} since it was checked; nothing was written`, 'write.file-changed');
  }
  const tail = readAt(handle, expected.size - expected.tail.length, expected.size);
  if (!sameBytes(tail, expected.tail))
    throw new WriteRefused(
      `the last ${expected.tail.length} bytes of ${path} are no longer the ones that were read: it was rewritten; nothing was written`,
      'write.file-changed',
    );
}

/** Where `bytes` are in the file from `from` on (searched up to SEARCH_LIMIT bytes), or -1. */
function locate(handle: LogHandle, bytes: Uint8Array, from: number): number {
  const size = handle.stat().size;
  const start = Math.max(0, from);
  const region = readAt(handle, start, Math.min(size, start + SEARCH_LIMIT + bytes.length));
  const at = Buffer.from(region.buffer, region.byteOffset, region.length).indexOf(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
  );
  return at < 0 ? -1 : start + at;
}

/** Says where our bytes went when they are not right after the expected end. */
function landedElsewhere(handle: LogHandle, path: string, expected: ExpectedEnd, bytes: Uint8Array): string {
  const searchFrom = Math.max(0, expected.size - SEARCH_LIMIT);
  const at = locate(handle, bytes, searchFrom);
  const size = handle.stat().size;
  if (at > expected.size)
    return (
      `another writer appended ${at - expected.size} bytes to ${path} between the last check and our write: our ${bytes.length} bytes ` +
      `landed at byte ${at}, after theirs, not at byte ${expected.size}. Both are in the file, but they were planned on the log without ` +
      `those bytes (their seqs may collide): check it with \`session-surface check\` before anything else writes to it`
    );
  if (at >= 0)
    return (
      `${path} was cut to ${at} bytes between the last check and our write, so our ${bytes.length} bytes landed at byte ${at}, not at byte ${expected.size}: ` +
      `what was cut is gone, and ours may now follow a torn line. Check it with \`session-surface check\``
    );
  return `our ${bytes.length} bytes are not where they were written in ${path} (it has ${size} bytes now): it changed while they were written. Check it with \`session-surface check\``;
}

/**
 * Appends `bytes` to the file open on `handle` (in append mode) after `assertExpectedEnd`. Throws
 * WriteRefused when nothing was written; otherwise says what happened to the bytes.
 */
export function appendChecked(
  files: LogFileSystem,
  handle: LogHandle,
  path: string,
  expected: ExpectedEnd,
  bytes: Uint8Array,
): AppendOutcome {
  // No await from here to the first write: nothing of ours runs in between.
  assertExpectedEnd(files, handle, path, expected);
  let done = 0;
  try {
    done = handle.write(bytes, 0, bytes.length);
    while (done < bytes.length) {
      // A short write (a full disk, a signal): continue only if nobody else has written since.
      const size = handle.stat().size;
      if (size !== expected.size + done) {
        return {
          ok: false,
          stage: 'interleaved',
          written: done,
          message:
            `the write to ${path} took only part of our ${bytes.length} bytes at a time, and another writer appended ${size - expected.size - done} bytes between the parts, ` +
            `so the rest of ours was not written: after byte ${expected.size} the file holds ${done} bytes of ours (a torn line) and theirs, interleaved. ` +
            `Check it with \`session-surface check\``,
        };
      }
      done += handle.write(bytes, done, bytes.length - done);
    }
  } catch (error) {
    return {
      ok: false,
      stage: 'write',
      written: done,
      message: `writing to ${path} stopped after ${done} of ${bytes.length} bytes: ${osError(error)}`,
    };
  }
  const landed = readAt(handle, expected.size, expected.size + bytes.length);
  if (!sameBytes(landed, bytes))
    return { ok: false, stage: 'elsewhere', written: bytes.length, message: landedElsewhere(handle, path, expected, bytes) };
  let syncError: string | undefined;
  try {
    handle.sync();
  } catch (error) {
    syncError = osError(error);
  }
  const named = files.stat(path);
  if (!named || named.id !== handle.stat().id)
    return {
      ok: false,
      stage: 'moved',
      written: bytes.length,
      message: `${path} was ${named ? 'replaced by another file' : 'deleted or moved'} while our ${bytes.length} bytes were written: they went to the file that was there, which that path no longer names`,
    };
  return { ok: true, at: expected.size, length: bytes.length, ...(syncError ? { syncError } : {}) };
}
