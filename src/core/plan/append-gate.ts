// The append gate: checks a batch as dsh's append would (contiguous seqs, lossless JSON, envelope,
// message shapes, surface rules), each event against the state the previous ones leave, without
// mutating the log. Committing is the log's own business (it folds the serialized lines like bytes a
// writer appended), so a batch is accepted by exactly the rules that read it back.
import type { Diagnostic, SessionEvent, Verdict } from '../types';
import type { NewEvent, WidenedEvent } from './append-types';
import { isLosslessJson } from '../read/lossless';
import { checkSeedEnvelope } from '../read/event-shape';
import { knownTypeId } from '../read/known-types';
import { SurfaceError, type SurfaceFold } from '../surface/surface';
import { say, type Said } from '../words';
import { verdictError } from '../read/verdict';

/** What the gate reads of the loaded log. */
export interface AppendTarget {
  readonly verdict: Verdict;
  readonly eventCount: number;
  /** Bytes after the last complete line (an append would join them). */
  readonly tornBytes: number;
  readonly fold: SurfaceFold;
  /**
   * True for a v0 log: each event meets dsh 0.1.1's envelope and message-shape checks. A later
   * generation's events meet the envelope checks every generation shares; their message shapes are
   * checked by its own format layer (the log reads the batch back on a fork).
   */
  readonly v0Shapes: boolean;
  event(seq: number): SessionEvent | undefined;
}

/** The problems of a batch; an empty list means it may be appended. */
export function planAppend(target: AppendTarget, events: readonly (NewEvent | WidenedEvent)[]): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const verdict = target.verdict;
  if (!verdict.ok) {
    return [
      {
        severity: 'error',
        rule: 'append.refused-log',
        ...say('dsh refuses this log ({0}); nothing can be appended to it', verdictError(verdict) ?? String(verdict.error)),
      },
    ];
  }
  if (target.tornBytes > 0) {
    return [
      {
        severity: 'error',
        rule: 'jsonl.torn-tail',
        ...say('the file has {0} bytes after its last complete line; an append would join them', target.tornBytes),
      },
    ];
  }
  const count = target.eventCount;
  const fold = events.length > 1 ? target.fold.clone() : target.fold;
  const pending: SessionEvent[] = [];
  const lookup = (seq: number) => (seq < count ? target.event(seq) : pending[seq - count]);
  for (const candidate of events) {
    const event = candidate as unknown as SessionEvent;
    const index = count + pending.length;
    const fail = (rule: string, message: string | Said) =>
      problems.push({
        severity: 'error',
        rule,
        ...say('appended event {0} (seq {1}): {2}', pending.length + 1, index, message),
        seq: index,
      });
    if (!isLosslessJson(event)) fail('json.lossless-values', say('is not losslessly JSON-serializable (-0 or a non-finite number)'));
    // A later generation's message shapes are its own: its format layer checks them on a fork.
    const envelope = checkSeedEnvelope(event as unknown as Record<string, unknown>, index, !target.v0Shapes);
    if (envelope) fail(envelope.rule, envelope.message);
    else if (event.type === 'request/header' && (event.data as { reason?: unknown })?.reason === 'fallback')
      fail('legacy.refused', say('request/header reason "fallback" is retired'));
    else if (event.type === 'request/header-delta' || event.type === 'mode/set')
      fail('legacy.refused', say('{0} is a retired event type', event.type));
    else if (knownTypeId(event.type) < 0 && event.ignorable !== true)
      // Read back, such a line makes dsh refuse the whole log as written by a newer harness.
      fail('vocabulary.unknown-types', say('event type {0} is unknown to dsh and not marked ignorable', JSON.stringify(event.type)));
    else {
      try {
        const plan = fold.plan(event, index, lookup);
        if (fold !== target.fold) fold.apply(plan);
      } catch (error) {
        fail(error instanceof SurfaceError ? error.rule : 'surface.marker-shape', (error as Error).message);
      }
    }
    pending.push(event);
    if (problems.length > 0) break;
  }
  return problems;
}
