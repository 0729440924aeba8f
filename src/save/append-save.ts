// Saving pending edits to a session log on disk, shared by the CLI and the extension host. The log is
// append-only, so a save only ever adds bytes at the end, through a file handle opened in append mode:
//   1. check that the file still starts with exactly the bytes that were loaded (size, first and last
//      bytes of the loaded prefix); a file that shrank or changed is refused, never written;
//   2. if a writer appended meanwhile, fold its bytes in and plan the edits again on the new tail
//      (new seqs, the surface as it is now), then ask before writing — or refuse when nobody may be asked;
//   3. write the planned lines (plain: the lines; zstd: one new frame holding them, as dsh writes a
//      batch), fsync, read them back, and fold them into the loaded log.
// A write that stops half way (a full disk, a killed process) leaves the original bytes plus a torn
// tail, which readers and dsh's next writable open handle as any crashed append.
import { constants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import {
  appendBytes,
  extendLoadedFile,
  loadSessionFile,
  type Diagnostic,
  type LoadedFile,
  type PendingEdits,
  type SessionLog,
} from '../core';
import { encodeZstdFrame } from '../core/zstd';
import { zlibZstd } from '../node/zlib-zstd';
import { classifyChange, extendIdentity, type LoadedIdentity } from '../files/file-identity';

/** A log loaded for editing: the core's view of it and the identity of the bytes that were read. */
export interface EditableLog {
  loaded: LoadedFile;
  identity: LoadedIdentity;
}

/** What a writer appended since the log was loaded, and the lines planned again on top of it. */
export interface ReplanInfo {
  foreignBytes: number;
  foreignEvents: number;
  lines: string[];
  firstSeq: number;
}

/** Writes bytes through an append-mode handle; replaced by tests to stop a write half way. */
export type AppendWriter = (handle: FileHandle, bytes: Uint8Array) => Promise<void>;

export interface SaveOptions {
  /**
   * Asked when the file grew since it was loaded and the edits were planned again on top of it.
   * Without it, such a save is refused (the caller has not agreed to lines it has not seen).
   */
  confirmReplan?: (info: ReplanInfo) => boolean | Promise<boolean>;
  /**
   * Events another writer appended after the user reviewed the edits, which the caller already folded
   * into the loaded log (an editor follows the file). They count as foreign growth: the edits were
   * planned again over them, so the save asks just as for growth it finds itself.
   */
  foldedSinceReview?: { bytes: number; events: number };
  writer?: AppendWriter;
}

export type SaveStage = 'file' | 'plan' | 'declined' | 'write' | 'verify';

export type SaveOutcome =
  | { ok: true; lines: string[]; firstSeq: number; bytesWritten: number; replanned?: ReplanInfo }
  | { ok: false; stage: SaveStage; message: string; reasons: Diagnostic[]; bytesWritten?: number; replanned?: ReplanInfo };

const refuse = (
  stage: SaveStage,
  message: string,
  reasons: Diagnostic[] = [],
  extra: { bytesWritten?: number; replanned?: ReplanInfo } = {},
): SaveOutcome => ({ ok: false, stage, message, reasons, ...extra });

/** Writes every byte, however many calls the file system needs. */
export const writeAll: AppendWriter = async (handle, bytes) => {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, null);
    done += bytesWritten;
  }
};

async function readAt(handle: FileHandle, start: number, end: number): Promise<Uint8Array> {
  const out = new Uint8Array(Math.max(0, end - start));
  let filled = 0;
  while (filled < out.length) {
    const { bytesRead } = await handle.read(out, filled, out.length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === out.length ? out : out.subarray(0, filled);
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Why a log cannot be opened for appending, in words. */
function openProblem(path: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return `${path} no longer exists; nothing was written`;
    case 'EROFS':
      return `${path} is on a read-only file system; a session log can only be saved by appending to it, and this one cannot be appended to`;
    case 'EACCES':
    case 'EPERM':
      return `${path} cannot be opened for appending (${error.code}: permission denied); nothing was written`;
    case 'EISDIR':
      return `${path} is a directory`;
    default:
      return `${path} cannot be opened for appending (${error.code ?? error.message}); nothing was written`;
  }
}

/** What a write that stopped after `written` bytes left behind, in words. */
function partialWriteEffect(zstd: boolean, text: Uint8Array, written: number | undefined): string {
  const torn = 'readers ignore a torn tail, and dsh cuts it off when it next opens the log for writing';
  if (written === undefined) return `Whatever was written is a torn tail: ${torn}.`;
  if (zstd) return `The ${written} bytes written are an incomplete frame: ${torn}.`;
  let complete = 0;
  for (let i = 0; i < Math.min(written, text.length); i++) if (text[i] === 0x0a) complete++;
  if (complete === 0) return `The ${written} bytes written are a torn tail: ${torn}.`;
  return (
    `The first ${complete} line(s) were written whole and are now events of the log (check it before saving again); ` +
    `the rest is a torn tail: ${torn}.`
  );
}

/**
 * A private copy of the log for planning edits that build on each other (read once, up front, only
 * when more than one edit is pending), so the loaded log is never appended to before the write.
 */
async function prepareFork(handle: FileHandle, size: number, needed: boolean): Promise<(() => SessionLog) | undefined> {
  if (!needed) return undefined;
  const bytes = await readAt(handle, 0, size);
  return () => loadSessionFile(bytes).log;
}

/**
 * Appends the pending edits to the log at `path`. On success the written bytes are folded into
 * `target` (its log and identity move on) and the edits are cleared; on refusal nothing was written
 * unless `bytesWritten` says otherwise (a write that failed half way).
 */
export async function saveEdits(path: string, target: EditableLog, edits: PendingEdits, options: SaveOptions = {}): Promise<SaveOutcome> {
  if (edits.count === 0) return { ok: true, lines: [], firstSeq: target.loaded.log.eventCount, bytesWritten: 0 };
  let handle: FileHandle;
  try {
    // O_APPEND without O_CREAT: every write lands at the end, and a missing file is not recreated.
    handle = await fsp.open(path, constants.O_RDWR | constants.O_APPEND);
  } catch (error) {
    return refuse('file', openProblem(path, error as NodeJS.ErrnoException));
  }
  try {
    return await saveThrough(handle, path, target, edits, options);
  } finally {
    await handle.close();
  }
}

async function saveThrough(
  handle: FileHandle,
  path: string,
  target: EditableLog,
  edits: PendingEdits,
  options: SaveOptions,
): Promise<SaveOutcome> {
  const stat = await handle.stat();
  const change = await classifyChange(target.identity, {
    stat: { size: stat.size, mtimeMs: stat.mtimeMs },
    read: (start, end) => readAt(handle, start, end),
  });
  let replanned: ReplanInfo | undefined;
  const folded = options.foldedSinceReview;
  let foreign: { bytes: number; events: number } | undefined = folded && folded.events > 0 ? { ...folded } : undefined;
  switch (change.kind) {
    case 'unchanged':
      break;
    case 'appended': {
      // Another writer (the agent) appended: fold its bytes in as a follower would, then plan again.
      const appended = await readAt(handle, change.from, change.to);
      const before = target.loaded.log.eventCount;
      extendLoadedFile(target.loaded, appended);
      target.identity = extendIdentity(target.identity, appended, stat.mtimeMs);
      const events = target.loaded.log.eventCount - before;
      foreign = { bytes: appended.length + (foreign?.bytes ?? 0), events: events + (foreign?.events ?? 0) };
      break;
    }
    default:
      return refuse('file', `${path} is not what was loaded: ${change.explanation}`);
  }

  const loaded = target.loaded;
  if (loaded.follow && loaded.follow.pending.length > 0) {
    return refuse(
      'file',
      `${path} ends in an incomplete zstd frame (${loaded.follow.pending.length} bytes): a writer is in the middle of a batch, or crashed in one. ` +
        'A frame appended after it would be unreadable; nothing was written.',
    );
  }
  const fork = await prepareFork(handle, target.identity.size, edits.count > 1);
  const plan = edits.plan({ log: loaded.log, fork });
  if (!plan.ok) {
    const which = edits.count === 1 ? 'the edit' : `edit ${plan.index + 1} of ${edits.count}`;
    const why = foreign
      ? `after ${foreign.events} event(s) appended by another writer, ${which} no longer holds`
      : `${which} does not hold on ${path}`;
    return refuse('plan', `${why}; nothing was written`, plan.reasons);
  }
  if (foreign) {
    replanned = { foreignBytes: foreign.bytes, foreignEvents: foreign.events, lines: plan.lines, firstSeq: plan.firstSeq };
    edits.rebase(loaded.log.eventCount);
    const agreed = options.confirmReplan ? await options.confirmReplan(replanned) : false;
    if (!agreed) {
      return refuse(
        'declined',
        `${path} grew by ${foreign.bytes} bytes (${foreign.events} events) since the edits were made; they were planned again ` +
          `as seqs ${plan.firstSeq}–${plan.firstSeq + plan.lines.length - 1}, but writing them was not confirmed; nothing was written`,
        [],
        { replanned },
      );
    }
  }

  const text = appendBytes(plan.lines);
  const bytes = loaded.follow ? encodeZstdFrame(text, { codec: zlibZstd() }) : text;
  const before = await handle.stat();
  if (before.size !== target.identity.size) {
    return refuse(
      'file',
      `${path} changed again while the save was being prepared (${before.size - target.identity.size} more bytes); nothing was written. Save again.`,
      [],
      { replanned },
    );
  }
  try {
    await (options.writer ?? writeAll)(handle, bytes);
    await handle.sync();
  } catch (error) {
    const now = await handle.stat().then(
      (s) => s.size,
      () => undefined,
    );
    const written = now === undefined ? undefined : now - target.identity.size;
    const e = error as NodeJS.ErrnoException;
    return refuse(
      'write',
      `writing to ${path} stopped after ${written ?? 'an unknown number of'} of ${bytes.length} bytes (${e.code ?? e.message}). ` +
        `The ${target.identity.size} bytes that were there are untouched. ${partialWriteEffect(loaded.follow !== undefined, text, written)}`,
      [],
      { bytesWritten: written, replanned },
    );
  }

  // Our bytes must sit right after the loaded prefix: another writer could have appended between the
  // size check and our write (append mode keeps both intact, but our lines would then not follow the log).
  const landed = await readAt(handle, target.identity.size, target.identity.size + bytes.length);
  if (!sameBytes(landed, bytes)) {
    return refuse(
      'verify',
      `another writer appended to ${path} at the same moment: the saved lines are in the file but not right after the loaded bytes. ` +
        'Reload the log and check it with `session-surface check`.',
      [],
      { bytesWritten: bytes.length, replanned },
    );
  }
  const result = extendLoadedFile(loaded, bytes);
  const after = await handle.stat();
  target.identity = extendIdentity(
    target.identity,
    bytes,
    after.size === target.identity.size + bytes.length ? after.mtimeMs : stat.mtimeMs,
  );
  edits.clearSaved(loaded.log.eventCount);
  const problems = result.diagnostics.filter((d) => d.severity === 'error');
  if (result.added !== plan.lines.length || problems.length > 0) {
    return refuse(
      'verify',
      `the saved lines were written but did not read back as ${plan.lines.length} valid events (${result.added} read)`,
      problems,
      { bytesWritten: bytes.length, replanned },
    );
  }
  return { ok: true, lines: plan.lines, firstSeq: plan.firstSeq, bytesWritten: bytes.length, ...(replanned ? { replanned } : {}) };
}
