// The closers dsh's v4 writer appends to an open final turn (spec §7): per call of the open step still
// waiting for a result, a tool-role error result; then the open step's step/end; then turn/end. The
// cause is a crash (`interrupted`, on resume) or a fork whose seed cuts through the turn (`forked`).
// The words are format data: dsh writes them into the log and the model reads them, so they are dsh's
// byte for byte. §7 gives the two crash texts and the members; the fork texts, the message's key order
// (id, role, toolCallId, isError, source, content) and the event's (turn, step, message, error; then
// surfaceOp, sourceEventSeqs) are as dsh 0.1.7's core session repair.ts writes them, read in public
// code (the spec §7 notes that file was not read for it).
import type { FormatEvent } from '../types';
import { isJsonObject } from '../json';
import { stringText } from '../../value-text';
import { TOOL_NOT_STARTED_TEXT } from './rules/tool-calls';

export type CloseCause = 'interrupted' | 'forked';

/** Far beyond any real call id: a string id is written whole. */
const ID_TEXT_LIMIT = 1_000_000;

const CLOSER_TEXT: Readonly<Record<CloseCause, { started: string; notStarted: string }>> = {
  interrupted: {
    started:
      'The tool call was interrupted after it was recorded, but no result was durably recorded. Its outcome is unknown. ' +
      'Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; ' +
      'if it may have side effects, first verify external state or ask the user. Do not retry blindly.',
    notStarted: TOOL_NOT_STARTED_TEXT,
  },
  forked: {
    started:
      'The history inherited by this branch records this tool call starting but does not include its result. ' +
      'The parent session may have completed it after the fork point. Decide whether to retry from the tool semantics: ' +
      'retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state ' +
      'or ask the user. Do not retry blindly.',
    notStarted:
      'The history inherited by this branch has no record of this tool call starting. The parent session may have executed ' +
      'it after the fork point. Decide whether to retry from the tool semantics: retry only if the operation is read-only ' +
      'or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.',
  },
};

/** A call the open step advertised and no result settled yet; `callSeq` once a tool/call recorded its start. */
interface PendingCall {
  step: unknown;
  callSeq?: number;
}

function field(value: unknown, key: string): unknown {
  return isJsonObject(value) ? value[key] : undefined;
}

/**
 * The open final turn of a v4 log, followed as its events go past: the turn and step still open and
 * the calls of the open step still waiting for a result.
 */
export class V4OpenTurn {
  private openTurn: unknown = null;
  private openStep: unknown = null;
  // Calls are forgotten at every turn boundary and step end: only the open step's can be pending.
  private readonly pending = new Map<unknown, PendingCall>();
  /** The last event's seq and time (not the event: a long-lived object pointing at each new event costs the collector). */
  private seen = false;
  private lastSeq = 0;
  private lastTime = 0;

  observe(event: FormatEvent): void {
    const data = event.data;
    const pending = this.pending;
    this.seen = true;
    this.lastSeq = event.seq;
    this.lastTime = event.time;
    switch (event.type) {
      case 'turn/start':
        this.openTurn = field(data, 'turn');
        this.openStep = null;
        pending.clear();
        break;
      case 'turn/end':
        this.openTurn = null;
        this.openStep = null;
        pending.clear();
        break;
      case 'step/start':
        this.openStep = field(data, 'step');
        break;
      case 'step/end':
        this.openStep = null;
        pending.clear();
        break;
      case 'assistant/message': {
        const content = field(field(data, 'message'), 'content');
        if (!Array.isArray(content)) break;
        for (const block of content)
          if (field(block, 'type') === 'tool-call') pending.set(field(block, 'id'), { step: field(data, 'step') });
        break;
      }
      case 'tool/call': {
        const call = pending.get(field(data, 'callId'));
        if (call) call.callSeq = event.seq;
        break;
      }
      case 'tool/result':
        pending.delete(field(field(field(data, 'message'), 'source'), 'callId'));
        break;
    }
  }

  /**
   * The events dsh appends to close the open final turn, in order; empty when the last turn is
   * closed. Seqs continue after the last event and every closer takes the last event's time. A call
   * that a tool/call recorded as started gets TOOL_OUTCOME_UNKNOWN citing that tool/call; one that never
   * started gets TOOL_NOT_STARTED. The result id is `<cause>-tool-result-<callId>-<its own seq>`.
   */
  closers(cause: CloseCause = 'interrupted'): FormatEvent[] {
    const { openTurn, openStep, pending } = this;
    if (openTurn === null || openTurn === undefined || !this.seen) return [];
    let seq = this.lastSeq + 1;
    const time = this.lastTime;
    const text = CLOSER_TEXT[cause];
    const closers: FormatEvent[] = [];
    for (const [callId, { step, callSeq }] of pending) {
      const started = callSeq !== undefined;
      const message = {
        // A call id nested thousands deep would overflow `${callId}`: its depth-safe text is written
        // instead (dsh's restore refuses such a log; its closers are still shown).
        id: `${cause}-tool-result-${stringText(callId, ID_TEXT_LIMIT)}-${seq}`,
        role: 'tool',
        toolCallId: callId,
        isError: true,
        source: { kind: 'tool', callId },
        content: [{ type: 'text', text: started ? text.started : text.notStarted }],
      };
      const error = started
        ? { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' }
        : { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' };
      const closer: FormatEvent = {
        type: 'tool/result',
        seq: seq++,
        time,
        data: { turn: openTurn, step, message, error },
        surfaceOp: 'append',
      };
      if (started) closer.sourceEventSeqs = [callSeq];
      closers.push(closer);
    }
    if (openStep !== null && openStep !== undefined)
      closers.push({ type: 'step/end', seq: seq++, time, data: { turn: openTurn, step: openStep } });
    closers.push({ type: 'turn/end', seq: seq++, time, data: { turn: openTurn, reason: { kind: cause } } });
    return closers;
  }
}

/** The events dsh appends to close the open final turn of a v4 log with these events (see V4OpenTurn.closers). */
export function v4Closers(events: readonly FormatEvent[], cause: CloseCause = 'interrupted'): FormatEvent[] {
  const turn = new V4OpenTurn();
  for (const event of events) turn.observe(event);
  return turn.closers(cause);
}
