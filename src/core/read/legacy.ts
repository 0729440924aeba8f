// Legacy v0 shapes (spec §8.2): some are refused outright, the rest are upgraded in memory before
// validation, exactly as dsh's persistence layer adopts stored events. Malformed legacy shapes are
// refused with dsh's "malformed pre-react-loop" wording.
import { messageOf } from '../vocabulary/messages';
import type { SessionEvent } from '../types';
import { asRecord, hasOnlyKeys, hasOwn, nullReadMessage } from './json-values';

export class LegacyRefusal extends Error {
  constructor(
    message: string,
    readonly rule: string,
    readonly typeError = false,
  ) {
    super(message);
  }
}

/**
 * The whole-log refusal dsh runs before any upgrade: a `request/header-delta` anywhere wins over a
 * `mode/set` anywhere, which wins over a `request/header` with reason "fallback". Fed event by event.
 */
export class RetiredShapeWatch {
  private headerDelta?: number;
  private modeSet?: number;
  private fallback?: { seq: number; typeError?: string };

  /** The same watch, to go on with separately (a fork of the log). */
  clone(): RetiredShapeWatch {
    const copy = new RetiredShapeWatch();
    copy.headerDelta = this.headerDelta;
    copy.modeSet = this.modeSet;
    copy.fallback = this.fallback;
    return copy;
  }

  observe(event: any): void {
    if (event.type === 'request/header-delta') this.headerDelta ??= event.seq;
    else if (event.type === 'mode/set') this.modeSet ??= event.seq;
    else if (event.type === 'request/header' && this.fallback === undefined) {
      // dsh reads `data.reason` without a guard, so null data is a TypeError at this step.
      if (event.data === null || event.data === undefined)
        this.fallback = { seq: event.seq, typeError: nullReadMessage(event.data, 'reason') };
      else if (event.data.reason === 'fallback') this.fallback = { seq: event.seq };
    }
  }

  refusal(id: string): LegacyRefusal | undefined {
    if (this.headerDelta !== undefined) {
      return new LegacyRefusal(
        `session "${id}" contains unsupported legacy request/header-delta event at seq ${this.headerDelta}`,
        'legacy.refused',
      );
    }
    if (this.modeSet !== undefined) {
      return new LegacyRefusal(`session "${id}" contains unsupported legacy mode/set event at seq ${this.modeSet}`, 'legacy.refused');
    }
    if (this.fallback?.typeError) return new LegacyRefusal(this.fallback.typeError, 'legacy.refused', true);
    if (this.fallback !== undefined) {
      return new LegacyRefusal(
        `session "${id}" contains unsupported legacy request/header reason "fallback" at seq ${this.fallback.seq}`,
        'legacy.refused',
      );
    }
    return undefined;
  }
}

function malformed(id: string, type: string, seq: number): never {
  throw new LegacyRefusal(`session "${id}" contains malformed pre-react-loop ${type} at seq ${seq}`, 'legacy.upgrade-or-malformed');
}

function isCount(value: unknown, min: number): boolean {
  return Number.isSafeInteger(value) && (value as number) >= min;
}

function upgradeTurnStart(event: SessionEvent, id: string): SessionEvent {
  const data = asRecord(event.data);
  if (!data || !hasOwn(data, 'trigger')) return event;
  const trigger = asRecord(data.trigger);
  if (
    !isCount(data.turn, 1) ||
    !hasOnlyKeys(data, ['turn', 'trigger']) ||
    !trigger ||
    typeof trigger.kind !== 'string' ||
    trigger.kind.length === 0
  )
    malformed(id, 'turn/start', event.seq);
  return { ...event, data: { turn: data.turn } };
}

const BARE_REASONS = new Set(['completed', 'blocked', 'max-tokens', 'interrupted']);

function upgradeErrorReason(reason: Record<string, unknown>, id: string, seq: number): Record<string, unknown> {
  if (!isCount(reason.step, 0)) malformed(id, 'turn/end', seq);
  const failure = asRecord(reason.failure);
  if (
    failure &&
    hasOnlyKeys(reason, ['kind', 'step', 'failure']) &&
    hasOnlyKeys(failure, ['message', 'code'], ['status', 'providerRetryAfterMs', 'requestId']) &&
    typeof failure.message === 'string' &&
    typeof failure.code === 'string' &&
    (failure.status === undefined || typeof failure.status === 'number') &&
    (failure.providerRetryAfterMs === undefined || typeof failure.providerRetryAfterMs === 'number') &&
    (failure.requestId === undefined || typeof failure.requestId === 'string')
  ) {
    return { kind: 'error', error: failure };
  }
  const keys = reason.code === undefined ? ['kind', 'step', 'message'] : ['kind', 'step', 'message', 'code'];
  if (!hasOnlyKeys(reason, keys) || typeof reason.message !== 'string' || (reason.code !== undefined && typeof reason.code !== 'string'))
    malformed(id, 'turn/end', seq);
  return { kind: 'error', error: { message: reason.message, code: typeof reason.code === 'string' ? reason.code : 'UNKNOWN' } };
}

function upgradeTurnEnd(event: SessionEvent, id: string): SessionEvent {
  const data = asRecord(event.data);
  if (!data) return event;
  const reason = asRecord(data.reason);
  if (!isCount(data.turn, 1) || !hasOnlyKeys(data, ['turn', 'reason']) || !reason || typeof reason.kind !== 'string') {
    malformed(id, 'turn/end', event.seq);
  }
  let current: Record<string, unknown>;
  switch (reason.kind) {
    case 'aborted':
      if (hasOwn(reason, 'reason')) return event;
      if (!hasOnlyKeys(reason, ['kind'])) malformed(id, 'turn/end', event.seq);
      current = { kind: 'aborted', reason: { kind: 'legacy' } };
      break;
    case 'disposed':
      if (!hasOnlyKeys(reason, ['kind'])) malformed(id, 'turn/end', event.seq);
      current = { kind: 'aborted', reason: { kind: 'disposed' } };
      break;
    case 'error':
      if (hasOwn(reason, 'error')) return event;
      current = upgradeErrorReason(reason, id, event.seq);
      break;
    default:
      if (BARE_REASONS.has(reason.kind) && !hasOnlyKeys(reason, ['kind'])) malformed(id, 'turn/end', event.seq);
      return event;
  }
  return { ...event, data: { ...data, reason: current } };
}

function legacyMessageId(id: string, seq: number): string {
  return `legacy-message:${id}:${seq}`;
}

function upgradeSteering(event: SessionEvent, id: string): SessionEvent {
  if (event.type !== 'steering/message') return event;
  const data = asRecord(event.data);
  if (!data) malformed(id, 'steering/message', event.seq);
  const wrapped = asRecord(data.message);
  if (wrapped && Number.isSafeInteger(data.turn) && hasOnlyKeys(data, ['turn', 'message'])) {
    return { ...event, type: 'user/message', data: wrapped };
  }
  if (!Number.isSafeInteger(data.turn) || !hasOnlyKeys(data, ['turn', 'content', 'source'])) malformed(id, 'steering/message', event.seq);
  const { turn: _turn, ...message } = data;
  return { ...event, type: 'user/message', data: { ...message, id: legacyMessageId(id, event.seq), role: 'user' } };
}

function replacementStart(event: SessionEvent): number | undefined {
  const op = asRecord(event.surfaceOp);
  return op?.op === 'replace' && typeof op.start === 'number' ? op.start : undefined;
}

function upgradeMessage(event: SessionEvent, id: string, messageIdAt: MessageIdLookup): SessionEvent {
  const data = asRecord(event.data);
  if (!data) return event;
  switch (event.type) {
    case 'user/message':
      if (hasOwn(data, 'id') || hasOwn(data, 'role') || hasOwn(data, 'message') || !hasOwn(data, 'content') || !hasOwn(data, 'source'))
        return event;
      return { ...event, data: { ...data, id: legacyMessageId(id, event.seq), role: 'user' } };
    case 'assistant/message': {
      if (hasOwn(data, 'message') || !hasOwn(data, 'content') || !hasOwn(data, 'provenance')) return event;
      const { content, provenance, ...rest } = data;
      return {
        ...event,
        data: {
          ...rest,
          message: { id: legacyMessageId(id, event.seq), role: 'assistant', content, source: { ...asRecord(provenance), kind: 'model' } },
        },
      };
    }
    case 'tool/result': {
      if (hasOwn(data, 'message') || !hasOwn(data, 'callId') || !hasOwn(data, 'content') || !hasOwn(data, 'isError')) return event;
      const { callId, content, isError, ...rest } = data;
      const inherited = replacementStart(event);
      const message: Record<string, unknown> = {
        id: inherited === undefined ? legacyMessageId(id, event.seq) : messageIdAt(inherited),
        role: 'user',
        content: [{ type: 'tool-result', toolCallId: callId, content, isError }],
        source: { kind: 'tool', callId },
      };
      // A replacement citing a message without identity keeps no id key, as the spread of undefined would.
      if (message.id === undefined) delete message.id;
      return { ...event, data: { ...rest, message } };
    }
    default:
      return event;
  }
}

/**
 * The message id of an earlier event (after its own upgrade), for a pre-identity tool/result
 * replacement, which inherits the id of the message it replaces. Looked up only when one occurs.
 */
export type MessageIdLookup = (seq: number) => string | undefined;

/** The message id an event carries (used for pre-identity tool/result replacements). */
export function eventMessageId(event: SessionEvent): string | undefined {
  const id = messageOf(event)?.id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Upgrades one stored event in dsh's order (turn/start, turn/end, steering, pre-identity messages).
 * Returns the same object when nothing changed. Throws LegacyRefusal for malformed legacy shapes.
 */
export function upgradeLegacyEvent(event: SessionEvent, id: string, messageIdAt: MessageIdLookup): SessionEvent {
  let current = event;
  if (current.type === 'turn/start') current = upgradeTurnStart(current, id);
  if (current.type === 'turn/end') current = upgradeTurnEnd(current, id);
  current = upgradeSteering(current, id);
  return upgradeMessage(current, id, messageIdAt);
}
