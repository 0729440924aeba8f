// The file adapter for local files, on Node: chunked reads (with progress) through fs/promises, and the
// descriptor-level operations of the write layer through synchronous calls on one descriptor.
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  promises as fsp,
} from 'node:fs';
import type { FileAccess, FileStat, HandleStat, LogFileSystem, LogHandle, OpenMode, WholeFile } from './file-access';
import { flockWithoutWaiting } from './node-lock';

const CHUNK = 4 * 1024 * 1024;

const idOf = (s: { dev: number; ino: number }) => `${s.dev}:${s.ino}`;

class NodeHandle implements LogHandle {
  constructor(readonly fd: number) {}
  stat(): HandleStat {
    const s = fstatSync(this.fd);
    return { size: s.size, mtimeMs: s.mtimeMs, id: idOf(s) };
  }
  read(buffer: Uint8Array, offset: number, length: number, position: number): number {
    return readSync(this.fd, buffer, offset, length, position);
  }
  write(bytes: Uint8Array, offset: number, length: number, position?: number): number {
    return writeSync(this.fd, bytes, offset, length, position ?? null);
  }
  truncate(size: number): void {
    ftruncateSync(this.fd, size);
  }
  sync(): void {
    fsyncSync(this.fd);
  }
  close(): void {
    closeSync(this.fd);
  }
}

const OPEN_FLAGS: Record<OpenMode, number> = {
  // O_APPEND without O_CREAT: every write lands at the end, and a missing file is not recreated.
  append: constants.O_RDWR | constants.O_APPEND,
  update: constants.O_RDWR,
  read: constants.O_RDONLY,
};

export const nodeLogFileSystem: LogFileSystem = {
  open: (path, mode) => new NodeHandle(openSync(path, OPEN_FLAGS[mode])),
  create: (path) => new NodeHandle(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600)),
  openLockFile(path, create) {
    try {
      // dsh opens it for writing and creates it when absent; a read-only one can still be locked.
      return new NodeHandle(openSync(path, constants.O_RDWR | (create ? constants.O_CREAT : 0), 0o666));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !create) return undefined;
      if (code === 'EACCES' || code === 'EROFS') return new NodeHandle(openSync(path, constants.O_RDONLY));
      throw error;
    }
  },
  stat(path) {
    const s = statSync(path, { throwIfNoEntry: false });
    return s ? { size: s.size, mtimeMs: s.mtimeMs, id: idOf(s) } : undefined;
  },
  list: (dir) => readdirSync(dir),
  rename: (from, to) => renameSync(from, to),
  remove: (path) => rmSync(path, { force: true }),
  syncFolder(dir) {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } catch (error) {
      // Some file systems cannot sync a folder; the rename itself has happened.
      if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
    } finally {
      closeSync(fd);
    }
  },
  tryLock: (handle) => flockWithoutWaiting(handle.fd),
};

async function stat(path: string): Promise<FileStat | undefined> {
  try {
    const s = await fsp.stat(path);
    return { size: s.size, mtimeMs: s.mtimeMs, id: idOf(s) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Reads into `out` from `position` in pieces of at most `chunk` bytes until it is full or the file
 * ends; returns `out`, or the part that was filled. The one read loop of the adapter.
 */
async function fill(handle: fsp.FileHandle, out: Uint8Array, position: number, chunk: number, onChunk?: (filled: number) => void) {
  let filled = 0;
  while (filled < out.length) {
    const { bytesRead } = await handle.read(out, filled, Math.min(chunk, out.length - filled), position + filled);
    if (bytesRead === 0) break; // the file is shorter now: keep what is there
    filled += bytesRead;
    onChunk?.(filled);
  }
  return filled === out.length ? out : out.subarray(0, filled);
}

async function readWhole(path: string, onProgress?: (fraction: number) => void): Promise<WholeFile> {
  const handle = await fsp.open(path, 'r');
  try {
    const s = await handle.stat();
    const bytes = await fill(handle, new Uint8Array(s.size), 0, CHUNK, (filled) => onProgress?.(filled / s.size));
    if (s.size === 0) onProgress?.(1);
    return { bytes, stat: { size: s.size, mtimeMs: s.mtimeMs, id: idOf(s) } };
  } finally {
    await handle.close();
  }
}

async function readRange(path: string, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return new Uint8Array(0);
  const handle = await fsp.open(path, 'r');
  try {
    return await fill(handle, new Uint8Array(end - start), start, CHUNK);
  } finally {
    await handle.close();
  }
}

/** Local files on Node. */
export const nodeFiles: FileAccess = { stat, readWhole, readRange, append: nodeLogFileSystem };
