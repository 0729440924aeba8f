// Checks and writes for a log on disk (Node; shared by the CLI and the extension host): that an open
// file still holds, byte for byte, what was loaded, and a write that does not stop short.
import { fstatSync, readSync, writeSync } from 'node:fs';

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
    throw new FileChangedError(
      `${path} is ${size} bytes, but ${loaded.length} were loaded: it changed since it was read (another writer?); nothing was written`,
    );
  }
  const buffer = new Uint8Array(Math.min(CHUNK, Math.max(1, size)));
  for (let at = 0; at < size;) {
    const want = Math.min(buffer.length, size - at);
    const got = readSync(fd, buffer, 0, want, at);
    if (got <= 0) throw new FileChangedError(`${path} ended early while it was checked; nothing was written`);
    for (let i = 0; i < got; i++) {
      if (buffer[i] !== loaded[at + i])
        throw new FileChangedError(
          `${path} differs from what was loaded at byte ${at + i}: it changed since it was read; nothing was written`,
        );
    }
    at += got;
  }
}

/** Writes every byte through the handle (writeSync may write less than asked). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
}
