// The per-event checks the installed session applies to a v4 log (spec §6): the envelope, surface
// metadata, each surface event's identified message, and the request header's fields. dsh words these
// in its core session, which no spec quotes; the wording here follows its v3 reader's, with "format
// v4" as subject (spec §6, a choice where the spec is silent).
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject, formatCount, formatSafeInteger, type JsonObject } from '../../json';
import { V4_MESSAGE_ROLES, V4_SURFACE_TYPES } from '../vocabulary';

const ENVELOPE_REQUIRED = ['type', 'seq', 'time', 'data'];
const ENVELOPE_ALLOWED: ReadonlySet<string> = new Set([...ENVELOPE_REQUIRED, 'surfaceOp', 'sourceEventSeqs', 'ignorable']);
const REQUEST_REASONS: ReadonlySet<unknown> = new Set(['initial', 'resume', 'change', 'series']);
const ADAPTER_DEFAULT_KEYS: ReadonlySet<string> = new Set(['reasoningEffort', 'maxTokens']);

/** The event as messages name it, written only for a refusal. */
type Subject = () => string;

function fail(subject: Subject, rule: string): never {
  throw new SessionFormatError(`${subject()} ${rule}`);
}

/** formatCount / formatSafeInteger with the label written only when they refuse. */
function count(value: unknown, subject: Subject, field: string): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && !Object.is(value, -0)
    ? (value as number)
    : formatCount(value, `${subject()} ${field}`);
}

function safeInteger(value: unknown, subject: Subject, field: string): number {
  return Number.isSafeInteger(value) && !Object.is(value, -0) ? (value as number) : formatSafeInteger(value, `${subject()} ${field}`);
}

/** `fieldsChecked`: the v2 layout's decoder checked the same required and allowed fields already. */
function checkEnvelope(event: FormatEvent, subject: Subject, fieldsChecked: boolean): void {
  const value = event as unknown as JsonObject;
  if (!fieldsChecked) {
    const missing = ENVELOPE_REQUIRED.find((key) => !Object.hasOwn(value, key));
    if (missing !== undefined) fail(subject, `lacks required field ${missing}`);
    const unexpected = Object.keys(value).find((key) => !ENVELOPE_ALLOWED.has(key));
    if (unexpected !== undefined) fail(subject, `has unexpected field ${unexpected}`);
  }
  if (typeof event.type !== 'string') fail(subject, 'type must be a string');
  count(event.seq, subject, 'seq');
  safeInteger(event.time, subject, 'time');
  if (Object.hasOwn(value, 'ignorable') && event.ignorable !== true) fail(subject, 'ignorable must be true when present');
}

function checkSurfaceMetadata(event: FormatEvent, subject: Subject): void {
  const value = event as unknown as JsonObject;
  if (!V4_SURFACE_TYPES.has(event.type)) {
    // A known log-only event is never on the surface, so it may carry neither field.
    for (const key of ['surfaceOp', 'sourceEventSeqs']) if (Object.hasOwn(value, key)) fail(subject, `has unexpected field ${key}`);
    return;
  }
  const operation = event.surfaceOp;
  if (operation === undefined) fail(subject, 'requires a surfaceOp marker');
  if (operation !== 'append') {
    const replace = isJsonObject(operation) ? operation : undefined;
    if (
      replace === undefined ||
      Object.keys(replace).length !== 3 ||
      replace.op !== 'replace' ||
      !Object.hasOwn(replace, 'startSeq') ||
      !Object.hasOwn(replace, 'endSeq')
    ) {
      fail(subject, 'requires exact replace fields op/startSeq/endSeq');
    }
    for (const key of ['startSeq', 'endSeq']) {
      if (count(replace[key], subject, `surfaceOp ${key}`) >= event.seq)
        fail(subject, 'replacement endpoints must reference earlier events');
    }
  }
  const sources = event.sourceEventSeqs as unknown;
  if (sources === undefined) return;
  if (event.type === 'assistant/message') fail(subject, 'embeds its stream and cannot carry sourceEventSeqs');
  if (!Array.isArray(sources) || sources.length === 0) fail(subject, 'sourceEventSeqs must be a non-empty array');
  const seen = new Set<number>();
  for (const source of sources) {
    const seq = count(source, subject, 'sourceEventSeqs member');
    if (seq >= event.seq || seen.has(seq)) fail(subject, 'sourceEventSeqs must be unique earlier seqs');
    seen.add(seq);
  }
}

function checkMessage(event: FormatEvent, subject: Subject): void {
  const role = V4_MESSAGE_ROLES.get(event.type);
  if (role === undefined) return;
  const data = isJsonObject(event.data) ? event.data : undefined;
  const message = event.type === 'user/message' ? data : data?.message;
  if (!isJsonObject(message) || typeof message.id !== 'string' || message.id === '') fail(subject, 'lacks an identified message');
  if (message.role !== role) fail(subject, `message must have role "${role}"`);
  const source = message.source;
  if (!isJsonObject(source) || typeof source.kind !== 'string' || source.kind === '') fail(subject, 'message has invalid source');
  if (!Array.isArray(message.content)) fail(subject, 'message has invalid content');
  if (event.type === 'system/message' && source.kind !== 'system-prompt') fail(subject, 'message must have system-prompt source');
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

function checkRequestHeader(event: FormatEvent, subject: Subject): void {
  if (event.type !== 'request/header') return;
  const data = isJsonObject(event.data) ? event.data : {};
  const header = isJsonObject(data.header) ? data.header : {};
  const config = isJsonObject(header.config) ? header.config : undefined;
  if (config === undefined || !isNonEmptyString(config.provider) || !isNonEmptyString(config.model)) fail(subject, 'lacks provider/model');
  if (config.reasoningEffort !== undefined && !isNonEmptyString(config.reasoningEffort)) fail(subject, 'has an invalid reasoningEffort');
  const defaults = header.adapterDefaults;
  if (defaults !== undefined) {
    const valid =
      isJsonObject(defaults) &&
      Object.keys(defaults).every((key) => ADAPTER_DEFAULT_KEYS.has(key) && defaults[key] === true) &&
      (defaults.reasoningEffort !== true || config.reasoningEffort !== undefined) &&
      (defaults.maxTokens !== true || config.maxTokens !== undefined);
    if (!valid) fail(subject, 'has invalid adapterDefaults');
  }
  if (!REQUEST_REASONS.has(data.reason)) fail(subject, 'has an invalid reason');
  if (data.startsSeries !== undefined && data.startsSeries !== true) fail(subject, 'has an invalid startsSeries marker');
  const emptyTools = Array.isArray(header.tools) && header.tools.length === 0;
  const emptyDefaults = isJsonObject(defaults) && Object.keys(defaults).length === 0;
  if (emptyTools || emptyDefaults) fail(subject, 'empty optional header fields must be omitted');
}

/**
 * Throws unless one event has the shape the installed session reads. An event of a type outside
 * `knownTypes` has its envelope checked and nothing else (it is opaque). `decoded`: the event comes
 * from the v4 codec, whose v2 layout refuses a row missing a required field or carrying another one.
 */
export function assertSessionEventShape(event: FormatEvent, knownTypes: ReadonlySet<string>, decoded = false): void {
  const subject = (): string => `format v4 ${String(event.type)} at seq ${String(event.seq)}`;
  checkEnvelope(event, subject, decoded);
  if (!knownTypes.has(event.type)) return;
  checkSurfaceMetadata(event, subject);
  checkMessage(event, subject);
  checkRequestHeader(event, subject);
}
