// Closing a compaction that a crash cut short. A compaction/start with no compaction/end is dsh's
// durable compaction lock (spec §6.2 step 3): every later compaction is refused ("compaction already in
// progress") until a compaction/end (or a session/end-seed) follows it. dsh's compactor itself closes an
// attempt that fails after its start with one `compaction/end` carrying `error` (no summary, no
// replacement) — but only within the run that opened it; a start left by a killed writer stays open.
// This plans the same close for it: `compaction/end {compactionId, sourceCommandId?, turn, error}`, the
// bracket's own id, command and owner turn in dsh's key order. When the summary and the replacement
// were both written before the crash, the compaction took effect, and the end closes it as a success.
import type { SessionEvent } from '../types';
import type { SessionLog } from '../read/session-log';
import type { PlanResult } from './types';
import { appendProblems, lastTime, openCompactionStart, reason } from './checks';
import { say } from '../words';

/** The `error` of the closing end: why the attempt ended without completing. */
export const INTERRUPTED_COMPACTION_ERROR = 'compaction interrupted: the writer stopped before compaction/end was written';

/** Whether the bracket opened at `start` already has its summary and its replacement user/message. */
function tookEffect(log: SessionLog, start: number, compactionId: unknown): boolean {
  let summary = false;
  for (let seq = start + 1; seq < log.eventCount; seq++) {
    const event = log.event(seq);
    const data = event?.data as Record<string, unknown> | undefined;
    if (event?.type === 'compaction/summary' && data?.compactionId === compactionId) summary = true;
    const source = data?.source as Record<string, unknown> | undefined;
    if (summary && event?.type === 'user/message' && source?.compactionId === compactionId && event.surfaceOp) return true;
  }
  return false;
}

export function planCloseCompaction(log: SessionLog, time: number = lastTime(log)): PlanResult {
  const start = openCompactionStart(log);
  if (start === undefined)
    return {
      ok: false,
      reasons: [reason('compaction.none-open', say('no compaction is in progress: every compaction/start has its compaction/end'))],
    };
  const opened = (log.event(start)?.data ?? {}) as Record<string, unknown>;
  const lifecycle: Record<string, unknown> = { compactionId: opened.compactionId };
  if (opened.sourceCommandId !== undefined) lifecycle.sourceCommandId = opened.sourceCommandId;
  lifecycle.turn = opened.turn ?? null;
  const succeeded = tookEffect(log, start, opened.compactionId);
  const data = succeeded ? lifecycle : { ...lifecycle, error: INTERRUPTED_COMPACTION_ERROR };
  const end: SessionEvent = { type: 'compaction/end', seq: log.eventCount, time, data };
  const reasons = appendProblems(log, [end], []);
  if (reasons.length > 0) return { ok: false, reasons };
  return {
    ok: true,
    events: [end],
    lines: [log.writing.line(end)],
    notes: [
      {
        severity: 'info',
        rule: 'compaction.close',
        ...(succeeded
          ? say('compaction/start at seq {0} has its summary and replacement: the end closes it as completed', start)
          : say('compaction/start at seq {0} never completed: the end closes it as failed, as dsh closes a failed attempt', start)),
      },
    ],
  };
}
