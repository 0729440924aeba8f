// `session-surface repair --dry-run | --apply [--force] | --remove-torn-tail FILE…`: review an open
// final turn and the closers dsh would append (each tied to its call), write them to the file, or
// remove a torn tail after backing the file up. Writes go through append-file.ts and torn-tail-file.ts.
import { readFileSync, statSync } from 'node:fs';
import type { CliIo } from './registry';
import { UsageError } from './registry';
import { parseCommandArgs } from './args';
import { FileReadError, readLogBytes } from './open-log';
import { LIMIT_OPTIONS, readLimits } from './limit-options';
import type { ReadLimits } from '../core/api';
import { loadSessionFile, type LoadedFile } from '../core/read/load-file';
import { reviewOpenTurn } from '../core/surface/crash-review';
import { reviewTornTail } from '../core/surface/torn-tail';
import { findRepairsMade } from '../core/surface/repairs-made';
import { openTurnActivity, STILL_AFTER_MS } from '../core/surface/liveness';
import { planCrashRepairWrite, bytesAfterWrite } from '../core/plan/crash-repair-write';
import { planTornTailRemoval } from '../core/plan/torn-tail-removal';
import { FileChangedError } from '../files/append-file';
import { BackupError, removeTornTailFromFile } from '../files/torn-tail-file';
import { saveEdits } from '../save/append-save';
import { editableFromBytes } from '../files/editable';
import { PendingEdits } from '../core/plan/pending-edits';
import { countOf, english, withoutWords } from './english';
import { jsonText } from '../core/value-text';
import {
  activityWords,
  bytesWords,
  closerCodeMeaning,
  closerLine,
  linesBeyondWords,
  pendingCallLine,
  repairMadeLine,
  tornTailHeading,
} from '../present/repair-words';

export const REPAIR_ACTIONS = ['--dry-run', '--apply', '--remove-torn-tail'] as const;

export function isRepairAction(args: readonly string[]): boolean {
  return args.some((a) => (REPAIR_ACTIONS as readonly string[]).includes(a));
}

interface Opened {
  file: string;
  bytes: Uint8Array;
  loaded: LoadedFile;
  mtimeMs: number;
  msSinceChange: number;
}

function open(file: string, limits: Partial<ReadLimits>): Opened {
  // A plain Uint8Array view: Buffer's slice shares memory where the planners expect a copy.
  const read = readLogBytes(file, limits);
  const bytes = new Uint8Array(read.buffer, read.byteOffset, read.length);
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch (error) {
    throw new FileReadError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return { file, bytes, loaded: loadSessionFile(bytes, { fileName: file, limits }), mtimeMs, msSinceChange: Date.now() - mtimeMs };
}

export async function runRepairAction(args: string[], io: CliIo): Promise<number> {
  const boolean = { type: 'boolean' } as const;
  const options = {
    ...Object.fromEntries(['--json', '--force', ...REPAIR_ACTIONS].map((flag) => [flag.slice(2), boolean])),
    ...LIMIT_OPTIONS,
  };
  const { values, flags, operands: files } = parseCommandArgs(args, options);
  const limits = readLimits(values);
  const actions = REPAIR_ACTIONS.filter((a) => flags.has(a));
  if (actions.length !== 1) throw new UsageError(`choose one of ${REPAIR_ACTIONS.join(', ')}`);
  if (flags.has('--force') && !flags.has('--apply')) throw new UsageError('--force goes with --apply');
  const json = flags.has('--json');
  let failed = false;
  for (const file of files) {
    const opened = open(file, limits);
    const ok =
      actions[0] === '--dry-run'
        ? dryRun(opened, json, io)
        : actions[0] === '--apply'
          ? await apply(opened, json, flags.has('--force'), io)
          : removeTornTail(opened, json, io);
    if (!ok) failed = true;
  }
  return failed ? 1 : 0;
}

/** The review as data: what --json prints and what the text is written from. */
function review(opened: Opened) {
  const { log, zstd } = opened.loaded;
  const openTurn = reviewOpenTurn(log);
  const tornTail = reviewTornTail(log, { fileBytes: opened.bytes, zstd });
  const write = planCrashRepairWrite(log, zstd);
  const repairs = findRepairsMade(log);
  const activity = openTurnActivity(opened.msSinceChange);
  return { openTurn, tornTail, write, repairs, activity };
}

function dryRun(opened: Opened, json: boolean, io: CliIo): boolean {
  const r = review(opened);
  const { log } = opened.loaded;
  if (json) {
    const write = r.write.ok ? { ok: true, lines: r.write.lines, bytes: r.write.bytes.length, container: r.write.container } : r.write;
    io.out(
      jsonText(
        withoutWords({
          file: opened.file,
          verdict: log.verdict,
          openTurn: r.openTurn && { ...r.openTurn, closers: r.openTurn.closers.map(({ event: _event, ...rest }) => rest) },
          activity: r.openTurn ? r.activity : undefined,
          msSinceChange: Math.round(opened.msSinceChange),
          tornTail: r.tornTail,
          write,
          repairsMade: r.repairs,
        }),
      ),
    );
    return r.write.ok;
  }
  io.out(
    `${opened.file}: ${log.verdict.ok ? `loads (${countOf(log.eventCount, 'event', 'events')})` : `REFUSED by dsh: ${log.verdict.error}`}`,
  );
  for (const repair of r.repairs) io.out(`  already repaired: ${repairMadeLine(repair, english)}`);
  if (r.openTurn) {
    const t = r.openTurn;
    io.out(
      `  turn ${t.turn ?? '?'} is open${t.turnStartSeq !== undefined ? ` (turn/start at seq ${t.turnStartSeq})` : ''}${t.openStep !== undefined ? `, step ${t.openStep} open` : ''}; last event seq ${t.lastSeq}`,
    );
    io.out(`  ${activityWords(r.activity, opened.msSinceChange, english)}`);
    if (t.pendingCalls.length === 0) io.out('  no tool call is pending');
    for (const call of t.pendingCalls) {
      io.out(`  pending: ${pendingCallLine(call, english)}`);
      io.out(`    ${call.code}: ${closerCodeMeaning(call.code, english)}`);
    }
  } else {
    io.out('  the last turn is closed: there is nothing to repair');
  }
  if (r.tornTail) {
    const tail = r.tornTail;
    io.out(`  ${tornTailHeading(tail, english)}`);
    io.out(`    why: ${tail.why}`);
    io.out(`    preview: ${tail.preview}${tail.previewTruncated ? ' …' : ''}`);
    for (const line of linesBeyondWords(tail, english)) io.out(`    ${line}`);
  }
  if (!r.write.ok) {
    for (const reason of r.write.reasons) io.out(`  cannot apply: ${reason.rule}: ${reason.message}`);
    if (r.write.reasons.some((reason) => reason.rule === 'repair.torn-tail-first'))
      io.out(`  to remove it: session-surface repair --remove-torn-tail ${opened.file}`);
    return false;
  }
  if (r.write.lines.length === 0) return true;
  io.out(
    `  --apply would append ${r.write.lines.length} closer${r.write.lines.length === 1 ? '' : 's'} (${bytesWords(r.write.bytes.length, english)}${r.write.container === 'zstd' ? ' as one new zstd frame' : ''}):`,
  );
  for (const closer of r.openTurn?.closers ?? []) io.out(`    ${closerLine(closer, r.openTurn!, english)}`);
  io.out('  lines:');
  for (const line of r.write.lines) io.out(line);
  return true;
}

async function apply(opened: Opened, json: boolean, force: boolean, io: CliIo): Promise<boolean> {
  const r = review(opened);
  const report = (result: Record<string, unknown>, text: string[]) => {
    if (json) io.out(jsonText(withoutWords({ file: opened.file, ...result })));
    else for (const line of text) io.out(line);
  };
  if (!r.write.ok) {
    report({ applied: false, reasons: r.write.reasons }, [
      `${opened.file}: not repaired`,
      ...r.write.reasons.map((reason) => `  ${reason.rule}: ${reason.message}`),
    ]);
    return false;
  }
  if (r.write.lines.length === 0) {
    report({ applied: false, closers: 0 }, [`${opened.file}: the last turn is closed; nothing appended`]);
    return true;
  }
  if (r.activity === 'growing' && !force) {
    const why = `${activityWords(r.activity, opened.msSinceChange, english)}; wait until it is still for ${STILL_AFTER_MS / 1000} s, or pass --force`;
    report({ applied: false, reasons: [{ rule: 'repair.live', message: why }] }, [`${opened.file}: not repaired`, `  repair.live: ${why}`]);
    return false;
  }
  // The safe save path: the file must still hold what was read (a file that grew is refused here:
  // nobody was asked about closers planned on a tail they have not seen), append mode, fsync.
  const edits = new PendingEdits(opened.loaded.log.eventCount);
  edits.push({ kind: 'repair' });
  const saved = await saveEdits(opened.file, editableFromBytes(opened.loaded, opened.bytes, opened.mtimeMs), edits);
  if (!saved.ok) {
    const reasons = [{ rule: `repair.save-${saved.stage}`, message: saved.message }, ...saved.reasons];
    report({ applied: false, reasons }, [
      `${opened.file}: not repaired`,
      ...reasons.map((reason) => `  ${reason.rule}: ${reason.message}`),
    ]);
    return false;
  }
  // Read back: the file must be the predicted bytes, and dsh must load it with the turn closed.
  const after = new Uint8Array(readFileSync(opened.file));
  const predicted = bytesAfterWrite(opened.bytes, r.write);
  const same = after.length === predicted.length && after.every((b, i) => b === predicted[i]);
  const reloaded = loadSessionFile(after).log;
  const good = same && reloaded.verdict.ok && !reloaded.lastTurnOpen;
  report(
    {
      applied: true,
      closers: r.write.lines.length,
      bytes: r.write.bytes.length,
      container: r.write.container,
      matchesPrediction: same,
      verdict: reloaded.verdict,
      lastTurnOpen: reloaded.lastTurnOpen,
    },
    [
      `${opened.file}: appended ${r.write.lines.length} closer${r.write.lines.length === 1 ? '' : 's'} (${bytesWords(r.write.bytes.length, english)}${r.write.container === 'zstd' ? ', one zstd frame' : ''})`,
      ...(r.openTurn?.closers ?? []).map((c) => `  ${closerLine(c, r.openTurn!, english)}`),
      good
        ? '  the file now loads with the last turn closed'
        : `  CHECK FAILED after writing: ${same ? '' : 'the file differs from the prediction; '}${reloaded.verdict.ok ? (reloaded.lastTurnOpen ? 'the last turn is still open' : '') : reloaded.verdict.error}`,
    ],
  );
  return good;
}

function removeTornTail(opened: Opened, json: boolean, io: CliIo): boolean {
  const { log, zstd } = opened.loaded;
  const plan = planTornTailRemoval(log, opened.bytes, zstd);
  const tail = reviewTornTail(log, { fileBytes: opened.bytes, zstd });
  if (!plan.ok) {
    if (json) io.out(JSON.stringify({ file: opened.file, removed: false, reasons: withoutWords(plan.reasons) }));
    else
      for (const line of [`${opened.file}: nothing removed`, ...plan.reasons.map((reason) => `  ${reason.rule}: ${reason.message}`)])
        io.out(line);
    return plan.reasons.every((reason) => reason.rule === 'repair.no-torn-tail');
  }
  let done;
  try {
    done = removeTornTailFromFile(opened.file, opened.bytes, plan);
  } catch (error) {
    if (!(error instanceof FileChangedError) && !(error instanceof BackupError)) throw error;
    if (json)
      io.out(JSON.stringify({ file: opened.file, removed: false, reasons: [{ rule: 'repair.file-changed', message: error.message }] }));
    else io.out(`${opened.file}: nothing removed: ${error.message}`);
    return false;
  }
  if (json) {
    io.out(
      JSON.stringify({
        file: opened.file,
        removed: true,
        backup: done.backupPath,
        backupVerified: true,
        cutAt: plan.cutAt,
        removedBytes: plan.removedBytes,
        rewrittenTextBytes: plan.rewrittenTextBytes,
        size: done.size,
      }),
    );
  } else {
    io.out(`${opened.file}: removed ${tail ? tornTailHeading(tail, english).toLowerCase() : 'the torn tail'}`);
    io.out(`  backup: ${done.backupPath} (its bytes equal the original file, ${opened.bytes.length} bytes)`);
    io.out(
      `  the file was cut from ${opened.bytes.length} to ${plan.cutAt} bytes${plan.reappend.length ? `, then the ${bytesWords(plan.rewrittenTextBytes, english)} of complete lines of the cut frame were appended again as one frame (${done.size} bytes now)` : ''}`,
    );
  }
  return true;
}
