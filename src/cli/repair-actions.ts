// `session-surface repair --dry-run | --apply | --remove-torn-tail | --close-compaction [--force] FILE…`:
// review an open final turn and the closers dsh would append (each tied to its call); the writes
// themselves are in repair-writes.ts, through the write layer (src/files).
import { existsSync } from 'node:fs';
import type { CliIo } from './registry';
import { UsageError } from './registry';
import { parseCommandArgs } from './args';
import { LIMIT_OPTIONS, readLimits } from './limit-options';
import { type ReadLimits, findRepairsMade, openTurnActivity, STILL_AFTER_MS, bytesAfterWrite, openCompactionStart } from '../core';
import { reviewOpenTurn, reviewTornTail, planCrashRepairWrite, jsonText } from '../core/internal';
import { open, type Opened } from './repair-open';
import { journalPathFor } from '../files/torn-tail-journal';
import { countOf, english, withoutWords } from './english';
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
import { applyRepair, closeCompaction, removeTornTail } from './repair-writes';

export const REPAIR_ACTIONS = ['--dry-run', '--apply', '--remove-torn-tail', '--close-compaction'] as const;

export function isRepairAction(args: readonly string[]): boolean {
  return args.some((a) => (REPAIR_ACTIONS as readonly string[]).includes(a));
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
  if (flags.has('--force') && flags.has('--dry-run')) throw new UsageError('--force goes with an action that writes, not with --dry-run');
  const json = flags.has('--json');
  const force = flags.has('--force');
  let failed = false;
  for (const file of files) {
    const opened = open(file, limits);
    const ok =
      actions[0] === '--dry-run'
        ? dryRun(opened, json, io)
        : actions[0] === '--apply'
          ? await applyRepair(opened, json, force, io)
          : actions[0] === '--close-compaction'
            ? await closeCompaction(opened, json, force, io)
            : await removeTornTail(opened, json, force, io);
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
  const open = openCompactionStart(log);
  if (open !== undefined)
    io.out(
      `  compaction/start at seq ${open} has no compaction/end: compactions are refused until it is closed (session-surface repair --close-compaction ${opened.file})`,
    );
  if (existsSync(journalPathFor(opened.file)))
    io.out(`  a removal of the torn tail was interrupted: session-surface repair --remove-torn-tail ${opened.file} completes it`);
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
