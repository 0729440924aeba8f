// Shared by the CLI and the extension host (Node only).
// Appending to a log on disk without ever rewriting it: check that the file still holds, byte for
// byte, what was loaded (another writer may have appended since), write through an append-mode
// handle, fsync, and check the size afterwards. Nothing here truncates or writes before the end.
import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';

/** The file is no longer what was loaded: nothing was written. */
export class FileChangedError extends Error {}

const CHUNK = 1 << 20;

/**
 * Throws FileChangedError unless the open file's bytes equal `loaded` exactly (size first, then the
 * content in chunks, so a large log is not read into memory twice).
 */
export function assertFileHolds(fd: number, path: string, loaded: Uint8Array): void {
  const size = fstatSync(fd).size;
  if (size !== loaded.length) {
    throw new FileChangedError(`${path} is ${size} bytes, but ${loaded.length} were loaded: it changed since it was read (another writer?); nothing was written`);
  }
  const buffer = new Uint8Array(Math.min(CHUNK, Math.max(1, size)));
  for (let at = 0; at < size; ) {
    const want = Math.min(buffer.length, size - at);
    const got = readSync(fd, buffer, 0, want, at);
    if (got <= 0) throw new FileChangedError(`${path} ended early while it was checked; nothing was written`);
    for (let i = 0; i < got; i++) {
      if (buffer[i] !== loaded[at + i]) throw new FileChangedError(`${path} differs from what was loaded at byte ${at + i}: it changed since it was read; nothing was written`);
    }
    at += got;
  }
}

/** Writes every byte through the handle (writeSync may write less than asked). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * Appends `bytes` to the file at `path`, which must still hold exactly `loaded`. Returns the new size.
 * The handle is opened in append mode ('a+': every write lands at the end whatever the position),
 * and the data is fsync'd before returning.
 */
export function appendToLoadedFile(path: string, loaded: Uint8Array, bytes: Uint8Array): number {
  const fd = openSync(path, 'a+');
  try {
    assertFileHolds(fd, path, loaded);
    writeAll(fd, bytes);
    fsyncSync(fd);
    const size = fstatSync(fd).size;
    if (size !== loaded.length + bytes.length) throw new Error(`${path} is ${size} bytes after the append, expected ${loaded.length + bytes.length}: another writer appended at the same time`);
    return size;
  } finally {
    closeSync(fd);
  }
}
