// The crash repair as a pending edit: the closers of the open final turn, planned on the log as it is
// when the edit is planned (again) — so a repair made while an agent still wrote plans its closers
// after whatever the agent appended, and is refused when the agent closed the turn itself.
import type { SessionLog } from '../read/session-log';
import { planRepair } from './repair';
import type { PlanResult } from './types';
import { say } from '../words';

export function planCrashRepair(log: SessionLog): PlanResult {
  const plan = planRepair(log);
  if (!plan.ok) return plan;
  if (plan.truncateAt !== undefined) {
    return {
      ok: false,
      reasons: [
        {
          severity: 'error',
          rule: 'repair.torn-tail-first',
          ...say(
            'the file has {0} bytes after its last complete line; closers appended after them would join them. Remove the torn tail first (it is backed up), then repair',
            log.scan.fileBytes - plan.truncateAt,
          ),
        },
      ],
    };
  }
  if (plan.events.length === 0)
    return {
      ok: false,
      reasons: [{ severity: 'error', rule: 'repair.nothing', ...say('the last turn is closed: there is nothing to repair') }],
    };
  return { ok: true, events: plan.events, lines: plan.lines, notes: plan.notes };
}
