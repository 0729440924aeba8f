// Event-local checks dsh runs when it adopts and seeds stored events: the message shape of the three
// message events, the envelope, and the request header. Each returns dsh's message or undefined.
import { asRecord, isObjectLike } from './json-values';
import { messageOf } from '../vocabulary/messages';

export interface ShapeProblem {
  message: string;
  rule: string;
}

function hasProviderModel(value: unknown): boolean {
  if (!isObjectLike(value)) return false;
  return typeof value.provider === 'string' && value.provider.length > 0 && typeof value.model === 'string' && value.model.length > 0;
}

// A Map: event types are log text, and a plain object would answer `constructor` or `__proto__`.
const MESSAGE_RULE: ReadonlyMap<unknown, string> = new Map([
  ['user/message', 'message.user-shape'],
  ['assistant/message', 'message.assistant-shape'],
  ['tool/result', 'message.toolresult-shape'],
]);

/**
 * `subject` names the event in the message: given as its words and a number ("session event at seq"
 * and 12), so that the text is built only for a failing event (most events pass, and a seq turned
 * into a string per event is kept by the engine's number-string cache long enough to be promoted).
 */
export function checkMessageShape(event: Record<string, unknown>, subject: string, subjectNumber: number): ShapeProblem | undefined {
  const type = event.type as string;
  const rule = MESSAGE_RULE.get(type);
  if (!rule) return undefined;
  const problem = messageShapeProblem(event, type);
  return problem === undefined ? undefined : { message: `${subject} ${subjectNumber} ${problem}`, rule };
}

/** What is wrong with a message event's shape (dsh's words after the subject), or undefined. */
function messageShapeProblem(event: Record<string, unknown>, type: string): string | undefined {
  const message = messageOf(event as { type: unknown; data: unknown });
  if (!message || typeof message.id !== 'string' || message.id === '') return 'lacks an identified message';
  const role = type === 'assistant/message' ? 'assistant' : 'user';
  if (message.role !== role) return `message must have role "${role}"`;
  const source = message.source;
  if (!isObjectLike(source) || typeof source.kind !== 'string' || source.kind === '') return 'message has invalid source';
  if (!Array.isArray(message.content)) return 'message has invalid content';
  if (type === 'assistant/message') {
    if (source.kind !== 'model' || !hasProviderModel(source)) return 'message must have model source';
    return undefined;
  }
  if (type !== 'tool/result') return undefined;
  if (source.kind !== 'tool' || typeof source.callId !== 'string' || source.callId === '') return 'message must have tool source';
  const content = message.content as unknown[];
  const block = content[0];
  if (content.length !== 1 || !isObjectLike(block) || block.type !== 'tool-result' || !Array.isArray(block.content)) {
    return 'message must contain one tool-result block';
  }
  if (block.toolCallId !== source.callId) return 'message has mismatched tool call ids';
  return undefined;
}

const ENVELOPE_KEYS = new Set(['type', 'seq', 'time', 'data', 'surfaceOp', 'sourceEventSeqs', 'ignorable']);

/** ENVELOPE_KEYS.has(key), as a switch: parsed keys are interned strings, so each case is one comparison (this runs per key of every event). */
function isEnvelopeKey(key: string): boolean {
  switch (key) {
    case 'type':
    case 'seq':
    case 'time':
    case 'data':
    case 'surfaceOp':
    case 'sourceEventSeqs':
    case 'ignorable':
      return true;
    default:
      return false;
  }
}

function envelopeRule(event: Record<string, unknown>): string {
  for (const key of Object.keys(event)) if (!ENVELOPE_KEYS.has(key)) return 'envelope.allowed-keys';
  if (event.ignorable !== undefined && event.ignorable !== true) return 'envelope.ignorable';
  return 'envelope.field-types';
}

function checkRequestHeader(data: unknown, index: number): ShapeProblem | undefined {
  const record = isObjectLike(data) ? data : undefined;
  const header = asRecord(record?.header);
  const config = header?.config;
  const rule = 'request-header.shape';
  if (!hasProviderModel(config)) return { message: `seed request/header at index ${index} lacks provider/model`, rule };
  const configRecord = config as Record<string, unknown>;
  const effort = configRecord.reasoningEffort;
  if (effort !== undefined && (typeof effort !== 'string' || effort.length === 0)) {
    return { message: `seed request/header at index ${index} has an invalid reasoningEffort`, rule };
  }
  const defaults = header?.adapterDefaults;
  if (defaults === undefined) return undefined;
  const invalid = { message: `seed request/header at index ${index} has invalid adapterDefaults`, rule };
  const record2 = asRecord(defaults);
  if (!record2) return invalid;
  if (
    Object.keys(record2).some((k) => k !== 'reasoningEffort' && k !== 'maxTokens') ||
    Object.values(record2).some((v) => v !== true) ||
    (record2.reasoningEffort === true && configRecord.reasoningEffort === undefined) ||
    (record2.maxTokens === true && configRecord.maxTokens === undefined)
  )
    return invalid;
  return undefined;
}

/** dsh's envelope refusal of the event at `index` (a function, not a closure made for every event that passes). */
function invalidEnvelope(event: Record<string, unknown>, index: number): ShapeProblem {
  return { message: `seed event at index ${index} has an invalid event envelope`, rule: envelopeRule(event) };
}

/**
 * The seed boundary's envelope check (plus request/header and message shapes), as the constructor runs it.
 * `messageShapeChecked` skips the message check when the adopt step already checked the same object.
 */
export function checkSeedEnvelope(event: Record<string, unknown>, index: number, messageShapeChecked = false): ShapeProblem | undefined {
  if (event.type === 'request/header-delta') {
    return { message: `seed event at index ${index} uses unsupported legacy request/header-delta format`, rule: 'legacy.refused' };
  }
  for (const key in event) if (!isEnvelopeKey(key)) return invalidEnvelope(event, index);
  const { type, seq, time } = event;
  if (
    typeof type !== 'string' ||
    typeof seq !== 'number' ||
    !Number.isSafeInteger(seq) ||
    seq < 0 ||
    typeof time !== 'number' ||
    !Number.isSafeInteger(time) ||
    event.data === undefined ||
    (event.ignorable !== undefined && event.ignorable !== true)
  )
    return invalidEnvelope(event, index);
  if (type === 'request/header') {
    const problem = checkRequestHeader(event.data, index);
    if (problem) return problem;
  }
  if (!messageShapeChecked && MESSAGE_RULE.has(type)) return checkMessageShape(event, `seed ${type} at index`, index);
  return undefined;
}
