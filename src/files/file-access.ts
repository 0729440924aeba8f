// The one file adapter every reader and writer of a log goes through: stat, read a range, read the
// whole file, and — where the file system can append in place — the descriptor-level operations the
// write layer needs. Node implements it for local files (node-files.ts), the extension host for any
// other scheme over vscode.workspace.fs (which can only replace whole files, so it has no `append`).
// Tests hand in a file system of their own to fail a write at a chosen call.

export interface FileStat {
  size: number;
  mtimeMs: number;
  /** Device and inode ("dev:ino"), where the file system has them: tells a replaced file from the one read. */
  id?: string;
}

export interface WholeFile {
  bytes: Uint8Array;
  /** The file as it was when the read began. */
  stat: FileStat;
}

export interface FileAccess {
  /** undefined when the file does not exist (any other error is thrown). */
  stat(path: string): Promise<FileStat | undefined>;
  /** Bytes [start, end), or fewer if the file is shorter now. */
  readRange(path: string, start: number, end: number): Promise<Uint8Array>;
  /** The whole file; `onProgress(fraction)` after each chunk. */
  readWhole(path: string, onProgress?: (fraction: number) => void): Promise<WholeFile>;
  /** Appending in place (and the one cut a torn tail needs); absent where files can only be replaced whole. */
  readonly append?: LogFileSystem;
}

/** What an open descriptor says about its file. */
export interface HandleStat extends FileStat {
  id: string;
}

/**
 * An open descriptor. Its calls are synchronous on purpose: the write layer checks the file and
 * writes in one turn of the event loop, so nothing of ours runs between the last check and the write;
 * bulk loops (a backup copy) yield between chunks.
 */
export interface LogHandle {
  /** The descriptor number (handed to the lock tool, which locks the open file it names). */
  readonly fd: number;
  stat(): HandleStat;
  /** Reads up to `length` bytes at `position` into `buffer` (from `offset`); 0 at the end. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): number;
  /** Writes at the end (append mode) or at `position`; returns how many bytes the system took. */
  write(bytes: Uint8Array, offset: number, length: number, position?: number): number;
  truncate(size: number): void;
  sync(): void;
  close(): void;
}

/** How a log is opened: `append` (O_APPEND: every write lands at the end), `update` (the cut), `read`. */
export type OpenMode = 'append' | 'update' | 'read';

export interface LogFileSystem {
  /** Opens an existing file; never creates one. */
  open(path: string, mode: OpenMode): LogHandle;
  /** Creates a file that must not exist yet (O_EXCL), for writing. */
  create(path: string): LogHandle;
  /** Opens the lock file, creating it when `create` (as dsh does); undefined when absent and not created. */
  openLockFile(path: string, create: boolean): LogHandle | undefined;
  /** The file a path names now (symlinks followed), or undefined when nothing is there. */
  stat(path: string): HandleStat | undefined;
  /** The names in a folder. */
  list(dir: string): string[];
  rename(from: string, to: string): void;
  remove(path: string): void;
  /** Makes a folder's entries (a rename, a removal) durable. */
  syncFolder(dir: string): void;
  /** Takes an exclusive advisory lock on the open file without waiting (flock(2) LOCK_EX|LOCK_NB). */
  tryLock(handle: LogHandle): Promise<LockAttempt>;
}

/** `unavailable`: this system has no way to take the lock; `why` says what is missing. */
export type LockAttempt = { kind: 'locked' } | { kind: 'busy' } | { kind: 'unavailable'; why: string };

/** An I/O error's code ("ENOSPC"), or its message when it has none. */
export function errorCode(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string') return e.code;
  return typeof e?.message === 'string' ? e.message : String(error);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The one read loop of the write layer: fills bytes [start, end) of the open file in pieces of at most
 * `chunk` bytes, yielding after each piece; returns what was filled (less when the file is shorter).
 */
function* readPieces(handle: LogHandle, start: number, end: number, chunk: number): Generator<void, Uint8Array> {
  const out = new Uint8Array(Math.max(0, end - start));
  let filled = 0;
  while (filled < out.length) {
    const got = handle.read(out, filled, Math.min(chunk, out.length - filled), start + filled);
    if (got <= 0) break;
    filled += got;
    yield;
  }
  return filled === out.length ? out : out.subarray(0, filled);
}

/** Bytes [start, end) through an open descriptor (fewer when the file is shorter), in one go. */
export function readAt(handle: LogHandle, start: number, end: number): Uint8Array {
  const pieces = readPieces(handle, start, end, Number.MAX_SAFE_INTEGER);
  for (;;) {
    const step = pieces.next();
    if (step.done) return step.value;
  }
}

const BULK_CHUNK = 4 * 1024 * 1024;

/** The same in large pieces, yielding to the event loop between them (a host stays responsive). */
export async function readAtYielding(handle: LogHandle, start: number, end: number): Promise<Uint8Array> {
  const pieces = readPieces(handle, start, end, BULK_CHUNK);
  for (;;) {
    const step = pieces.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
