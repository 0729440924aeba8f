// The backup written before a log is cut (the one change that shortens a log). It is copied from the
// descriptor the cut goes through, each piece compared with what was loaded on the way, written under
// a partial name, fsync'd, read back, and only then renamed to its own name: a backup under its own
// name is always a whole, checked copy. A partial copy left by a killed run is removed by the next one
// (which holds the log's lock, so no run of ours is still writing it); an earlier backup is never
// overwritten.
import { basename, dirname, join } from 'node:path';
import { readAt, sameBytes, type LogFileSystem, type LogHandle } from './file-access';
import { io, ioRefusal, WriteRefused } from './write-refusal';

const CHUNK = 4 * 1024 * 1024;
const PARTIAL = '.partial';

/** `session.jsonl` → `session.jsonl.torn-tail-backup-20261201T030405Z` (a name no log glob matches). */
export function backupPathFor(path: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${path}.torn-tail-backup-${stamp}`;
}

/** Partial files a killed run of ours left beside the log (backups, journals); removed, their names returned. */
export function removeStalePartials(files: LogFileSystem, path: string): string[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}.torn-tail-`;
  const stale = files.list(dir).filter((name) => name.startsWith(prefix) && name.endsWith(PARTIAL));
  for (const name of stale) io('remove the stale partial file', join(dir, name), () => files.remove(join(dir, name)));
  return stale.map((name) => join(dir, name));
}

const yieldNow = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Copies the open log's first `loaded.length` bytes to `backupPath`, checked against `loaded`; throws WriteRefused. */
export async function writeCheckedBackup(
  files: LogFileSystem,
  log: LogHandle,
  path: string,
  backupPath: string,
  loaded: Uint8Array,
): Promise<void> {
  if (files.stat(backupPath))
    throw new WriteRefused(`a backup named ${backupPath} already exists; the log was not changed`, 'write.backup');
  const partial = `${backupPath}${PARTIAL}`;
  const unchanged = '; the log was not changed';
  const out = io('create the backup', partial, () => files.create(partial), unchanged);
  let renamed = false;
  try {
    try {
      for (let at = 0; at < loaded.length; at += CHUNK) {
        const piece = readAt(log, at, Math.min(loaded.length, at + CHUNK));
        if (!sameBytes(piece, loaded.subarray(at, at + piece.length)) || piece.length === 0)
          throw new WriteRefused(`${path} changed while it was backed up (at byte ${at}); the log was not changed`, 'write.file-changed');
        for (let done = 0; done < piece.length;)
          done += io('write the backup', partial, () => out.write(piece, done, piece.length - done, at + done), unchanged);
        await yieldNow();
      }
      io('flush the backup to disk (fsync)', partial, () => out.sync(), unchanged);
    } finally {
      out.close();
    }
    await assertBackupHolds(files, partial, loaded);
    io('rename the checked backup to', backupPath, () => files.rename(partial, backupPath), unchanged);
    renamed = true;
    io('record the backup in its folder (fsync)', dirname(backupPath), () => files.syncFolder(dirname(backupPath)), unchanged);
  } catch (error) {
    if (!renamed) files.remove(partial);
    throw ioRefusal('write the backup', partial, error, unchanged);
  }
}

/** Reads the written backup back: it must hold exactly the loaded bytes. */
async function assertBackupHolds(files: LogFileSystem, partial: string, loaded: Uint8Array): Promise<void> {
  const back = io('read the backup back', partial, () => files.open(partial, 'read'), '; the log was not changed');
  try {
    if (back.stat().size !== loaded.length)
      throw new WriteRefused(
        `the backup ${partial} has ${back.stat().size} bytes, not ${loaded.length}; the log was not changed`,
        'write.backup',
      );
    for (let at = 0; at < loaded.length; at += CHUNK) {
      const piece = readAt(back, at, Math.min(loaded.length, at + CHUNK));
      if (!sameBytes(piece, loaded.subarray(at, at + piece.length)))
        throw new WriteRefused(
          `the backup ${partial} does not read back as the log's bytes (at byte ${at}); the log was not changed`,
          'write.backup',
        );
      await yieldNow();
    }
  } finally {
    back.close();
  }
}
