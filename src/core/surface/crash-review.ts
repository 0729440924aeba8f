// A review of an open final turn before anything is written: which tool calls it left pending, the
// closers dsh's repair would append (each tied to the call it answers), and the lines they become.
// The closers themselves come from the reader's repair scan (repair.ts); this file only walks the
// open turn once more to say where each pending call came from.
import type { SessionEvent } from '../types';
import type { SessionLog } from '../read/session-log';
import { serializeCloser } from '../plan/serialize';
import { TOOL_NOT_STARTED, TOOL_OUTCOME_UNKNOWN } from './repair';
import { jsString, stringText } from '../value-text';

export type CloserCode = typeof TOOL_OUTCOME_UNKNOWN | typeof TOOL_NOT_STARTED;

/** A tool call of the open turn with no result yet. */
export interface PendingCall {
  callId: string;
  /** The tool's name as the assistant asked for it (when the tool-call block names one). */
  toolName?: string;
  step?: number;
  /** The assistant/message whose tool-call block asked for the call. */
  messageSeq?: number;
  /** The tool/call event recording that the harness started the call; absent when it never did. */
  callSeq?: number;
  /** What the closer will say: the outcome is unknown (started) or the call never started. */
  code: CloserCode;
  /** Seq of the closer that answers this call. */
  closerSeq: number;
}

/** One event dsh's repair would append, with the line it writes. */
export interface CloserReview {
  seq: number;
  type: 'tool/result' | 'step/end' | 'turn/end';
  event: SessionEvent;
  /** The exact line (no newline), in the closer key order dsh writes; absent when it cannot be written. */
  line?: string;
  /** Why the line cannot be written (a value of the log that is not lossless JSON, e.g. a time of 1e400). */
  unwritable?: string;
  /** For a tool/result closer: the code and the call it answers. */
  code?: CloserCode;
  callId?: string;
  callSeq?: number;
  messageSeq?: number;
}

export interface OpenTurnReview {
  turn: number | undefined;
  /** Seq of the turn/start that opened the turn. */
  turnStartSeq: number | undefined;
  /** The step still open, and the step/start that opened it. */
  openStep: number | undefined;
  stepStartSeq: number | undefined;
  /** Seq of the last event the log holds (the closers continue after it). */
  lastSeq: number;
  /** Time of the last event, which every closer takes. */
  lastTime: number | undefined;
  pendingCalls: PendingCall[];
  closers: CloserReview[];
}

/**
 * The open final turn and its closers, or undefined when the last turn is closed (or dsh's repair
 * scan could not run: a refusal at the closers stage, reported by the reader).
 */
export function reviewOpenTurn(log: SessionLog): OpenTurnReview | undefined {
  if (!log.lastTurnOpen) return undefined;
  const closers = log.closers;
  const count = log.eventCount;
  const turnStartSeq = findBack(log, count - 1, 'turn/start');
  const origins = toolCallOrigins(log, turnStartSeq ?? 0);
  const reviews: CloserReview[] = [];
  const pendingCalls: PendingCall[] = [];
  for (const closer of closers) {
    const line = serializeCloser(closer);
    const review: CloserReview = { seq: closer.seq, type: closer.type as CloserReview['type'], event: closer };
    if (typeof line === 'string') review.line = line;
    else review.unwritable = line.reasons[0].message;
    if (closer.type === 'tool/result') {
      const callId = jsString(closer.data?.message?.source?.callId) ?? stringText(closer.data?.message?.source?.callId);
      const code = closer.data?.error?.code === TOOL_OUTCOME_UNKNOWN ? TOOL_OUTCOME_UNKNOWN : TOOL_NOT_STARTED;
      const origin = origins.get(callId);
      const callSeq = closer.sourceEventSeqs?.[0];
      review.code = code;
      review.callId = callId;
      if (callSeq !== undefined) review.callSeq = callSeq;
      if (origin) review.messageSeq = origin.messageSeq;
      const pending: PendingCall = { callId, code, closerSeq: closer.seq };
      if (origin?.toolName !== undefined) pending.toolName = origin.toolName;
      if (typeof closer.data?.step === 'number') pending.step = closer.data.step;
      if (origin) pending.messageSeq = origin.messageSeq;
      if (callSeq !== undefined) pending.callSeq = callSeq;
      pendingCalls.push(pending);
    }
    reviews.push(review);
  }
  const stepEnd = closers.find((c) => c.type === 'step/end');
  const turnEnd = closers.find((c) => c.type === 'turn/end');
  const openStep = typeof stepEnd?.data?.step === 'number' ? (stepEnd.data.step as number) : undefined;
  const stepStartSeq = openStep !== undefined ? findBack(log, count - 1, 'step/start', turnStartSeq) : undefined;
  const turn = turnEnd?.data?.turn;
  return {
    turn: typeof turn === 'number' ? turn : undefined,
    turnStartSeq,
    openStep,
    stepStartSeq,
    lastSeq: count - 1,
    lastTime: closers[0]?.time,
    pendingCalls,
    closers: reviews,
  };
}

/** The nearest earlier event of a type, looking back from `from` no further than `floor`. */
function findBack(log: SessionLog, from: number, type: string, floor = 0): number | undefined {
  for (let seq = from; seq >= floor; seq--) if (log.eventType(seq) === type) return seq;
  return undefined;
}

/**
 * Where each tool call of the open turn was asked for: the latest assistant/message carrying its
 * tool-call block (a later block with the same id replaces an earlier one, as in dsh's scan).
 * Only assistant/messages are parsed; chunks and the rest are passed over by type.
 */
function toolCallOrigins(log: SessionLog, from: number): Map<string, { messageSeq: number; toolName?: string }> {
  const origins = new Map<string, { messageSeq: number; toolName?: string }>();
  for (let seq = from; seq < log.eventCount; seq++) {
    if (log.eventType(seq) !== 'assistant/message') continue;
    const content = log.event(seq)?.data?.message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (block?.type !== 'tool-call' || typeof block.id !== 'string') continue;
      origins.set(block.id, typeof block.name === 'string' ? { messageSeq: seq, toolName: block.name } : { messageSeq: seq });
    }
  }
  return origins;
}
