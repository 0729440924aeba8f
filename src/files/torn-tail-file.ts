// Shared by the CLI and the extension host (Node only).
// Removing a torn tail from a log on disk: the only place a log is ever shortened, so it goes in
// checked steps. 1. The file must hold exactly what was loaded. 2. A backup copy is written beside
// it, fsync'd and read back: its bytes must equal the original's; it is written under a partial name
// and renamed to its own only then, so a backup under its own name is always a whole, checked copy
// (never one a crash or an interrupted copy left half written). 3. Only then is the file cut at the
// planned point (and, for zstd, the kept lines of the cut frame appended again as one frame), fsync'd,
// and read back against the predicted bytes.
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
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

/** The backup, whole and read back, under its own name; an earlier backup is never overwritten. */
function writeCheckedBackup(path: string, backupPath: string, loaded: Uint8Array): void {
  if (existsSync(backupPath)) throw new BackupError(`a backup named ${backupPath} already exists; the log was not changed`);
  const partial = `${backupPath}.partial`;
  // COPYFILE_EXCL: never overwrite a file that is there already.
  copyFileSync(path, partial, constants.COPYFILE_EXCL);
  try {
    const partialFd = openSync(partial, 'r');
    try {
      fsyncSync(partialFd);
    } finally {
      closeSync(partialFd);
    }
    if (!sameBytes(new Uint8Array(readFileSync(partial)), loaded)) {
      throw new BackupError(`the backup ${backupPath} does not hold the same bytes as ${path}; the log was not changed`);
    }
    renameSync(partial, backupPath);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

export function removeTornTailFromFile(path: string, loaded: Uint8Array, plan: TornTailRemoval, now = new Date()): TornTailRemoved {
  const backupPath = backupPathFor(path, now);
  const fd = openSync(path, 'r+');
  try {
    assertFileHolds(fd, path, loaded);
    writeCheckedBackup(path, backupPath, loaded);
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
