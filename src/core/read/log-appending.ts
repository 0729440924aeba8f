// Whether a batch of events may be appended to a loaded log, checked as dsh's append would check it.
// Every generation goes through the append gate (the shared envelope, lossless values, the surface
// rules, each event against the state the previous ones leave). A later generation's rules also reach
// across the whole log (relationships, the restore of the artifact), so its batch is then written in the
// generation's own syntax onto a fork of the log and dsh's format layer reads the result. Nothing here
// changes the log: SessionLog.append commits a batch only when this finds no problem.
import type { Diagnostic, SessionEvent, Verdict } from '../types';
import { planAppend } from '../plan/append-gate';
import { say } from '../words';
import type { LogParts } from './log-parts';
import type { LogWriting } from './log-writing';

/** The append gate's problems with a batch of plain events; `verdictOf` gives the log's verdict when the gate asks. */
export function appendGateProblems(parts: LogParts, events: SessionEvent[], verdictOf: () => Verdict): Diagnostic[] {
  return planAppend(
    {
      get verdict() {
        return verdictOf();
      },
      get eventCount() {
        return parts.index.count;
      },
      get tornBytes() {
        return parts.scanner.bytes.length - parts.scanner.committed;
      },
      fold: parts.state.fold,
      v0Shapes: parts.generation === undefined,
      event: parts.lookup,
    },
    events,
  );
}

/**
 * A later generation's verdict on the log with the batch appended: none when dsh would open it.
 * `verdictWithAppended` reads a fork of the log with the given bytes appended (the log is not changed).
 */
export function formatAppendProblems(
  events: SessionEvent[],
  writing: LogWriting,
  verdictWithAppended: (bytes: Uint8Array) => Verdict,
): Diagnostic[] {
  let lines: string[];
  try {
    lines = events.map((e) => writing.line(e));
  } catch (error) {
    return [{ severity: 'error', rule: 'json.lossless-values', message: (error as Error).message }];
  }
  const verdict = verdictWithAppended(new TextEncoder().encode(lines.map((l) => l + '\n').join('')));
  if (verdict.ok) return [];
  return [
    {
      severity: 'error',
      rule: verdict.rule ?? 'format.restore',
      ...say('with these events appended, dsh would refuse the log ({0}): {1}', verdict.stage, verdict.dshError ?? 'refused'),
    },
  ];
}
