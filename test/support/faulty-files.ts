// The write layer's file system (the real one, on real files) with faults injected at chosen calls: a
// write the system cuts short, a full disk after so many bytes, a slow writer (so a parent process can
// kill it part way), a failing fsync, a failing backup copy or rename, and a hook that runs right before
// a log write — where another process would have to strike to land in the gap between the last check
// and the write (an append, a cut, a rename, a symlink, a removal).
import type { LogFileSystem, LogHandle } from '../../src/files/file-access';
import { nodeLogFileSystem } from '../../src/files/node-files';

export interface Faults {
  /** Runs right before each write to a log opened for appending or cutting (call counts from 0). */
  beforeWrite?: (call: number) => void;
  /** At most this many bytes per write call (a short write), e.g. 1 for a byte at a time. */
  bytesPerWrite?: number;
  /** Sleeps this long after each write (a slow writer a test can kill part way). */
  pauseMs?: number;
  /** Log writes take this many bytes in all, then fail with this code (a full disk, a file-size limit). */
  fullAfter?: { bytes: number; code: string };
  /** fsync of a log fails with this code (after its bytes were written). */
  syncFails?: string;
  /** Creating, writing or renaming a backup or journal fails with this code. */
  sideFileFails?: { at: 'create' | 'write' | 'rename'; code: string };
  /** A truncate (the torn-tail cut) fails with this code. */
  truncateFails?: string;
}

const fail = (code: string) => Object.assign(new Error(`${code}: injected`), { code });

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Counts the bytes log writes took, across handles, for `fullAfter`. */
interface Budget {
  written: number;
  calls: number;
}

function faultyLog(inner: LogHandle, faults: Faults, budget: Budget): LogHandle {
  return {
    fd: inner.fd,
    stat: () => inner.stat(),
    read: (buffer, offset, length, position) => inner.read(buffer, offset, length, position),
    write(bytes, offset, length, position) {
      faults.beforeWrite?.(budget.calls++);
      let take = Math.min(length, faults.bytesPerWrite ?? length);
      if (faults.fullAfter) {
        const left = faults.fullAfter.bytes - budget.written;
        if (left <= 0) throw fail(faults.fullAfter.code);
        take = Math.min(take, left);
      }
      const n = inner.write(bytes, offset, take, position);
      budget.written += n;
      if (faults.pauseMs) sleep(faults.pauseMs);
      return n;
    },
    truncate(size) {
      if (faults.truncateFails) throw fail(faults.truncateFails);
      inner.truncate(size);
    },
    sync() {
      if (faults.syncFails) throw fail(faults.syncFails);
      inner.sync();
    },
    close: () => inner.close(),
  };
}

function faultySideFile(inner: LogHandle, faults: Faults): LogHandle {
  return {
    ...inner,
    fd: inner.fd,
    stat: () => inner.stat(),
    read: (b, o, l, p) => inner.read(b, o, l, p),
    write(bytes, offset, length, position) {
      if (faults.sideFileFails?.at === 'write') throw fail(faults.sideFileFails.code);
      return inner.write(bytes, offset, length, position);
    },
    truncate: (size) => inner.truncate(size),
    sync: () => inner.sync(),
    close: () => inner.close(),
  };
}

/** The real file system with `faults`. */
export function faultyFiles(faults: Faults, inner: LogFileSystem = nodeLogFileSystem): LogFileSystem {
  const budget: Budget = { written: 0, calls: 0 };
  return {
    ...inner,
    open(path, mode) {
      const handle = inner.open(path, mode);
      return mode === 'read' ? handle : faultyLog(handle, faults, budget);
    },
    create(path) {
      if (faults.sideFileFails?.at === 'create') throw fail(faults.sideFileFails.code);
      return faultySideFile(inner.create(path), faults);
    },
    rename(from, to) {
      if (faults.sideFileFails?.at === 'rename') throw fail(faults.sideFileFails.code);
      inner.rename(from, to);
    },
  };
}
