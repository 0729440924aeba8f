// Shared by the CLI and the extension host (Node only).
// Removing a torn tail from a log on disk: the only place a log is ever shortened, so it goes in
// checked steps. 1. The file must hold exactly what was loaded. 2. A backup copy is written beside
// it, fsync'd and read back: its bytes must equal the original's. 3. Only then is the file cut at the
// planned point (and, for zstd, the kept lines of the cut frame appended again as one frame), fsync'd,
// and read back against the predicted bytes.
import { closeSync, constants, copyFileSync, fsyncSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import { assertFileHolds, writeAll } from './append-file';
import { bytesAfterRemoval, type TornTailRemoval } from '../core/plan/torn-tail-removal';

export class BackupError extends Error {}

/** `session.jsonl` → `session.jsonl.torn-tail-backup-20261201T030405Z` (a name no log glob matches). */
export function backupPathFor(path: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${path}.torn-tail-backup-${stamp}`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface TornTailRemoved {
  backupPath: string;
  /** The file's size after the removal. */
  size: number;
}

export function removeTornTailFromFile(path: string, loaded: Uint8Array, plan: TornTailRemoval, now = new Date()): TornTailRemoved {
  const backupPath = backupPathFor(path, now);
  const fd = openSync(path, 'r+');
  try {
    assertFileHolds(fd, path, loaded);
    // COPYFILE_EXCL: never overwrite an earlier backup.
    copyFileSync(path, backupPath, constants.COPYFILE_EXCL);
    const backupFd = openSync(backupPath, 'r');
    try {
      fsyncSync(backupFd);
    } finally {
      closeSync(backupFd);
    }
    if (!sameBytes(new Uint8Array(readFileSync(backupPath)), loaded)) {
      throw new BackupError(`the backup ${backupPath} does not hold the same bytes as ${path}; the log was not changed`);
    }
    // The file again, just before the cut: nothing may have been appended while the backup was made.
    assertFileHolds(fd, path, loaded);
    ftruncateSync(fd, plan.cutAt);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (plan.reappend.length > 0) {
    // The kept lines of a cut zstd frame go back as one frame, through an append-mode handle.
    const appendFd = openSync(path, 'a');
    try {
      writeAll(appendFd, plan.reappend);
      fsyncSync(appendFd);
    } finally {
      closeSync(appendFd);
    }
  }
  const after = new Uint8Array(readFileSync(path));
  if (!sameBytes(after, bytesAfterRemoval(loaded, plan)))
    throw new Error(`${path} does not hold the expected bytes after the removal; the original is in ${backupPath}`);
  return { backupPath, size: after.length };
}
