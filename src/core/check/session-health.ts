// Session health: the facts a user checks first about a log, each with its place so a view can jump
// there — an open turn and its pending calls, a torn tail or damage, event types unknown to dsh,
// legacy shapes upgraded on read, relational-invariant warnings, and repairs dsh already wrote.
import type { Severity } from '../types';
import { say, type Words } from '../words';
import { verdictError } from '../read/verdict';
import type { SessionLog } from '../read/session-log';
import { checkInvariants } from './invariants';
import { reviewOpenTurn, type OpenTurnReview } from '../surface/crash-review';
import { reviewTornTail, type LoadedBytes, type TornTail } from '../surface/torn-tail';
import { findRepairsMade, type RepairMade } from '../surface/repairs-made';
import { stringText } from '../value-text';

export type HealthKind =
  'refused' | 'open-turn' | 'pending-call' | 'torn-tail' | 'damaged-line' | 'unknown-type' | 'legacy-upgrade' | 'invariant' | 'repair-made';

export interface HealthEntry {
  kind: HealthKind;
  severity: Severity;
  message: string;
  /** `message` as a template and its arguments, for a display in another language (see words.ts). */
  words?: Words;
  /** Where to jump: an event seq (a closer's seq may be past the last event), a file line, a byte offset. */
  seq?: number;
  line?: number;
  offset?: number;
  rule?: string;
}

export interface SessionHealth {
  entries: HealthEntry[];
  openTurn?: OpenTurnReview;
  tornTail?: TornTail;
  repairs: RepairMade[];
  /** Entries of a kind beyond `maxPerKind`, left out of `entries`. */
  omitted: Partial<Record<HealthKind, number>>;
}

export interface HealthOptions {
  /** At most this many entries per kind (default 200): a health summary, not a second diagnostics list. */
  maxPerKind?: number;
}

export function sessionHealth(log: SessionLog, source: LoadedBytes, options: HealthOptions = {}): SessionHealth {
  const max = options.maxPerKind ?? 200;
  const entries: HealthEntry[] = [];
  const omitted: Partial<Record<HealthKind, number>> = {};
  const perKind = new Map<HealthKind, number>();
  const add = (entry: HealthEntry): void => {
    const sameKind = perKind.get(entry.kind) ?? 0;
    perKind.set(entry.kind, sameKind + 1);
    if (sameKind >= max) omitted[entry.kind] = (omitted[entry.kind] ?? 0) + 1;
    else entries.push(entry);
  };
  const placeOf = (seq: number) => {
    const place = log.place(seq);
    return place ? { seq, line: place.line, offset: place.offset } : { seq };
  };

  const verdict = log.verdict;
  if (!verdict.ok)
    add({
      kind: 'refused',
      severity: 'error',
      ...(verdictError(verdict) ?? say('dsh refuses this log')),
      rule: verdict.rule,
      ...(verdict.line !== undefined ? { line: verdict.line } : {}),
      ...(verdict.seq !== undefined ? { seq: verdict.seq } : {}),
    });

  const openTurn = reviewOpenTurn(log);
  if (openTurn) {
    const at = openTurn.turnStartSeq !== undefined ? placeOf(openTurn.turnStartSeq) : {};
    add({
      kind: 'open-turn',
      severity: 'warning',
      rule: 'repair.open-turn',
      ...say(
        'turn {0} is open: {1} tool call(s) pending, {2} closer(s) would close it',
        openTurn.turn ?? '?',
        openTurn.pendingCalls.length,
        openTurn.closers.length,
      ),
      ...at,
    });
    for (const call of openTurn.pendingCalls) {
      const seq = call.callSeq ?? call.messageSeq;
      add({
        kind: 'pending-call',
        severity: 'warning',
        rule: `repair.${call.code}`,
        ...((call.toolName ?? null) !== null
          ? say('{0} call {1} has no result ({2})', stringText(call.toolName), call.callId, call.code)
          : say('tool call {0} has no result ({1})', call.callId, call.code)),
        ...(seq !== undefined ? placeOf(seq) : {}),
      });
    }
  }

  const tornTail = reviewTornTail(log, source);
  if (tornTail) {
    add({
      kind: tornTail.kind === 'damaged-line' ? 'damaged-line' : 'torn-tail',
      severity: tornTail.refusesLog ? 'error' : 'warning',
      rule: tornTail.damage?.rule ?? 'jsonl.torn-tail',
      ...say(
        '{0} bytes are not part of the session: {1}',
        tornTail.droppedBytes,
        tornTail.whyWords ? { message: tornTail.why, words: tornTail.whyWords } : tornTail.why,
      ),
      line: tornTail.line,
      offset: tornTail.keptTextBytes,
    });
  }

  const unknown = new Map<string, { first: number; count: number }>();
  for (let seq = 0; seq < log.eventCount; seq++) {
    const type = log.eventType(seq) ?? '';
    if (log.knowsType(type)) continue;
    const seen = unknown.get(type);
    if (seen) seen.count += 1;
    else unknown.set(type, { first: seq, count: 1 });
  }
  for (const [type, { first, count }] of unknown) {
    const ignorable = log.event(first)?.ignorable === true;
    add({
      kind: 'unknown-type',
      severity: ignorable ? 'info' : 'error',
      rule: 'vocabulary.unknown-types',
      ...(ignorable
        ? say('event type "{0}" is unknown to dsh ({1} event(s)), marked ignorable', type, count)
        : say('event type "{0}" is unknown to dsh ({1} event(s))', type, count)),
      ...placeOf(first),
    });
  }

  for (const seq of log.upgradedSeqs)
    add({
      kind: 'legacy-upgrade',
      severity: 'info',
      rule: 'legacy.upgraded',
      ...say('seq {0} ({1}) is stored in an older shape, upgraded on read', seq, String(log.eventType(seq))),
      ...placeOf(seq),
    });

  for (const d of checkInvariants(log))
    add({
      kind: 'invariant',
      severity: d.severity,
      rule: d.rule,
      message: d.message,
      ...(d.words ? { words: d.words } : {}),
      ...(d.seq !== undefined ? { seq: d.seq } : {}),
      ...(d.line !== undefined ? { line: d.line } : {}),
      ...(d.offset !== undefined ? { offset: d.offset } : {}),
    });

  const repairs = findRepairsMade(log);
  for (const repair of repairs) {
    add({
      kind: 'repair-made',
      severity: 'info',
      rule: 'repair.made',
      ...say(
        'turn {0} was closed by a crash repair: {1} synthetic tool result(s), seqs {2}–{3}',
        repair.turn ?? '?',
        repair.results.length,
        String(repair.closerSeqs[0]),
        repair.turnEndSeq,
      ),
      ...placeOf(repair.closerSeqs[0]),
    });
  }

  const health: SessionHealth = { entries, repairs, omitted };
  if (openTurn) health.openTurn = openTurn;
  if (tornTail) health.tornTail = tornTail;
  return health;
}
