// Messages written before messages had identities, upgraded as the v0 reader upgraded them: a bare
// user message gets an id and role, an assistant message `{content, provenance}` gets its wrapper, and
// a tool result `{callId, content, isError}` becomes a user message holding one tool-result block.
// A replacing tool result inherits the id of the message it replaces.
import { SessionFormatError } from '../../errors';
import { isJsonObject, jsonObject, templateString } from '../../json';
import type { FormatEvent } from '../../types';
import { legacyMessageId } from './legacy-events';

export function upgradeLegacyMessage(event: FormatEvent, sessionId: string, messageIds: ReadonlyMap<unknown, string>): FormatEvent {
  const data = jsonObject(event.data, `${templateString(event.type)} ${event.seq} data`);
  const has = (key: string): boolean => Object.hasOwn(data, key);
  switch (event.type) {
    case 'user/message':
      if (has('id') || has('role') || has('message') || !has('content') || !has('source')) return event;
      return { ...event, data: { ...data, id: legacyMessageId(sessionId, event.seq), role: 'user' } };
    case 'assistant/message': {
      if (has('message') || !has('content') || !has('provenance')) return event;
      const { content, provenance, ...eventData } = data;
      const source = jsonObject(provenance, `assistant/message ${event.seq} provenance`);
      return {
        ...event,
        data: {
          ...eventData,
          message: { id: legacyMessageId(sessionId, event.seq), role: 'assistant', content, source: { ...source, kind: 'model' } },
        },
      };
    }
    case 'tool/result': {
      if (has('message') || !has('callId') || !has('content') || !has('isError')) return event;
      const { callId, content, isError, ...eventData } = data;
      if (typeof callId !== 'string' || typeof isError !== 'boolean' || content === undefined) return event;
      const replaced = replacementStart(event);
      const messageId = replaced === undefined ? legacyMessageId(sessionId, event.seq) : messageIds.get(replaced);
      if (messageId === undefined) throw new SessionFormatError(`tool/result ${event.seq} replacement cites a message without identity`);
      return {
        ...event,
        data: {
          ...eventData,
          message: {
            id: messageId,
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: callId, content, isError }],
            source: { kind: 'tool', callId },
          },
        },
      };
    }
    default:
      return event;
  }
}

function replacementStart(event: FormatEvent): unknown {
  const operation = event.surfaceOp;
  if (!isJsonObject(operation) || operation['op'] !== 'replace') return undefined;
  return operation['start'];
}

/** The id of the message an event carries, if any (what a later replacement may inherit). */
export function eventMessageId(event: FormatEvent): string | undefined {
  const data = jsonObject(event.data, `${templateString(event.type)} ${event.seq} data`);
  const message = event.type === 'user/message' ? data : isJsonObject(data['message']) ? data['message'] : undefined;
  return typeof message?.['id'] === 'string' ? message['id'] : undefined;
}
