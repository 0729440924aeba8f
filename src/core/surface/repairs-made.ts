// Repairs already in a log: the closers dsh wrote when it reopened a crashed session. A repair ends
// with `turn/end {reason: {kind: 'interrupted'}}` (only crash repair writes that reason), directly
// preceded by its synthetic tool results (`interrupted-tool-result-<callId>-<seq>`, error
// TOOL_OUTCOME_UNKNOWN or TOOL_NOT_STARTED) and the step/end of an open step, and usually followed by
// the `session/end-seed` dsh's constructor appends when it opens the repaired session.
// Only turn/end events and the few events just before them are parsed, so a large log stays cheap.
import type { SessionLog } from '../read/session-log';
import { TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN } from './repair';
import type { CloserCode } from './crash-review';

export const INTERRUPTED_RESULT_PREFIX = 'interrupted-tool-result-';

export interface RepairedCall {
  /** Seq of the synthetic tool/result. */
  seq: number;
  callId: string;
  code: CloserCode;
  /** The tool/call it cites, when the call had been recorded. */
  callSeq?: number;
}

export interface RepairMade {
  turn: number | undefined;
  /** Every event the repair wrote, in order: synthetic results, step/end, turn/end. */
  closerSeqs: number[];
  results: RepairedCall[];
  stepEndSeq?: number;
  turnEndSeq: number;
  /** The session/end-seed written right after the closers, when there is one. */
  endSeedSeq?: number;
  /** The turn/start of the interrupted turn. */
  turnStartSeq?: number;
}

/** Every repair dsh wrote into the log, in log order. */
export function findRepairsMade(log: SessionLog): RepairMade[] {
  const repairs: RepairMade[] = [];
  for (let seq = 0; seq < log.eventCount; seq++) {
    if (log.eventType(seq) !== 'turn/end' || !mayBeInterrupted(log.lineText(seq))) continue;
    const end = log.event(seq);
    if (end?.data?.reason?.kind !== 'interrupted') continue;
    repairs.push(readRepair(log, seq, end.data.turn));
  }
  return repairs;
}

/**
 * Whether a turn/end line can say `"kind":"interrupted"`: the word written out, or written with a
 * \u escape. Most turn/ends say neither, and are not parsed again (a long log has tens of thousands).
 */
function mayBeInterrupted(line: string | undefined): boolean {
  return line === undefined || line.includes('interrupted') || line.includes('\\u');
}

function readRepair(log: SessionLog, turnEndSeq: number, turn: unknown): RepairMade {
  const results: RepairedCall[] = [];
  let stepEndSeq: number | undefined;
  let first = turnEndSeq;
  let seq = turnEndSeq - 1;
  if (seq >= 0 && log.eventType(seq) === 'step/end') {
    stepEndSeq = seq;
    first = seq;
    seq -= 1;
  }
  for (; seq >= 0 && log.eventType(seq) === 'tool/result'; seq--) {
    const result = syntheticResult(log, seq);
    if (!result) break;
    results.unshift(result);
    first = seq;
  }
  const closerSeqs: number[] = [];
  for (let s = first; s <= turnEndSeq; s++) closerSeqs.push(s);
  const repair: RepairMade = { turn: typeof turn === 'number' ? turn : undefined, closerSeqs, results, turnEndSeq };
  if (stepEndSeq !== undefined) repair.stepEndSeq = stepEndSeq;
  if (log.eventType(turnEndSeq + 1) === 'session/end-seed') repair.endSeedSeq = turnEndSeq + 1;
  for (let s = first - 1; s >= 0; s--) {
    const type = log.eventType(s);
    if (type === 'turn/start') {
      repair.turnStartSeq = s;
      break;
    }
    if (type === 'turn/end') break;
  }
  return repair;
}

/** A tool/result written by crash repair, recognised by its message id and error code. */
function syntheticResult(log: SessionLog, seq: number): RepairedCall | undefined {
  const event = log.event(seq);
  const data = event?.data;
  const id = data?.message?.id;
  const code = data?.error?.code;
  if (typeof id !== 'string' || !id.startsWith(INTERRUPTED_RESULT_PREFIX)) return undefined;
  if (code !== TOOL_OUTCOME_UNKNOWN && code !== TOOL_NOT_STARTED) return undefined;
  const callId = data?.message?.source?.callId;
  const result: RepairedCall = { seq, callId: typeof callId === 'string' ? callId : '', code };
  const cited = event?.sourceEventSeqs?.[0];
  if (typeof cited === 'number') result.callSeq = cited;
  return result;
}

/** True when a seq is one of the events a repair wrote (closers and the end-seed after them). */
export function repairSeqs(repairs: readonly RepairMade[]): Set<number> {
  const seqs = new Set<number>();
  for (const repair of repairs) {
    for (const seq of repair.closerSeqs) seqs.add(seq);
    if (repair.endSeedSeq !== undefined) seqs.add(repair.endSeedSeq);
  }
  return seqs;
}
