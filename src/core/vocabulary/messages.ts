// What an event says, the same for every log generation: the message a message event carries, its
// content blocks, the tool result it holds, and whether the model sees a message for it. A log's
// generation shows in the shape of its events (a v4 tool result is a tool-role message; a v0–v3 one
// wraps a `tool-result` block), so these answers read the shape and never a version number.
import type { SessionEvent } from '../types';

/** Event types that carry a message (`user/message` is the message itself; the others hold `data.message`). */
export const MESSAGE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'user/message',
  'assistant/message',
  'tool/result',
  'system/message',
  'developer/message',
]);

type Loose = Record<string, any>;

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message an event carries, or undefined (not a message event, or no object where the message goes). */
export function messageOf(event: { type: unknown; data?: unknown } | undefined): Loose | undefined {
  if (!event || typeof event.type !== 'string' || !MESSAGE_EVENT_TYPES.has(event.type)) return undefined;
  const data = event.data;
  const message = event.type === 'user/message' ? data : isObject(data) ? data.message : undefined;
  return isObject(message) ? message : undefined;
}

/** A message's content blocks, or undefined when its content is not an array. */
export function contentOf(message: unknown): unknown[] | undefined {
  return isObject(message) && Array.isArray(message.content) ? message.content : undefined;
}

/** The tool result a `tool/result` event holds, in either of the two shapes dsh has written. */
export interface ToolResultView {
  /** The call it answers: the block's `toolCallId` (v0–v3) or the message's (v4). */
  callId: unknown;
  /** The call its message source names (`source.callId`), which dsh requires to equal `callId`. */
  sourceCallId: unknown;
  /** What the tool returned: the block's `content` (v0–v3) or the message's content blocks (v4). */
  content: unknown;
  isError: unknown;
  /** `block`: a `tool-result` block inside a user-role message; `tool-role`: a tool-role message. */
  form: 'block' | 'tool-role';
}

export function toolResultOf(event: { type: unknown; data?: unknown } | undefined): ToolResultView | undefined {
  if (event?.type !== 'tool/result') return undefined;
  const message = messageOf(event);
  if (!message) return undefined;
  const sourceCallId = isObject(message.source) ? message.source.callId : undefined;
  if (message.role === 'tool')
    return { callId: message.toolCallId, sourceCallId, content: message.content, isError: message.isError, form: 'tool-role' };
  const block = Array.isArray(message.content) ? message.content[0] : undefined;
  if (!isObject(block)) return { callId: undefined, sourceCallId, content: undefined, isError: undefined, form: 'block' };
  return { callId: block.toolCallId, sourceCallId, content: block.content, isError: block.isError, form: 'block' };
}

/** The ids of the tool calls an assistant message asks for (its `tool-call` blocks). */
export function toolCallIdsOf(event: { type: unknown; data?: unknown } | undefined): unknown[] {
  if (event?.type !== 'assistant/message') return [];
  const content = contentOf(messageOf(event));
  if (!content) return [];
  const ids: unknown[] = [];
  for (const block of content) if (isObject(block) && block.type === 'tool-call') ids.push(block.id);
  return ids;
}

/**
 * What the model sees for one surface node, or null: an assistant message or a system prompt with
 * empty content projects no message (an empty `system/message` head means "no system prompt").
 */
export function derivedMessageOf(event: SessionEvent): Loose | null {
  const message = messageOf(event);
  if (!message) return null;
  if (event.type === 'assistant/message' || event.type === 'system/message') {
    const content = message.content;
    if (Array.isArray(content) && content.length === 0) return null;
  }
  return message;
}
