// Crash repair (spec §5): the closers dsh appends when the final turn is still open. The scan is
// incremental so a growing log (a live agent) can be followed without rescanning.
import type { SessionEvent } from '../types';
import { nullReadMessage } from '../read/json-values';
import { SmallMap } from '../small-map';
import { knownTypeId, TypeId } from '../read/known-types';
import { jsString, NO_PRIMITIVE_MESSAGE } from '../value-text';

export const TOOL_OUTCOME_UNKNOWN = 'TOOL_OUTCOME_UNKNOWN';
export const TOOL_NOT_STARTED = 'TOOL_NOT_STARTED';

/** dsh's repair crashes on some null payloads; the core reports the same TypeError instead of throwing. */
export class RepairTypeError extends Error {}

interface PendingCall {
  step: unknown;
  callSeq?: number;
}

function field(data: unknown, key: string): any {
  if (data === null || data === undefined) throw new RepairTypeError(nullReadMessage(data, key));
  return (data as Record<string, unknown>)[key];
}

// What the model is told about an interrupted call: format data that dsh writes into every repaired log
// (spec §5), reproduced byte for byte — never reworded.
export const OUTCOME_UNKNOWN_TEXT =
  'The tool call was interrupted after it was recorded, but no result was durably recorded. Its outcome is unknown. ' +
  'Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; ' +
  'if it may have side effects, first verify external state or ask the user. Do not retry blindly.';
export const NOT_STARTED_TEXT = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.';

export class CloserScan {
  private openTurn: unknown = null;
  private openStep: unknown = null;
  private readonly pending = new SmallMap<unknown, PendingCall>();
  /** The last kept event's seq (-1 before any) and time: the closers follow it. */
  private lastSeq = -1;
  private lastTime = 0;

  /** The same scan, to go on with separately (a fork of the log). */
  clone(): CloserScan {
    const copy = new CloserScan();
    copy.openTurn = this.openTurn;
    copy.openStep = this.openStep;
    for (const [callId, call] of this.pending.entries()) copy.pending.set(callId, { ...call });
    copy.lastSeq = this.lastSeq;
    copy.lastTime = this.lastTime;
    return copy;
  }

  /**
   * Feeds the next kept event; throws RepairTypeError where dsh's repair would crash. `typeId`: the
   * number of its type (a TypeId), when the caller has looked it up already.
   */
  observe(event: SessionEvent, typeId = knownTypeId(event.type)): void {
    this.lastSeq = event.seq;
    this.lastTime = event.time;
    const data = event.data;
    switch (typeId) {
      case TypeId.TurnStart:
        this.openTurn = field(data, 'turn');
        this.openStep = null;
        this.pending.clear();
        break;
      case TypeId.TurnEnd:
        this.openTurn = null;
        this.openStep = null;
        this.pending.clear();
        break;
      case TypeId.StepStart:
        this.openStep = field(data, 'step');
        break;
      case TypeId.StepEnd:
        this.pending.clear();
        this.openStep = null;
        break;
      case TypeId.AssistantMessage: {
        const message = field(data, 'message');
        const content = field(message, 'content');
        if (Array.isArray(content)) {
          for (const block of content) {
            if (field(block, 'type') === 'tool-call') this.pending.set(block.id, { step: data.step });
          }
        }
        break;
      }
      case TypeId.ToolCall: {
        const call = this.pending.get(field(data, 'callId'));
        if (call) call.callSeq = event.seq;
        break;
      }
      case TypeId.ToolResult:
        this.pending.delete(field(field(field(data, 'message'), 'source'), 'callId'));
        break;
    }
  }

  /** Notes an event the scan has nothing to learn from (a packed chunk): closers still take the last time. */
  observeTime(seq: number, time: number): void {
    this.lastSeq = seq;
    this.lastTime = time;
  }

  /** True while a turn is open: a live writer, or a crash that the closers would repair. */
  get turnOpen(): boolean {
    return this.openTurn !== null && this.openTurn !== undefined;
  }

  /**
   * The closers for the events seen so far (empty when the last turn is closed). Throws RepairTypeError
   * where dsh's repair throws: a call id the engine cannot turn into text for the message id.
   */
  closers(): SessionEvent[] {
    if (!this.turnOpen || this.lastSeq < 0) return [];
    const time = this.lastTime;
    let seq = this.lastSeq + 1;
    const out: SessionEvent[] = [];
    for (const [callId, call] of this.pending.entries()) {
      const recorded = call.callSeq !== undefined;
      // The id as dsh's template literal makes it, without the recursion that overflows on a deep id.
      const idText = jsString(callId);
      if (idText === undefined) throw new RepairTypeError(NO_PRIMITIVE_MESSAGE);
      const event: SessionEvent = {
        type: 'tool/result',
        seq,
        time,
        data: {
          turn: this.openTurn,
          step: call.step,
          message: {
            id: `interrupted-tool-result-${idText}-${seq}`,
            role: 'user',
            source: { kind: 'tool', callId },
            content: [
              {
                type: 'tool-result',
                toolCallId: callId,
                isError: true,
                content: [{ type: 'text', text: recorded ? OUTCOME_UNKNOWN_TEXT : NOT_STARTED_TEXT }],
              },
            ],
          },
          error: recorded
            ? { name: 'ToolOutcomeUnknownError', code: TOOL_OUTCOME_UNKNOWN }
            : { name: 'ToolNotStartedError', code: TOOL_NOT_STARTED },
        },
        surfaceOp: 'append',
      };
      if (recorded) event.sourceEventSeqs = [call.callSeq as number];
      out.push(event);
      seq += 1;
    }
    if (this.openStep !== null && this.openStep !== undefined) {
      out.push({ type: 'step/end', seq, time, data: { turn: this.openTurn, step: this.openStep } });
      seq += 1;
    }
    out.push({ type: 'turn/end', seq, time, data: { turn: this.openTurn, reason: { kind: 'interrupted' } } });
    return out;
  }
}
