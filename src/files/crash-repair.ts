// The crash repair as one use case, for the CLI's `repair --apply` and the editor's "Apply Crash Repair"
// alike: review the open turn and plan its closers, ask (`confirm`), append them through the save path
// (dsh's lock, the checked append, planned again after a writer's appends when `confirmReplan` agrees),
// then read the file back and load it again: the verdict says whether dsh now loads it with the turn
// closed. Reading goes through the file adapter, so the extension host never blocks on it.
import {
  loadSessionFile,
  openTurnActivity,
  PendingEdits,
  type CrashRepairWrite,
  type Diagnostic,
  type LoadedFile,
  type OpenTurnActivity,
  type OpenTurnReview,
  type ReadLimits,
  type Verdict,
} from '../core';
import { planCrashRepairWrite, reviewOpenTurn } from '../core/internal';
import { saveEdits, type ReplanInfo, type SaveOptions, type SaveStage } from './append-save';
import { sameBytes, type FileAccess } from './file-access';
import { identityOf } from './file-identity';
import { nodeFiles } from './node-files';

/** A log as a command read it: its bytes, the core's view and the file's mtime and inode then. */
export interface ReadLog {
  path: string;
  bytes: Uint8Array;
  loaded: LoadedFile;
  mtimeMs: number;
  id?: string;
}

/** Reads and loads a log through the file adapter. */
export async function readLog(path: string, files: FileAccess = nodeFiles, limits?: Partial<ReadLimits>): Promise<ReadLog> {
  const { bytes, stat } = await files.readWhole(path);
  return { path, bytes, loaded: loadSessionFile(bytes, { fileName: path, limits }), mtimeMs: stat.mtimeMs, id: stat.id };
}

export interface CrashRepairReview {
  review: OpenTurnReview;
  write: CrashRepairWrite;
  activity: OpenTurnActivity;
  msSinceChange: number;
}

export type CrashRepairResult =
  | { kind: 'refused'; reasons: Diagnostic[] }
  | { kind: 'closed' }
  | { kind: 'declined' }
  | { kind: 'not-saved'; stage: SaveStage; message: string; reasons: Diagnostic[] }
  | {
      kind: 'appended';
      review: OpenTurnReview;
      closers: number;
      bytes: number;
      container: 'plain' | 'zstd';
      replanned?: ReplanInfo;
      /** The file is the bytes read plus exactly the closers (after a replan: plus the writer's bytes, then the closers). */
      matchesPrediction: boolean;
      verdict: Verdict;
      lastTurnOpen: boolean;
      /** dsh loads the file, the turn is closed, and the file is as predicted. */
      good: boolean;
      syncError?: string;
    };

export interface CrashRepairOptions extends Omit<SaveOptions, 'foldedSinceReview'> {
  /** Asked with the review before anything is written; false cancels. */
  confirm: (review: CrashRepairReview) => boolean | Promise<boolean>;
  /** Where the file is read back from (default: local files). */
  reader?: FileAccess;
}

/** Plans, confirms, appends and checks the crash repair of `log`. */
export async function applyCrashRepair(log: ReadLog, options: CrashRepairOptions): Promise<CrashRepairResult> {
  const { log: session, zstd } = log.loaded;
  const review = reviewOpenTurn(session);
  const write = planCrashRepairWrite(session, zstd);
  if (!write.ok) return { kind: 'refused', reasons: write.reasons };
  if (!review || write.lines.length === 0) return { kind: 'closed' };
  const msSinceChange = Date.now() - log.mtimeMs;
  if (!(await options.confirm({ review, write, activity: openTurnActivity(msSinceChange), msSinceChange }))) return { kind: 'declined' };

  const edits = new PendingEdits(session.eventCount);
  edits.push({ kind: 'repair' });
  const target = { loaded: log.loaded, identity: identityOf(log.bytes, log.mtimeMs, log.id) };
  const { confirm: _confirm, reader, ...save } = options;
  const saved = await saveEdits(log.path, target, edits, save);
  if (!saved.ok) return { kind: 'not-saved', stage: saved.stage, message: saved.message, reasons: saved.reasons };

  // Read back: the original bytes (and a writer's, after a replan), then ours; dsh must load it with the turn closed.
  const after = (await (reader ?? nodeFiles).readWhole(log.path)).bytes;
  const before = saved.replanned ? log.bytes.length + saved.replanned.foreignBytes : log.bytes.length;
  const reloaded = loadSessionFile(after, { fileName: log.path }).log;
  const lastLines = Array.from({ length: saved.lines.length }, (_, k) => reloaded.lineText(reloaded.eventCount - saved.lines.length + k));
  const matchesPrediction =
    after.length === before + saved.bytesWritten &&
    sameBytes(after.subarray(0, log.bytes.length), log.bytes) &&
    lastLines.every((line, k) => line === saved.lines[k]);
  return {
    kind: 'appended',
    review,
    closers: saved.lines.length,
    bytes: saved.bytesWritten,
    container: zstd ? 'zstd' : 'plain',
    ...(saved.replanned ? { replanned: saved.replanned } : {}),
    matchesPrediction,
    verdict: reloaded.verdict,
    lastTurnOpen: reloaded.lastTurnOpen,
    good: matchesPrediction && reloaded.verdict.ok && !reloaded.lastTurnOpen,
    ...(saved.syncError ? { syncError: saved.syncError } : {}),
  };
}
