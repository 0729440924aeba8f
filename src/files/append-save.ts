// Saving pending edits to a session log on disk, shared by the CLI and the extension host. The log is
// append-only, so a save only ever adds bytes at the end. Each attempt:
//   1. opens the log for writing (write-access.ts: the current generation only; dsh's lock held for
//      the whole attempt — a live dsh refuses the save, or the editor waits for it);
//   2. checks, through that one descriptor, that the file still starts with exactly what was loaded;
//      a writer's appends are folded in and the edits planned again on the new tail (new seqs);
//   3. when the file grew since the edits were made, or another writer changed it moments ago and no
//      dsh lock covers the save, lets go of every lock and asks — then starts over;
//   4. appends the planned lines (plain: the lines; zstd: one new frame) with checked-append.ts, fsyncs,
//      reads them back and folds them into the loaded log.
// A write that stops half way (a full disk, a killed process) leaves the original bytes plus a torn
// tail, which readers and dsh's next writable open handle as any crashed append.
import {
  appendBytes,
  extendLoadedFile,
  loadSessionFile,
  type Diagnostic,
  type LoadedFile,
  type PendingEdits,
  type SessionLog,
} from '../core';
import { appendChecked } from './checked-append';
import { readAt, readAtYielding, type LogFileSystem, type LogHandle } from './file-access';
import { classifyChange, extendIdentity, type LoadedIdentity } from './file-identity';
import { encodeAppendFrame } from './append-frame';
import { isLive, liveWriterRefusal, msSinceForeignChange, type LivenessOptions } from './liveness-guard';
import { nodeLogFileSystem } from './node-files';
import { openForWrite, type WriteAccess, type WriteAccessOptions } from './write-access';
import { WriteRefused } from './write-refusal';
import { partialWriteEffect } from './write-words';

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
  /** Set when no dsh lock covers the save and the file changed this recently (an agent may be writing). */
  msSinceChange?: number;
}

export interface SaveOptions extends LivenessOptions, Pick<WriteAccessOptions, 'waitForLock' | 'allowUnlocked'> {
  /**
   * Asked when the file grew since it was loaded and the edits were planned again on top of it (a yes
   * also agrees to a write while the file is still changing). Without it, such a save is refused.
   */
  confirmReplan?: (info: ReplanInfo) => boolean | Promise<boolean>;
  /**
   * Events another writer appended after the user reviewed the edits, which the caller already folded
   * into the loaded log (an editor follows the file). They count as foreign growth: the edits were
   * planned again over them, so the save asks just as for growth it finds itself.
   */
  foldedSinceReview?: { bytes: number; events: number };
  /** The file system (tests hand in one that fails at a chosen call). */
  files?: LogFileSystem;
}

export type SaveStage = 'file' | 'lock' | 'live' | 'plan' | 'declined' | 'write' | 'verify';

export type SaveOutcome =
  | { ok: true; lines: string[]; firstSeq: number; bytesWritten: number; replanned?: ReplanInfo; syncError?: string }
  | {
      ok: false;
      stage: SaveStage;
      message: string;
      reasons: Diagnostic[];
      bytesWritten?: number;
      replanned?: ReplanInfo;
      /** The file is no longer what the loaded log says (another writer's bytes among ours): read it again. */
      stale?: boolean;
    };

type Refusal = Extract<SaveOutcome, { ok: false }>;

const refuse = (stage: SaveStage, message: string, reasons: Diagnostic[] = [], extra: Partial<Refusal> = {}): Refusal => ({
  ok: false,
  stage,
  message,
  reasons,
  ...extra,
});

const ROUNDS = 3;

/** What an attempt found that someone must agree to before the write. */
interface Question {
  replan?: ReplanInfo;
  msSinceChange?: number;
}

/**
 * Appends the pending edits to the log at `path`. On success the written bytes are folded into
 * `target` (its log and identity move on) and the edits are cleared; on refusal nothing was written
 * unless `bytesWritten` says otherwise (a write that failed half way, whose bytes are folded in too).
 */
export async function saveEdits(path: string, target: EditableLog, edits: PendingEdits, options: SaveOptions = {}): Promise<SaveOutcome> {
  if (edits.count === 0) return { ok: true, lines: [], firstSeq: target.loaded.log.eventCount, bytesWritten: 0 };
  const files = options.files ?? nodeLogFileSystem;
  const folded = options.foldedSinceReview;
  const growth = { bytes: folded?.events ? folded.bytes : 0, events: folded?.events ?? 0 };
  let agreedSize = -1;
  let agreedLive = false;
  let replanned: ReplanInfo | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    let access: WriteAccess;
    try {
      access = await openForWrite(path, { files, mode: 'append', waitForLock: options.waitForLock, allowUnlocked: options.allowUnlocked });
    } catch (error) {
      if (!(error instanceof WriteRefused)) throw error;
      return refuse(error.rule.startsWith('write.lock') ? 'lock' : 'file', error.message, [], { replanned });
    }
    let question: Question;
    try {
      const attempt = await attemptSave(files, access, path, target, edits, growth, options, agreedSize, agreedLive);
      // What the caller agreed to is what it is told about (the attempt after the answer planned the same lines).
      if ('ok' in attempt) return replanned ? { ...attempt, replanned } : attempt;
      question = attempt;
    } finally {
      access.release();
    }
    // Asked with no lock held: a live dsh must not wait on a dialog of ours.
    if (question.replan) {
      replanned = question.replan;
      const agreed = options.confirmReplan ? await options.confirmReplan(question.replan) : false;
      if (!agreed) {
        const info = question.replan;
        return refuse(
          'declined',
          `${path} grew by ${info.foreignBytes} bytes (${info.foreignEvents} events) since the edits were made; they were planned again ` +
            `as seqs ${info.firstSeq}–${info.firstSeq + info.lines.length - 1}, but writing them was not confirmed; nothing was written`,
          [],
          { replanned },
        );
      }
      agreedSize = target.identity.size;
      agreedLive = true;
    } else if (question.msSinceChange !== undefined) {
      const agreed = options.allowLive ? await options.allowLive(question.msSinceChange) : false;
      if (!agreed) return refuse('live', liveWriterRefusal(path, question.msSinceChange).message, [], { replanned });
      agreedLive = true;
    }
  }
  return refuse('file', `${path} kept changing while the save waited for an answer; nothing was written. Save again.`, [], { replanned });
}

/** One attempt under the locks: check, fold, plan, then write — or return what must be asked first. */
async function attemptSave(
  files: LogFileSystem,
  access: WriteAccess,
  path: string,
  target: EditableLog,
  edits: PendingEdits,
  growth: { bytes: number; events: number },
  options: SaveOptions,
  agreedSize: number,
  agreedLive: boolean,
): Promise<SaveOutcome | Question> {
  const handle = access.handle;
  const open = handle.stat();
  const knownMtime = target.identity.mtimeMs;
  const change = await classifyChange(target.identity, {
    stat: { size: open.size, mtimeMs: open.mtimeMs },
    read: async (start, end) => readAt(handle, start, end),
  });
  switch (change.kind) {
    case 'unchanged':
      break;
    case 'appended': {
      // Another writer (the agent) appended: fold its bytes in as a follower would, then plan again.
      const appended = await readAtYielding(handle, change.from, change.to);
      const before = target.loaded.log.eventCount;
      extendLoadedFile(target.loaded, appended);
      target.identity = extendIdentity(target.identity, appended, open.mtimeMs);
      growth.bytes += appended.length;
      growth.events += target.loaded.log.eventCount - before;
      break;
    }
    default:
      return refuse('file', `${path} is not what was loaded: ${change.explanation}`);
  }
  const loaded = target.loaded;
  const end = unwritableEnd(path, loaded);
  if (end) return refuse('file', `${end}; nothing was written.`);
  const fork = await prepareFork(handle, target.identity.size, edits.count > 1);
  const plan = edits.plan({ log: loaded.log, fork });
  if (!plan.ok) {
    const which = edits.count === 1 ? 'the edit' : `edit ${plan.index + 1} of ${edits.count}`;
    const why =
      growth.events > 0
        ? `after ${growth.events} event(s) appended by another writer, ${which} no longer holds`
        : `${which} does not hold on ${path}`;
    return refuse('plan', `${why}; nothing was written`, plan.reasons);
  }
  const since = msSinceForeignChange(open, knownMtime, options.lastForeignChangeMs ?? knownMtime);
  const live = access.dshLock === 'none' && isLive(since) ? since : undefined;
  let replanned: ReplanInfo | undefined;
  if (growth.events > 0) {
    edits.rebase(loaded.log.eventCount);
    replanned = {
      foreignBytes: growth.bytes,
      foreignEvents: growth.events,
      lines: plan.lines,
      firstSeq: plan.firstSeq,
      ...(live !== undefined ? { msSinceChange: live } : {}),
    };
    if (target.identity.size !== agreedSize) return { replan: replanned };
  }
  if (live !== undefined && !agreedLive) return { msSinceChange: live };
  return writePlanned(files, handle, path, target, edits, plan.lines, plan.firstSeq, replanned);
}

/** Writes the planned lines and folds them in; says exactly what happened when the write went wrong. */
function writePlanned(
  files: LogFileSystem,
  handle: LogHandle,
  path: string,
  target: EditableLog,
  edits: PendingEdits,
  lines: string[],
  firstSeq: number,
  replanned: ReplanInfo | undefined,
): SaveOutcome {
  const loaded = target.loaded;
  const text = appendBytes(lines);
  const bytes = loaded.follow ? encodeAppendFrame(text).frame : text;
  const expected = { size: target.identity.size, tail: target.identity.tail, id: target.identity.id };
  let result;
  try {
    result = appendChecked(files, handle, path, expected, bytes);
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    return refuse('file', error.message, [], { replanned });
  }
  if (!result.ok) {
    if (result.stage !== 'write') return refuse('verify', result.message, [], { bytesWritten: result.written, replanned, stale: true });
    // Our own partial bytes: folded in, so the next save neither blames another writer for them nor
    // appends after a torn line of ours.
    const partial = bytes.subarray(0, result.written);
    if (partial.length > 0) {
      extendLoadedFile(loaded, partial);
      target.identity = extendIdentity(target.identity, partial, handle.stat().mtimeMs);
      edits.rebase(loaded.log.eventCount);
    }
    return refuse(
      'write',
      `${result.message}. The ${expected.size} bytes that were there are untouched. ${partialWriteEffect(loaded.follow !== undefined, text, result.written)}`,
      [],
      { bytesWritten: result.written, replanned },
    );
  }
  const folded = extendLoadedFile(loaded, bytes);
  target.identity = extendIdentity(target.identity, bytes, handle.stat().mtimeMs);
  edits.clearSaved(loaded.log.eventCount);
  const problems = folded.diagnostics.filter((d) => d.severity === 'error');
  if (folded.added !== lines.length || problems.length > 0) {
    return refuse(
      'verify',
      `the saved lines were written but did not read back as ${lines.length} valid events (${folded.added} read)`,
      problems,
      {
        bytesWritten: bytes.length,
        replanned,
      },
    );
  }
  return {
    ok: true,
    lines,
    firstSeq,
    bytesWritten: bytes.length,
    ...(replanned ? { replanned } : {}),
    ...(result.syncError ? { syncError: result.syncError } : {}),
  };
}

/**
 * Why nothing may be appended after the end of the loaded file, whatever the edit: a zstd log ending in
 * an incomplete frame (a frame after it would be unreadable). A dry run asks the same question.
 */
export function unwritableEnd(path: string, loaded: LoadedFile): string | undefined {
  const pending = loaded.follow?.pending.length ?? 0;
  if (pending === 0) return undefined;
  return (
    `${path} ends in an incomplete zstd frame (${pending} bytes): a writer is in the middle of a batch, or crashed in one. ` +
    'A frame appended after it would be unreadable (remove the torn tail first)'
  );
}

/**
 * A private copy of the log for planning edits that build on each other (read once, up front, only
 * when more than one edit is pending), so the loaded log is never appended to before the write.
 */
async function prepareFork(handle: LogHandle, size: number, needed: boolean): Promise<(() => SessionLog) | undefined> {
  if (!needed) return undefined;
  const bytes = await readAtYielding(handle, 0, size);
  return () => loadSessionFile(bytes).log;
}
