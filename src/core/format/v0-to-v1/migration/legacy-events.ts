// The bounded rewrites of retired v0 forms the v0 → v1 edge applies (dsh's normalisers): renamed
// compaction events, `turn/start.trigger`, retired `turn/end` reasons, the `messagePrefix` duplicate,
// steering messages, retry chains without ids, compaction groups without ids. Retired events with no
// v1 meaning refuse migration. Every rewrite keeps the member order dsh's spreads produce.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../../errors';
import { assertExactKeys, formatCount, isJsonObject, jsonObject, jsonString, type JsonObject } from '../../json';
import type { FormatEvent } from '../../types';

export function legacyMessageId(sessionId: string, seq: number): string {
  return `legacy-message:${sessionId}:${seq}`;
}

function malformedLegacy(sessionId: string, type: string, seq: number): SessionFormatError {
  return new SessionFormatError(`session ${JSON.stringify(sessionId)} contains malformed pre-react-loop ${type} at seq ${seq}`);
}

const COMPACTION_RENAMES: Readonly<Record<string, string>> = {
  'compact/start': 'compaction/start',
  'compact/summary': 'compaction/summary',
  'compact/end': 'compaction/end',
  'compact/prune': 'compaction/prune',
};

export function renameLegacyCompaction(event: FormatEvent): FormatEvent {
  const renamed =
    typeof event.type === 'string' && Object.hasOwn(COMPACTION_RENAMES, event.type) ? COMPACTION_RENAMES[event.type] : undefined;
  return renamed === undefined ? event : { ...event, type: renamed };
}

/** Retired events that have no v1 meaning. */
export function refuseRetiredTypes(event: FormatEvent, sessionId: string): void {
  if (event.type === 'request/header-delta' || event.type === 'mode/set')
    throw new SessionFormatUnsupportedMigrationError(
      `session ${JSON.stringify(sessionId)} contains unsupported legacy ${event.type} event at seq ${event.seq}`,
    );
  if (event.type === 'request/header' && jsonObject(event.data, `request/header ${event.seq} data`)['reason'] === 'fallback')
    throw new SessionFormatUnsupportedMigrationError(
      `session ${JSON.stringify(sessionId)} contains unsupported request/header reason "fallback" at seq ${event.seq}`,
    );
}

/** `turn/start {turn, trigger}` (before the react loop) loses its trigger. */
export function normalizeTurnStart(event: FormatEvent, sessionId: string): FormatEvent {
  if (event.type !== 'turn/start') return event;
  const data = jsonObject(event.data, `turn/start ${event.seq} data`);
  if (!Object.hasOwn(data, 'trigger')) return event;
  assertExactKeys(data, ['turn', 'trigger'], [], `turn/start ${event.seq} data`);
  const turn = formatCount(data['turn'], `turn/start ${event.seq} turn`);
  const trigger = jsonObject(data['trigger'], `turn/start ${event.seq} trigger`);
  if (turn < 1 || typeof trigger['kind'] !== 'string' || trigger['kind'].length === 0)
    throw malformedLegacy(sessionId, 'turn/start', event.seq);
  return { ...event, data: { turn } };
}

/** Retired `turn/end` reasons become today's: aborted without a cause, disposed, the two legacy error shapes. */
export function normalizeTurnEnd(event: FormatEvent, sessionId: string): FormatEvent {
  if (event.type !== 'turn/end') return event;
  const label = `turn/end ${event.seq}`;
  const data = jsonObject(event.data, `${label} data`);
  assertExactKeys(data, ['turn', 'reason'], [], `${label} data`);
  if (formatCount(data['turn'], `${label} turn`) < 1) throw malformedLegacy(sessionId, 'turn/end', event.seq);
  const reason = jsonObject(data['reason'], `${label} reason`);
  if (typeof reason['kind'] !== 'string') throw malformedLegacy(sessionId, 'turn/end', event.seq);
  let current: JsonObject;
  switch (reason['kind']) {
    case 'completed':
    case 'blocked':
    case 'max-tokens':
    case 'interrupted':
      assertExactKeys(reason, ['kind'], [], `${label} reason`);
      return event;
    case 'aborted':
      if (Object.hasOwn(reason, 'reason')) return event;
      assertExactKeys(reason, ['kind'], [], `${label} reason`);
      current = { kind: 'aborted', reason: { kind: 'legacy' } };
      break;
    case 'disposed':
      assertExactKeys(reason, ['kind'], [], `${label} reason`);
      current = { kind: 'aborted', reason: { kind: 'disposed' } };
      break;
    case 'error':
      if (Object.hasOwn(reason, 'error')) return event;
      current = legacyErrorReason(reason, event.seq, sessionId);
      break;
    default:
      return event;
  }
  return { ...event, data: { ...data, reason: current } };
}

function legacyErrorReason(reason: JsonObject, seq: number, sessionId: string): JsonObject {
  formatCount(reason['step'], `turn/end ${seq} error step`);
  const failure = reason['failure'];
  if (failure !== undefined) {
    assertExactKeys(reason, ['kind', 'step', 'failure'], [], `turn/end ${seq} reason`);
    const record = jsonObject(failure, `turn/end ${seq} failure`);
    assertExactKeys(record, ['message', 'code'], ['status', 'providerRetryAfterMs', 'requestId'], `turn/end ${seq} failure`);
    if (typeof record['message'] !== 'string' || typeof record['code'] !== 'string') throw malformedLegacy(sessionId, 'turn/end', seq);
    return { kind: 'error', error: record };
  }
  assertExactKeys(reason, ['kind', 'step', 'message'], ['code'], `turn/end ${seq} reason`);
  if (typeof reason['message'] !== 'string' || (reason['code'] !== undefined && typeof reason['code'] !== 'string'))
    throw malformedLegacy(sessionId, 'turn/end', seq);
  return { kind: 'error', error: { message: reason['message'], code: typeof reason['code'] === 'string' ? reason['code'] : 'UNKNOWN' } };
}

/** The obsolete `request/header.header.messagePrefix` duplicate is dropped. */
export function normalizeRequestHeader(event: FormatEvent, sessionId: string): FormatEvent {
  if (event.type !== 'request/header') return event;
  const data = jsonObject(event.data, `request/header ${event.seq} data`);
  const header = jsonObject(data['header'], `request/header ${event.seq} header`);
  if (!Object.hasOwn(header, 'messagePrefix')) return event;
  if (!Array.isArray(header['messagePrefix']))
    throw new SessionFormatError(
      `session ${JSON.stringify(sessionId)} contains malformed request/header messagePrefix at seq ${event.seq}`,
    );
  const { messagePrefix: _dropped, ...current } = header;
  return { ...event, data: { ...data, header: current } };
}

/** `steering/message` becomes a `user/message`: the wrapped message, or the bare one given an id and role. */
export function normalizeSteering(event: FormatEvent, sessionId: string): FormatEvent {
  if (event.type !== 'steering/message') return event;
  const label = `steering/message ${event.seq}`;
  const data = jsonObject(event.data, `${label} data`);
  const wrapped = data['message'];
  if (wrapped !== undefined) {
    assertExactKeys(data, ['turn', 'message'], [], `${label} data`);
    formatCount(data['turn'], `${label} turn`);
    return { ...event, type: 'user/message', data: wrapped };
  }
  assertExactKeys(data, ['turn', 'content', 'source'], [], `${label} data`);
  formatCount(data['turn'], `${label} turn`);
  const { turn: _turn, ...message } = data;
  return { ...event, type: 'user/message', data: { ...message, id: legacyMessageId(sessionId, event.seq), role: 'user' } };
}

/**
 * `llm/retry` without a retryId takes its chain's id (turn, step, provider, policy), or a minted
 * `legacy-retry:<session>:<seq>` for a new chain.
 */
export function normalizeRetry(event: FormatEvent, sessionId: string, retryIds: Map<string, string>): FormatEvent {
  if (event.type !== 'llm/retry') return event;
  const data = jsonObject(event.data, `llm/retry ${event.seq} data`);
  const chain = [data['turn'], data['step'], data['provider'], data['policyKey']].map((value) => jsonString(value) ?? '').join('\0');
  const retryId = data['retryId'];
  if (typeof retryId === 'string' && retryId.length > 0) {
    retryIds.set(chain, retryId);
    return event;
  }
  if (Object.hasOwn(data, 'retryId')) return event;
  const minted = retryIds.get(chain) ?? `legacy-retry:${sessionId}:${event.seq}`;
  retryIds.set(chain, minted);
  return { ...event, data: { ...data, retryId: minted } };
}

/** The compaction group open while the edge walks the log. */
export interface CompactionGroup {
  compactionId?: string;
}

/**
 * `compaction/start` without an id gets `legacy-compaction:<session>:<seq>`, carried to the group's
 * summary and end, and to a compact-plugin checkpoint message's source.
 */
export function normalizeCompaction(event: FormatEvent, sessionId: string, group: CompactionGroup): FormatEvent {
  if (event.type === 'session/end-seed') {
    delete group.compactionId;
    return event;
  }
  if (event.type === 'compaction/start') {
    const data = jsonObject(event.data, `compaction/start ${event.seq} data`);
    const existing = data['compactionId'];
    if (typeof existing === 'string' && existing.length > 0) {
      group.compactionId = existing;
      return event;
    }
    if (Object.hasOwn(data, 'compactionId')) return event;
    const id = `legacy-compaction:${sessionId}:${event.seq}`;
    group.compactionId = id;
    return { ...event, data: { ...data, compactionId: id } };
  }
  const compactionId = group.compactionId;
  if (compactionId === undefined) return event;
  if (event.type === 'compaction/summary' || event.type === 'compaction/end') {
    const data = jsonObject(event.data, `${event.type} ${event.seq} data`);
    if (event.type === 'compaction/end') delete group.compactionId;
    return Object.hasOwn(data, 'compactionId') ? event : { ...event, data: { ...data, compactionId } };
  }
  if (event.type !== 'user/message') return event;
  const data = jsonObject(event.data, `user/message ${event.seq} data`);
  const source = data['source'];
  if (!isJsonObject(source) || source['kind'] !== 'plugin' || source['plugin'] !== 'compact' || Object.hasOwn(source, 'compactionId'))
    return event;
  return { ...event, data: { ...data, source: { ...source, compactionId } } };
}
