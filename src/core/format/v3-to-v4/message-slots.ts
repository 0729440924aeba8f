// The message positions the v3→v4 edge and the v4 rules interpret (spec §5 "Message sources": only
// the listed slots are visited, never a recursive search). Other payloads stay opaque even when
// they hold something that looks like a message.
import type { FormatEvent } from '../types';
import { SessionFormatError } from '../errors';
import { isJsonObject, type JsonObject } from '../json';

/** Events whose `data.message` is the message; a `user/message`'s data is the message itself. */
const NESTED_MESSAGE_TYPES: ReadonlySet<string> = new Set(['developer/message', 'system/message', 'assistant/message', 'tool/result']);

/** Events that carry a list of messages, and where the list is. */
const MESSAGE_LISTS: ReadonlyMap<string, string> = new Map([
  ['agent/inbox/spliced', 'inserted'],
  ['session/title-llm-request', 'messages'],
]);

/**
 * Passes every message of the event's slots through `transform` and returns the event with the
 * results. An event whose messages all come back unchanged is returned as is (the same object), so
 * a caller can tell cheaply that nothing moved. Throws when a slot that must hold a message does not.
 */
export function mapEventMessages(event: FormatEvent, transform: (message: JsonObject) => JsonObject): FormatEvent {
  const data = event.data;
  if (!isJsonObject(data)) return event;
  if (event.type === 'user/message') {
    const message = transform(data);
    return message === data ? event : { ...event, data: message };
  }
  if (NESTED_MESSAGE_TYPES.has(event.type)) {
    const message = data.message;
    if (!isJsonObject(message)) throw new SessionFormatError(`${event.type} requires a message`);
    const mapped = transform(message);
    return mapped === message ? event : { ...event, data: { ...data, message: mapped } };
  }
  const key = MESSAGE_LISTS.get(event.type);
  if (key === undefined) return event;
  const list = data[key];
  if (!Array.isArray(list)) throw new SessionFormatError(`${event.type} requires message array`);
  let changed = false;
  const mapped = list.map((message: unknown) => {
    if (!isJsonObject(message)) throw new SessionFormatError(`${event.type} requires message objects`);
    const next = transform(message);
    if (next !== message) changed = true;
    return next;
  });
  return changed ? { ...event, data: { ...data, [key]: mapped } } : event;
}

/**
 * Visits the messages of an event's slots, for checks that only read them. Throws, before visiting
 * any, when a slot that must hold a message does not (as `mapEventMessages` does); no list is built
 * per event, since the v4 relationships read every event's messages.
 */
export function forEachEventMessage(event: FormatEvent, visit: (message: JsonObject) => void): void {
  const data = event.data;
  if (!isJsonObject(data)) return;
  if (event.type === 'user/message') return visit(data);
  if (NESTED_MESSAGE_TYPES.has(event.type)) {
    const message = data.message;
    if (!isJsonObject(message)) throw new SessionFormatError(`${event.type} requires a message`);
    return visit(message);
  }
  const key = MESSAGE_LISTS.get(event.type);
  if (key === undefined) return;
  const list = data[key];
  if (!Array.isArray(list)) throw new SessionFormatError(`${event.type} requires message array`);
  for (const message of list) if (!isJsonObject(message)) throw new SessionFormatError(`${event.type} requires message objects`);
  for (const message of list) visit(message as JsonObject);
}
