// Removing a torn tail from a log on disk: the only place a log is ever shortened, so it goes in checked
// steps on one descriptor, under dsh's lock (or, where dsh takes none, only when the file has been still):
//   1. the file must be exactly what was loaded (its inode, size and last bytes); a partial file a killed
//      run left beside it is removed;
//   2. a backup of the whole file, copied and compared piece by piece with what was loaded, fsync'd,
//      read back, then renamed to its own name (backup.ts);
//   3. zstd: the complete lines of the cut frame, compressed again as one frame, go into a journal
//      first (torn-tail-journal.ts), so they are never only in the backup;
//   4. right before the cut, on the same descriptor, the size and the last bytes again — anything
//      appended meanwhile refuses the cut;
//   5. the cut, fsync; zstd: the journal's frame appended through a checked append, the journal removed.
// Every refusal after step 2 names the backup.
import { basename, dirname } from 'node:path';
import type { TornTailRemoval } from '../core';
import { backupPathFor, removeStalePartials, writeCheckedBackup } from './backup';
import { appendChecked, assertExpectedEnd, type ExpectedEnd } from './checked-append';
import { encodeAppendFrame, type FrameEncoding } from './append-frame';
import { readAt, sameBytes, type LogFileSystem, type LogHandle } from './file-access';
import { EDGE_BYTES } from './file-identity';
import { isLive, liveWriterRefusal, msSinceForeignChange, type LivenessOptions } from './liveness-guard';
import { nodeLogFileSystem } from './node-files';
import { journalPathFor, journalState, readJournal, removeJournal, writeJournal, type TornTailJournal } from './torn-tail-journal';
import { openForWrite, type WriteAccessOptions } from './write-access';
import { io, ioRefusal, WriteRefused } from './write-refusal';

export interface TornTailOptions extends LivenessOptions, Pick<WriteAccessOptions, 'waitForLock' | 'allowUnlocked'> {
  files?: LogFileSystem;
  now?: Date;
  /** The mtime and inode of the file when `loaded` was read. */
  loadedMtimeMs: number;
  loadedId?: string;
}

export interface TornTailRemoved {
  backupPath: string;
  /** The file's size after the removal. */
  size: number;
  /** How the kept lines of a cut zstd frame were framed again. */
  frameEncoding?: FrameEncoding;
  /** The replacement frame's size (zstd). */
  frameBytes?: number;
}

const lastBytes = (bytes: Uint8Array, end: number) => bytes.slice(Math.max(0, end - EDGE_BYTES), end);

/** Runs `step`; a refusal or failure after the backup was written says where the original is. */
function afterBackup<T>(backupPath: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    const refusal = ioRefusal('change', 'the log', error);
    throw new WriteRefused(`${refusal.message}; the original is in the backup ${backupPath}`, refusal.rule);
  }
}

/** Appends the journal's frame (or its missing part) after the cut, checked; throws with both file names. */
function appendFrame(
  files: LogFileSystem,
  path: string,
  written: number,
  journal: TornTailJournal,
  backupPath: string,
  tail: Uint8Array,
): void {
  const rest = journal.frame.subarray(written);
  if (rest.length === 0) return;
  const handle = io('open for appending', path, () => files.open(path, 'append'));
  try {
    const expected: ExpectedEnd = { size: journal.cutAt + written, tail };
    const result = appendChecked(files, handle, path, expected, rest);
    if (!result.ok || result.syncError)
      throw new WriteRefused(
        `${path} was cut at byte ${journal.cutAt}, but appending the kept lines again failed: ${result.ok ? `fsync: ${result.syncError}` : result.message}. ` +
          `They are in ${journalPathFor(path)} and the original in ${backupPath}: run the removal again to complete it`,
        'write.torn-tail-incomplete',
      );
  } finally {
    handle.close();
  }
}

/** Cuts the open log back to `cutAt` and puts the journal's frame after it; verifies the result. */
function cutAndComplete(
  files: LogFileSystem,
  handle: LogHandle,
  path: string,
  expected: ExpectedEnd,
  journal: TornTailJournal | undefined,
  cutAt: number,
  keptTail: Uint8Array,
  backupPath: string,
): number {
  afterBackup(backupPath, () => {
    // The last check, then the cut at once: nothing of ours runs in between.
    assertExpectedEnd(files, handle, path, expected);
    handle.truncate(cutAt);
    handle.sync();
  });
  if (journal) appendFrame(files, path, 0, journal, backupPath, keptTail);
  const size = handle.stat().size;
  const want = cutAt + (journal?.frame.length ?? 0);
  const end = readAt(handle, Math.max(0, cutAt - keptTail.length), want);
  const expectedEnd = journal ? Buffer.concat([keptTail, journal.frame]) : keptTail;
  if (size !== want || !sameBytes(end, expectedEnd))
    throw new WriteRefused(
      `${path} does not hold the expected bytes after the removal (${size} bytes, ${want} expected); the original is in the backup ${backupPath}`,
      'write.verify',
    );
  return size;
}

/** Removes the planned torn tail of the log at `path`, whose loaded bytes are `loaded`. Throws WriteRefused. */
export async function removeTornTailFromFile(
  path: string,
  loaded: Uint8Array,
  plan: TornTailRemoval,
  options: TornTailOptions,
): Promise<TornTailRemoved> {
  const files = options.files ?? nodeLogFileSystem;
  const access = await openForWrite(path, {
    files,
    mode: 'update',
    waitForLock: options.waitForLock,
    allowUnlocked: options.allowUnlocked,
  });
  try {
    if (readJournal(files, path))
      throw new WriteRefused(
        `an earlier removal of the torn tail of ${path} was interrupted; it is completed first (run the removal again)`,
        'write.journal',
      );
    removeStalePartials(files, path);
    const handle = access.handle;
    const expected: ExpectedEnd = { size: loaded.length, tail: lastBytes(loaded, loaded.length), id: options.loadedId };
    assertExpectedEnd(files, handle, path, expected);
    if (access.dshLock === 'none') {
      const since = msSinceForeignChange(handle.stat(), options.loadedMtimeMs, options.lastForeignChangeMs ?? options.loadedMtimeMs);
      if (isLive(since) && !(options.allowLive && (await options.allowLive(since)))) throw liveWriterRefusal(path, since);
    }
    const backupPath = backupPathFor(path, options.now ?? new Date());
    await writeCheckedBackup(files, handle, path, backupPath, loaded);
    let journal: TornTailJournal | undefined;
    let encoding: FrameEncoding | undefined;
    if (plan.keptText.length > 0) {
      const framed = encodeAppendFrame(plan.keptText);
      encoding = framed.encoding;
      journal = { backup: basename(backupPath), originalSize: loaded.length, cutAt: plan.cutAt, frame: framed.frame };
      writeJournal(files, path, journal);
    }
    const size = cutAndComplete(files, handle, path, expected, journal, plan.cutAt, lastBytes(loaded, plan.cutAt), backupPath);
    if (journal) afterBackup(backupPath, () => removeJournal(files, path));
    return { backupPath, size, ...(journal ? { frameEncoding: encoding, frameBytes: journal.frame.length } : {}) };
  } finally {
    access.release();
  }
}

/**
 * Completes a removal that a killed run (or a full disk) interrupted, from its journal; undefined when
 * there is none. Throws WriteRefused when the log is no longer in a state the journal explains.
 */
export async function completeInterruptedRemoval(
  path: string,
  options: Pick<TornTailOptions, 'files' | 'waitForLock' | 'allowUnlocked'>,
): Promise<TornTailRemoved | undefined> {
  const files = options.files ?? nodeLogFileSystem;
  const journal = readJournal(files, path);
  if (!journal) return undefined;
  const access = await openForWrite(path, {
    files,
    mode: 'update',
    waitForLock: options.waitForLock,
    allowUnlocked: options.allowUnlocked,
  });
  try {
    const backupPath = `${dirname(path)}/${journal.backup}`;
    removeStalePartials(files, path);
    const handle = access.handle;
    const state = journalState(files, handle, path, journal);
    if (state.kind === 'unexplained')
      throw new WriteRefused(
        `an earlier removal of the torn tail of ${path} was interrupted, and the log no longer matches its journal (${state.why}); ` +
          `nothing was changed. The original is in ${backupPath}; the journal is ${journalPathFor(path)}`,
        'write.journal',
      );
    const keptTail = readAt(handle, Math.max(0, journal.cutAt - EDGE_BYTES), journal.cutAt);
    let size: number;
    if (state.kind === 'not-cut') {
      const whole = handle.stat().size;
      const expected: ExpectedEnd = { size: whole, tail: readAt(handle, Math.max(0, whole - EDGE_BYTES), whole) };
      size = cutAndComplete(files, handle, path, expected, journal, journal.cutAt, keptTail, backupPath);
    } else {
      const written = state.frameBytesIn;
      const tail = readAt(handle, Math.max(0, journal.cutAt + written - EDGE_BYTES), journal.cutAt + written);
      appendFrame(files, path, written, journal, backupPath, tail);
      size = handle.stat().size;
    }
    afterBackup(backupPath, () => removeJournal(files, path));
    return { backupPath, size, frameBytes: journal.frame.length };
  } finally {
    access.release();
  }
}
