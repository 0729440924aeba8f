// v3 row admission: the envelope rules a v3 event must meet wherever it is read (codec, encoder,
// restore). Surface events need a surface marker; a replacement is exactly `{op:'replace', startSeq,
// endSeq}` naming earlier events; `sourceEventSeqs` is non-empty, unique and earlier, and an assistant
// message (which embeds its stream) has none; request headers no longer carry `system` or empty
// optional fields; system messages are plugin-owned.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import type { FormatEvent } from '../types';
import { assertPayloadSemantics } from '../v0-to-v1';
import { V2_EVENT_DISPOSITIONS } from '../v1-to-v2/v2-vocabulary';
import { formatCount, formatSafeInteger, isJsonObject, templateString, type JsonObject } from '../json';
import { hasEntry, objectAt, requireExactFields } from '../v1-to-v2/v2-checks';
import { FEEDBACK_TYPES, PTC_DISPATCH_TYPES, RETIRED_DISPATCH_TYPES, V3_SURFACE_TYPES } from './v3-vocabulary';
import { requirePositiveCoordinates } from './v2-source-admission';

const REQUIRED = ['type', 'seq', 'time', 'data'];
const SURFACE_OPTIONAL = ['ignorable', 'surfaceOp', 'sourceEventSeqs'];
const LOG_OPTIONAL = ['ignorable'];

/** A required retired PTC dispatch is an unknown event in v3 (an ignorable one stays opaque). */
export function refuseRetiredDispatch(event: JsonObject): void {
  if (hasEntry(RETIRED_DISPATCH_TYPES, event.type) && event.ignorable !== true)
    throw new SessionFormatUnsupportedMigrationError(
      `format v3 contains unknown event type ${JSON.stringify(event.type)} at seq ${templateString(event.seq)}`,
    );
}

/**
 * Checks that hold for a raw row before any recovery may drop it: retired `header.system` and system
 * message payloads. They fail a read even in a tail that recovery would otherwise discard.
 */
export function admitStructuralRow(row: unknown): void {
  if (!isJsonObject(row)) return;
  if (row.type === 'request/header') {
    const data = objectAt(row.data, 'request/header data');
    if (Object.hasOwn(objectAt(data.header, 'request header'), 'system'))
      throw new SessionFormatUnsupportedMigrationError('format v3 request/header rejects retired header.system');
  } else if (row.type === 'system/message') {
    admitSystemMessage(objectAt(row.data, 'system/message data'));
  }
}

function admitSystemMessage(data: JsonObject): void {
  requireExactFields(data, ['turn', 'step', 'message'], [], 'system/message data');
  requirePositiveCoordinates(data);
  const message = objectAt(data.message, 'system message');
  requireExactFields(message, ['id', 'role', 'source', 'content'], [], 'system message');
  if (typeof message.id !== 'string' || message.id.length === 0 || message.role !== 'system')
    throw new SessionFormatError('system message requires an id and system role');
  const source = objectAt(message.source, 'system source');
  if (source.kind !== 'plugin' || typeof source.plugin !== 'string' || source.plugin.length === 0)
    throw new SessionFormatError('system message requires plugin source');
  // Its content follows the user message rules; dsh labels what it finds there as seq 0.
  assertPayloadSemantics({ type: 'user/message', seq: 0, time: 0, data: { ...message, role: 'user' } }, 3);
}

/** Whether v3 leaves this type's payload to its owner (its surface metadata is then not interpreted). */
function isOpaqueType(type: string, installedTypes: ReadonlySet<string> | undefined): boolean {
  if (hasEntry(RETIRED_DISPATCH_TYPES, type)) return true;
  return !(
    V3_SURFACE_TYPES.has(type) ||
    hasEntry(V2_EVENT_DISPOSITIONS, type) ||
    PTC_DISPATCH_TYPES.has(type) ||
    FEEDBACK_TYPES.has(type) ||
    installedTypes?.has(type) === true
  );
}

/** One canonical v3 event; throws with dsh's words (`format v3 <type> at seq <n> …`). */
export function admitV3Event(event: FormatEvent, installedTypes?: ReadonlySet<string>): void {
  const value = objectAt(event, 'format v3 event');
  const subject = `format v3 ${templateString(event.type)} at seq ${templateString(event.seq)}`;
  const surface = V3_SURFACE_TYPES.has(event.type);
  requireExactFields(value, REQUIRED, surface || isOpaqueType(event.type, installedTypes) ? SURFACE_OPTIONAL : LOG_OPTIONAL, subject);
  if (typeof event.type !== 'string') throw new SessionFormatError(`${subject} type must be a string`);
  formatCount(event.seq, `${subject} seq`);
  formatSafeInteger(event.time, `${subject} time`);
  if (Object.hasOwn(value, 'ignorable') && value.ignorable !== true)
    throw new SessionFormatError(`${subject} ignorable must be true when present`);
  if (surface) admitSurfaceMetadata(event, subject);
  admitStructuralRow(event);
  admitCanonicalPayload(event, subject);
}

function admitSurfaceMetadata(event: FormatEvent, subject: string): void {
  const operation = event.surfaceOp;
  if (operation === undefined) throw new SessionFormatError(`${subject} requires a surfaceOp marker`);
  if (operation !== 'append') {
    const replace = objectAt(operation, `${subject} surfaceOp`);
    if (
      Object.keys(replace).length !== 3 ||
      replace.op !== 'replace' ||
      !Object.hasOwn(replace, 'startSeq') ||
      !Object.hasOwn(replace, 'endSeq')
    )
      throw new SessionFormatError(`${subject} requires exact replace fields op/startSeq/endSeq`);
    for (const key of ['startSeq', 'endSeq'])
      if (formatCount(replace[key], `${subject} surfaceOp ${key}`) >= event.seq)
        throw new SessionFormatError(`${subject} replacement endpoints must reference earlier events`);
  }
  const sources = event.sourceEventSeqs as unknown;
  if (event.type === 'assistant/message' && sources !== undefined)
    throw new SessionFormatError(`${subject} embeds its stream and cannot carry sourceEventSeqs`);
  if (sources === undefined) return;
  if (!Array.isArray(sources) || sources.length === 0) throw new SessionFormatError(`${subject} sourceEventSeqs must be a non-empty array`);
  const seen = new Set<number>();
  for (const source of sources) {
    const seq = formatCount(source, `${subject} sourceEventSeqs member`);
    if (seq >= event.seq || seen.has(seq)) throw new SessionFormatError(`${subject} sourceEventSeqs must be unique earlier seqs`);
    seen.add(seq);
  }
}

/** Canonical forms: no empty optional request header fields; error metadata only on an error tool result. */
function admitCanonicalPayload(event: FormatEvent, subject: string): void {
  if (event.type === 'request/header') {
    const header = objectAt(objectAt(event.data, `${subject} data`).header, `${subject} header`);
    if (
      (Array.isArray(header.tools) && header.tools.length === 0) ||
      (isJsonObject(header.adapterDefaults) && Object.keys(header.adapterDefaults).length === 0)
    )
      throw new SessionFormatError(`${subject} empty optional header fields must be omitted`);
  }
  if (event.type !== 'tool/result') return;
  const data = objectAt(event.data, `${subject} data`);
  if (data.error === undefined) return;
  const content = objectAt(data.message, `${subject} message`).content;
  const block = Array.isArray(content) && content.length === 1 ? content[0] : undefined;
  if (!isJsonObject(block) || block.type !== 'tool-result' || block.isError !== true)
    throw new SessionFormatError(`${subject} carries error metadata for a non-error tool result`);
}
