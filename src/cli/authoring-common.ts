// What `compact` and `prune` share: reading a seq option, planning one edit on the log as it is, and
// either printing the exact lines (dry run: refused for everything the real run refuses) or appending
// them through the write layer's save, then reading the file back as `check` would.
import { loadSessionFile, PendingEdits, type Diagnostic, type PendingEdit, type SessionLog, type ReadLimits } from '../core';
import { saveEdits, unwritableEnd } from '../files/append-save';
import { loadForEdit } from '../files/load-for-edit';
import { nodeFiles } from '../files/node-files';
import { FileReadError } from './open-log';
import type { CliIo } from './registry';
import { UsageError } from './registry';
import { countOf, seqSpan } from './english';

/** A string option's value (parseArgs gives strings for string options; anything else is absent). */
export function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A seq option: a non-negative integer written in decimal. */
export function seqOption(name: string, given: string | boolean | undefined): number {
  const value = stringOption(given);
  if (value === undefined) throw new UsageError(`--${name} SEQ is required`);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`--${name} must be a seq (a non-negative integer), not ${JSON.stringify(value)}`);
  return Number(value);
}

/** An optional epoch-ms option (defaults to now). */
export function timeOption(given: string | boolean | undefined): number {
  const value = stringOption(given);
  if (value === undefined) return Date.now();
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`--time must be epoch milliseconds, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** Exactly one FILE positional (parseCommandArgs has already refused none). */
export function oneFile(positionals: string[]): string {
  if (positionals.length > 1) throw new UsageError(`one FILE only (got ${positionals.length})`);
  return positionals[0];
}

function printReasons(io: CliIo, file: string, reasons: readonly Diagnostic[]): void {
  for (const r of reasons) io.err(`${file}:${r.line ?? 0}: ${r.rule}: ${r.message}`);
  if (reasons.some((r) => r.rule === 'compaction.in-progress'))
    io.err(`${file}: a compaction a crash cut short is closed by: session-surface repair --close-compaction ${file}`);
}

export interface EditRun {
  file: string;
  limits: Partial<ReadLimits>;
  dryRun: boolean;
  allowReplan: boolean;
  /** Write even though the file changed in the last minute and no dsh lock covers it (or none can be taken here). */
  force: boolean;
  /** Builds the edit on the loaded log (may throw UsageError for options the log makes meaningless). */
  edit(log: SessionLog): PendingEdit;
  /** "compaction" / "prune", for the messages. */
  what: string;
}

/** Plans (and unless dry-running, appends) one edit. Exit 0 when it holds, 1 when refused. */
export async function runEdit(run: EditRun, io: CliIo): Promise<number> {
  const { file } = run;
  let target;
  try {
    target = await loadForEdit(file, { limits: run.limits });
  } catch (error) {
    throw new FileReadError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const log = target.loaded.log;
  const edits = new PendingEdits(log.eventCount);
  edits.push(run.edit(log));
  if (run.dryRun) {
    const end = unwritableEnd(file, target.loaded);
    if (end) {
      io.err(`${file}: ${run.what} refused: ${end}; dry run, nothing written`);
      return 1;
    }
    const plan = edits.plan({ log });
    if (!plan.ok) {
      printReasons(io, file, plan.reasons);
      io.err(
        `${file}: ${run.what} refused (${plan.reasons.length} reason${plan.reasons.length === 1 ? '' : 's'}); dry run, nothing written`,
      );
      return 1;
    }
    for (const line of plan.lines) io.out(line);
    for (const note of plan.steps.flatMap((s) => s.plan.notes)) io.err(`${file}: note: ${note.rule}: ${note.message}`);
    io.err(
      `${file}: ${run.what} holds: ${countOf(plan.lines.length, 'line', 'lines')}, ${seqSpan(plan.firstSeq, plan.lines.length)}; dry run, nothing written`,
    );
    return 0;
  }
  const outcome = await saveEdits(file, target, edits, {
    confirmReplan: (info) => {
      io.err(
        `${file}: another writer appended ${countOf(info.foreignEvents, 'event', 'events')} (${info.foreignBytes} bytes) since it was read; the ${run.what} was planned again as ${seqSpan(info.firstSeq, info.lines.length)}`,
      );
      // A writer that appended moments ago with no dsh lock on the log may still be writing: --force too.
      return run.allowReplan && (info.msSinceChange === undefined || run.force);
    },
    allowLive: () => run.force,
    allowUnlocked: () => run.force,
  });
  if (!outcome.ok) {
    printReasons(io, file, outcome.reasons);
    const hint =
      outcome.stage === 'declined'
        ? outcome.replanned?.msSinceChange !== undefined
          ? ' (pass --allow-replan and --force to write it after the new events)'
          : ' (pass --allow-replan to write it after the new events)'
        : '';
    io.err(`${file}: ${run.what} not saved: ${outcome.message}${hint}`);
    return 1;
  }
  for (const line of outcome.lines) io.out(line);
  if (outcome.syncError)
    io.err(`${file}: warning: fsync failed (${outcome.syncError}): the lines are in the file but may not survive a crash or power loss`);
  // Read the whole file back as `check` does: the save must leave a log dsh loads.
  const { bytes } = await nodeFiles.readWhole(file);
  const reread = loadSessionFile(bytes, { fileName: file, limits: run.limits }).log;
  if (!reread.verdict.ok) {
    io.err(`${file}: appended ${countOf(outcome.lines.length, 'line', 'lines')}, but the file no longer loads: ${reread.verdict.error}`);
    return 1;
  }
  io.err(
    `${file}: appended ${countOf(outcome.lines.length, 'line', 'lines')} (${seqSpan(outcome.firstSeq, outcome.lines.length)}, ${outcome.bytesWritten} bytes); the log loads (${countOf(reread.eventCount, 'event', 'events')})`,
  );
  return 0;
}
