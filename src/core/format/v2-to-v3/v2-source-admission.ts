// What the v2→v3 migration checks of each v2 event before it transforms it: the event is of a
// classified type with its exact envelope and payload members, its surface metadata is v2's, its
// content passes the audit, and its message sources are kinds the migration knows how to carry.
// Anything unclassified refuses the migration instead of being guessed at.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import type { FormatEvent } from '../types';
import { assertPayloadSemantics, assertSurfaceMetadata } from '../v0-to-v1';
import { V2_EVENT_DISPOSITIONS } from '../v1-to-v2/v2-vocabulary';
import { formatCount, formatSafeInteger, isJsonObject, templateString, type JsonObject } from '../json';
import { hasEntry, objectAt, requireExactFields } from '../v1-to-v2/v2-checks';
import { auditEventContent } from './content-audit';
import { AUDITED_SOURCE_KINDS, FEEDBACK_TYPES, isRepairMessageId, V3_SURFACE_TYPES } from './v3-vocabulary';

const REQUIRED = ['type', 'seq', 'time', 'data'];
const SURFACE_OPTIONAL = ['ignorable', 'sourceEventSeqs', 'surfaceOp'];
const LOG_OPTIONAL = ['ignorable'];

export function admitV2SourceEvent(event: FormatEvent): void {
  const disposition = hasEntry(V2_EVENT_DISPOSITIONS, event.type) ? V2_EVENT_DISPOSITIONS[event.type] : undefined;
  const feedback = FEEDBACK_TYPES.has(event.type);
  if (disposition === undefined && !feedback)
    throw new SessionFormatUnsupportedMigrationError(
      `format v2 to v3 cannot safely transform unclassified event ${templateString(event.type)}`,
    );
  const surface = V3_SURFACE_TYPES.has(event.type);
  requireExactFields(event, REQUIRED, surface ? SURFACE_OPTIONAL : LOG_OPTIONAL, event.type);
  formatCount(event.seq, 'event seq');
  formatSafeInteger(event.time, 'event time');
  if (event.ignorable !== undefined && event.ignorable !== true) throw new SessionFormatError('ignorable must be true');
  if (surface) {
    assertSurfaceMetadata(event, event.seq, event.type, 'forbid-assistant');
    if (event.surfaceOp === undefined) throw new SessionFormatError(`${event.type} requires surfaceOp`);
  }
  const data = objectAt(event.data, `${event.type} data`);
  if (disposition === undefined) {
    admitFeedback(event.type, data);
    return;
  }
  requireExactFields(data, disposition.required, disposition.optional, `${event.type} data`);
  auditEventContent(event, data);
  if (event.type !== 'assistant/attempt') assertPayloadSemantics(event, 2);
  if (event.type === 'assistant/message' || event.type === 'assistant/attempt') requirePositiveCoordinates(data);
  if (event.type === 'session/end-seed' && data.inherited !== undefined && data.inherited !== true)
    throw new SessionFormatError('session/end-seed inherited must be true');
  if (event.type === 'user/message') admitMessageSource(data);
  if (event.type === 'assistant/message' || event.type === 'tool/result') admitMessageSource(objectAt(data.message, 'message'));
  if (event.type === 'tool/result' && isJsonObject(data.error) && data.error.code === 'TOOL_NOT_STARTED') {
    const message = objectAt(data.message, 'tool result message');
    const source = objectAt(message.source, 'tool result source');
    if (!isRepairMessageId(message.id, source.callId))
      throw new SessionFormatError('TOOL_NOT_STARTED repair requires its canonical historical message id');
  }
  if (event.type === 'agent/inbox/spliced' || event.type === 'session/title-llm-request')
    for (const message of data[event.type === 'agent/inbox/spliced' ? 'inserted' : 'messages'] as JsonObject[]) admitMessageSource(message);
}

/** `turn` and `step` of an assistant event are positive counts (v2 never writes step 0). */
export function requirePositiveCoordinates(data: JsonObject): void {
  for (const coordinate of ['turn', 'step'])
    if (formatCount(data[coordinate], coordinate) === 0) throw new SessionFormatError(`${coordinate} must be positive`);
}

function admitMessageSource(message: JsonObject): void {
  const source = objectAt(message.source, 'message source');
  if (typeof source.kind !== 'string' || !AUDITED_SOURCE_KINDS.has(source.kind))
    throw new SessionFormatUnsupportedMigrationError('cannot safely transform unclassified message source');
  if (source.kind === 'agent-message') {
    requireExactFields(source, ['kind', 'form', 'senderSessionId'], [], 'agent-message source');
    if (source.form !== 'relay' || typeof source.senderSessionId !== 'string' || source.senderSessionId.length === 0)
      throw new SessionFormatError('agent-message source requires relay form and senderSessionId');
  }
}

function admitFeedback(type: string, data: JsonObject): void {
  requireExactFields(data, type === 'feedback/message-put' ? ['sessionId', 'item'] : ['sessionId', 'messageId'], [], type);
  if (typeof data.sessionId !== 'string') throw new SessionFormatError('feedback sessionId must be a string');
  if (type === 'feedback/message-delete') {
    if (typeof data.messageId !== 'string') throw new SessionFormatError('feedback messageId must be a string');
    return;
  }
  const item = objectAt(data.item, 'feedback item');
  requireExactFields(item, ['messageId', 'rating', 'version', 'createdAt', 'updatedAt'], ['note'], 'feedback item');
  for (const key of ['messageId', 'version'])
    if (typeof item[key] !== 'string') throw new SessionFormatError(`feedback ${key} must be a string`);
  if (item.rating !== 'positive' && item.rating !== 'negative') throw new SessionFormatError('invalid feedback rating');
  if (item.note !== undefined && typeof item.note !== 'string') throw new SessionFormatError('feedback note must be a string');
  formatCount(item.createdAt, 'feedback createdAt');
  formatCount(item.updatedAt, 'feedback updatedAt');
}
