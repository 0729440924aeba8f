// Plans the crash repair dsh performs on a writable open (spec §1.6, §5): cut the file back to its
// last committed line when bytes follow it, then append the closers of the open final turn, written
// in the closer key order (surfaceOp before sourceEventSeqs).
import type { Diagnostic, SessionEvent } from '../types';
import type { SessionLog } from '../read/session-log';
import { serializeCloser } from './serialize';
import type { RepairPlan } from './types';
import { appendProblems, reason } from './checks';

export function planRepair(log: SessionLog): RepairPlan {
  const verdict = log.verdict;
  // The core applies the closers when it reaches its verdict, so an ok verdict means they validate.
  if (!verdict.ok) return { ok: false, reasons: [reason('append.refused-log', `dsh refuses this log (${verdict.error}); it does not repair a log it cannot open`)] };
  // A copy: log.closers hands out the core's cached events, and a plan is the caller's to keep or edit.
  const events: SessionEvent[] = JSON.parse(JSON.stringify(log.closers));
  const scan = log.scan;
  const notes: Diagnostic[] = [];
  const truncateAt = scan.committedBytes < scan.fileBytes ? scan.committedBytes : undefined;
  if (truncateAt !== undefined) {
    notes.push({ severity: 'info', rule: 'repair.truncate', message: `dsh first truncates the file to byte ${truncateAt}, dropping ${scan.fileBytes - truncateAt} bytes after the last committed line` });
  } else if (events.length > 0) {
    // planAppend refuses any batch while uncommitted bytes remain, so it can only check the closers here.
    const problems = appendProblems(log, events, []);
    if (problems.length > 0) return { ok: false, reasons: problems };
  }
  if (events.length === 0) notes.push({ severity: 'info', rule: 'repair.nothing', message: 'the last turn is closed: dsh appends no closers' });
  const plan = { ok: true as const, events, lines: events.map(serializeCloser), notes };
  return truncateAt === undefined ? plan : { ...plan, truncateAt };
}
