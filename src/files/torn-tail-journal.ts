// The journal of a zstd torn-tail removal. Cutting a zstd log at its torn frame drops the complete lines
// recovered from that frame until they are appended again as a new frame; the journal holds that frame
// (compressed) from before the cut until it is in the log, beside the backup of the whole original. A
// run killed in between (or stopped by a full disk) leaves the journal, and the next removal completes
// the cut from it — or, when the log is no longer in a state the journal explains, refuses and names
// the backup to restore from.
import { basename, dirname, join } from 'node:path';
import { readAt, sameBytes, type LogFileSystem, type LogHandle } from './file-access';
import { io, WriteRefused } from './write-refusal';

export interface TornTailJournal {
  /** The backup of the whole original file (a name in the log's folder). */
  backup: string;
  originalSize: number;
  cutAt: number;
  /** The frame that goes after the cut. */
  frame: Uint8Array;
}

const SUFFIX = '.torn-tail-journal';

export const journalPathFor = (path: string) => `${path}${SUFFIX}`;

/** Writes the journal durably (partial name, fsync, rename, folder fsync) before the cut. */
export function writeJournal(files: LogFileSystem, path: string, journal: TornTailJournal): void {
  const target = journalPathFor(path);
  const partial = `${target}.partial`;
  const text = new TextEncoder().encode(
    JSON.stringify({
      version: 1,
      log: basename(path),
      backup: journal.backup,
      originalSize: journal.originalSize,
      cutAt: journal.cutAt,
      frame: Buffer.from(journal.frame).toString('base64'),
    }),
  );
  const unchanged = `; the log was not changed (its backup is ${join(dirname(path), journal.backup)})`;
  const out = io('create the torn-tail journal', partial, () => files.create(partial), unchanged);
  try {
    for (let done = 0; done < text.length;)
      done += io('write the torn-tail journal', partial, () => out.write(text, done, text.length - done, done), unchanged);
    io('flush the torn-tail journal (fsync)', partial, () => out.sync(), unchanged);
  } catch (error) {
    out.close();
    files.remove(partial);
    throw error;
  }
  out.close();
  io('rename the torn-tail journal to', target, () => files.rename(partial, target), unchanged);
  io('record the torn-tail journal in its folder (fsync)', dirname(path), () => files.syncFolder(dirname(path)), unchanged);
}

/** The journal of an interrupted removal of `path`, if one is there. */
export function readJournal(files: LogFileSystem, path: string): TornTailJournal | undefined {
  const target = journalPathFor(path);
  if (!files.stat(target)) return undefined;
  const handle = io('open the torn-tail journal', target, () => files.open(target, 'read'));
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(new TextDecoder().decode(readAt(handle, 0, handle.stat().size)));
  } catch {
    throw new WriteRefused(
      `the torn-tail journal ${target} cannot be read; restore ${path} from its torn-tail backup, then remove the journal`,
      'write.journal',
    );
  } finally {
    handle.close();
  }
  const { backup, originalSize, cutAt, frame } = parsed;
  if (typeof backup !== 'string' || typeof originalSize !== 'number' || typeof cutAt !== 'number' || typeof frame !== 'string')
    throw new WriteRefused(
      `the torn-tail journal ${target} is not one this tool wrote; restore ${path} from its torn-tail backup, then remove the journal`,
      'write.journal',
    );
  return { backup, originalSize, cutAt, frame: new Uint8Array(Buffer.from(frame, 'base64')) };
}

export function removeJournal(files: LogFileSystem, path: string): void {
  const target = journalPathFor(path);
  io('remove the torn-tail journal', target, () => files.remove(target));
  io('record the removal in its folder (fsync)', dirname(path), () => files.syncFolder(dirname(path)));
}

/** Compares [start, end) of two open files piece by piece. */
function sameRange(a: LogHandle, b: LogHandle, start: number, end: number): boolean {
  const piece = 4 * 1024 * 1024;
  for (let at = start; at < end; at += piece) {
    const to = Math.min(end, at + piece);
    if (!sameBytes(readAt(a, at, to), readAt(b, at, to))) return false;
  }
  return true;
}

/**
 * Where an interrupted removal stopped, read from the log (open on `log`) and the backup: `not-cut`
 * (the log is still the whole original), `cut` with how many bytes of the frame are in already, or
 * why the journal no longer explains the log.
 */
export function journalState(
  files: LogFileSystem,
  log: LogHandle,
  path: string,
  journal: TornTailJournal,
): { kind: 'not-cut' } | { kind: 'cut'; frameBytesIn: number } | { kind: 'unexplained'; why: string } {
  const backupPath = join(dirname(path), journal.backup);
  const backup = files.stat(backupPath) ? io('open the torn-tail backup', backupPath, () => files.open(backupPath, 'read')) : undefined;
  if (!backup) return { kind: 'unexplained', why: `its backup ${backupPath} is missing` };
  try {
    if (backup.stat().size !== journal.originalSize)
      return { kind: 'unexplained', why: `its backup ${backupPath} is not the size the journal recorded` };
    const size = log.stat().size;
    if (size < journal.cutAt || !sameRange(log, backup, 0, journal.cutAt))
      return { kind: 'unexplained', why: `the log no longer starts with the ${journal.cutAt} bytes that were kept` };
    if (size === journal.originalSize && sameRange(log, backup, journal.cutAt, size)) return { kind: 'not-cut' };
    // The frame, or the part of it written before the run stopped (more after a whole frame: dsh went on).
    const tail = readAt(log, journal.cutAt, Math.min(size, journal.cutAt + journal.frame.length));
    if (
      sameBytes(tail, journal.frame.subarray(0, tail.length)) &&
      (tail.length === journal.frame.length || size === journal.cutAt + tail.length)
    )
      return { kind: 'cut', frameBytesIn: tail.length };
    return {
      kind: 'unexplained',
      why: `after the cut at byte ${journal.cutAt} it holds ${size - journal.cutAt} bytes that are not the journal's frame`,
    };
  } finally {
    backup.close();
  }
}
