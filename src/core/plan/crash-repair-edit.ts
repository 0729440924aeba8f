// The crash repair as a pending edit: the closers of the open final turn, planned on the log as it is
// when the edit is planned (again) — so a repair made while an agent still wrote plans its closers
// after whatever the agent appended, and is refused when the agent closed the turn itself.
import type { SessionLog } from '../read/session-log';
import { planRepair } from './repair';
import { tornTailFirst } from './crash-repair-write';
import type { PlanResult } from './types';
import { say } from '../words';

export function planCrashRepair(log: SessionLog): PlanResult {
  const plan = planRepair(log);
  if (!plan.ok) return plan;
  // Closers after a torn tail or damage would join it: the tail is removed first, with its backup.
  const torn = tornTailFirst(log, undefined);
  if (torn) return { ok: false, reasons: [torn] };
  if (plan.events.length === 0)
    return {
      ok: false,
      reasons: [{ severity: 'error', rule: 'repair.nothing', ...say('the last turn is closed: there is nothing to repair') }],
    };
  return { ok: true, events: plan.events, lines: plan.lines, notes: plan.notes };
}
