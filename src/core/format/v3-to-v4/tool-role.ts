// Tool results as tool-role messages (spec §5 "v3 → v4"; §6 tool/result rules). A v3 result is a
// user-role message holding one `tool-result` block; v4 lifts the block's call id, content and error
// flag onto the message itself, and the `tool-result` block leaves the content vocabulary.
import type { FormatEvent } from '../types';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import { isJsonObject, type JsonObject } from '../json';
import { stringText } from '../../value-text';

/** Members of the v3 wrapper block that v4 interprets; any other one is kept as `plugin:result:<name>`. */
const WRAPPER_MEMBERS: ReadonlySet<string> = new Set(['type', 'toolCallId', 'content', 'isError']);
/** Members of the v3 message that v4 interprets; any other one is kept as `plugin:message:<name>`. */
const MESSAGE_MEMBERS: ReadonlySet<string> = new Set(['id', 'role', 'source', 'content']);

/** Members outside `interpreted`, renamed under their owner so a message's and a block's never merge. */
function extensionMembers(value: JsonObject, interpreted: ReadonlySet<string>, owner: 'message' | 'result'): [string, unknown][] {
  return Object.entries(value)
    .filter(([key]) => !interpreted.has(key))
    .map(([key, member]) => [`plugin:${owner}:${key}`, member]);
}

function isToolResultBlock(block: unknown): boolean {
  return isJsonObject(block) && block.type === 'tool-result';
}

/**
 * The event with its v3 wrapper result lifted into a v4 tool-role message. Anything but a `tool/result`
 * whose message has role `user` is returned as is (the v4 rules judge it later). Spec §5 names the
 * members, not their order; the order here is that of dsh's converter (its v3-to-v4 tool-role.ts, read
 * in the repository the spec cites): role, source, toolCallId, content, isError, id, then the kept
 * extensions, message ones before result ones.
 */
export function liftToolResult(event: FormatEvent): FormatEvent {
  if (event.type !== 'tool/result' || !isJsonObject(event.data)) return event;
  const data = event.data;
  const message = data.message;
  if (!isJsonObject(message) || message.role !== 'user') return event;
  const subject = `format v3 ${event.type} at seq ${event.seq}`;
  const source = message.source;
  const callId = isJsonObject(source) ? source.callId : undefined;
  const content = message.content;
  const wrapper = Array.isArray(content) && content.length === 1 && isJsonObject(content[0]) ? (content[0] as JsonObject) : undefined;
  const id = message.id;
  if (
    typeof id !== 'string' ||
    id.length === 0 ||
    !isJsonObject(source) ||
    source.kind !== 'tool' ||
    typeof callId !== 'string' ||
    callId.length === 0 ||
    wrapper === undefined ||
    wrapper.type !== 'tool-result' ||
    wrapper.toolCallId !== callId
  ) {
    throw new SessionFormatError(`${subject} requires exactly one tool-result wrapper matching its tool source`);
  }
  const isError = wrapper.isError;
  if (isError !== undefined && typeof isError !== 'boolean') throw new SessionFormatError(`${subject} tool-result isError must be boolean`);
  const resultContent = wrapper.content;
  if (!Array.isArray(resultContent)) throw new SessionFormatError(`${subject} tool-result content must be an array`);
  if (resultContent.some(isToolResultBlock)) {
    throw new SessionFormatUnsupportedMigrationError(`${subject} contains a nested tool-result unsupported by this converter`);
  }
  const lifted = Object.fromEntries([
    ['role', 'tool'],
    ['source', source],
    ['toolCallId', callId],
    ['content', resultContent],
    ...(isError === undefined ? [] : [['isError', isError]]),
    ['id', id],
    ...extensionMembers(message, MESSAGE_MEMBERS, 'message'),
    ...extensionMembers(wrapper, WRAPPER_MEMBERS, 'result'),
  ]);
  return { ...event, data: { ...data, message: lifted } };
}

/** The v4 rule for a `tool/result`'s message (spec §6). Other events pass. */
export function assertToolRoleResult(event: FormatEvent): void {
  if (event.type !== 'tool/result') return;
  // Row admission calls this before decoding has checked `seq`: it is written depth-safely, and only for a refusal.
  const subject = (): string => `format v4 ${event.type} at seq ${stringText(event.seq)}`;
  const data = event.data;
  if (!isJsonObject(data)) throw new SessionFormatError(`${subject()} data must be an object`);
  const message = data.message;
  if (!isJsonObject(message)) throw new SessionFormatError(`${subject()} message must be an object`);
  const { id, role, toolCallId, source, isError, content } = message;
  if (typeof id !== 'string' || id.length === 0)
    throw new SessionFormatError(`${subject()} requires a first-class message with a string id`);
  if (role !== 'tool') throw new SessionFormatError(`${subject()} requires a tool-role message`);
  const sourceCallId = isJsonObject(source) ? source.callId : undefined;
  if (typeof toolCallId !== 'string' || toolCallId.length === 0 || sourceCallId !== toolCallId) {
    throw new SessionFormatError(`${subject()} requires toolCallId matching its tool source`);
  }
  if (!isJsonObject(source) || source.kind !== 'tool') throw new SessionFormatError(`${subject()} requires a tool source`);
  if (!Array.isArray(content)) throw new SessionFormatError(`${subject()} requires array content`);
  if (content.some(isToolResultBlock)) throw new SessionFormatError(`${subject()} content must not contain a released tool-result wrapper`);
  if (isError !== undefined && typeof isError !== 'boolean')
    throw new SessionFormatError(`${subject()} isError must be boolean when present`);
  if (data.error !== undefined && isError !== true)
    throw new SessionFormatError(`${subject()} carries error metadata for a non-error tool result`);
}
