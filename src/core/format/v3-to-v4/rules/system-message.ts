// The fields of a v4 `system/message` (spec §6): positive turn and step, a nonempty id, role `system`,
// array content; known block kinds (text, reasoning, tool-call, image) have their fields checked, a
// retired `tool-result` block is refused, other kinds and extra JSON members are left alone.
import { SessionFormatError } from '../../errors';
import { isJsonObject, formatCount, type JsonObject } from '../../json';

const IMAGE_MEDIA_TYPES: ReadonlySet<unknown> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

function object(value: unknown, subject: string): JsonObject {
  if (!isJsonObject(value)) throw new SessionFormatError(`format v4 ${subject} requires an object`);
  return value;
}

function string(value: unknown, subject: string, nonempty = false): void {
  if (typeof value !== 'string' || (nonempty && value.length === 0)) {
    throw new SessionFormatError(`format v4 ${subject} requires a string${nonempty ? ' with content' : ''}`);
  }
}

function positive(value: unknown, subject: string): void {
  if (formatCount(value, subject) === 0) throw new SessionFormatError(`format v4 ${subject} must be positive`);
}

function checkImage(value: unknown): void {
  const attachment = object(value, 'system image attachment');
  string(attachment.attachmentId, 'system image attachmentId', true);
  if (!IMAGE_MEDIA_TYPES.has(attachment.mediaType)) throw new SessionFormatError('format v4 system image requires a supported mediaType');
  formatCount(attachment.bytes, 'system image bytes');
  positive(attachment.width, 'system image width');
  positive(attachment.height, 'system image height');
  if (attachment.name !== undefined) string(attachment.name, 'system image name');
  if (attachment.originalDimensions !== undefined) {
    const original = object(attachment.originalDimensions, 'system image originalDimensions');
    positive(original.width, 'system image original width');
    positive(original.height, 'system image original height');
  }
}

/** Throws unless a `system/message` row or event has v4's system fields. Other rows pass. */
export function assertSystemMessageFields(row: unknown): void {
  if (!isJsonObject(row) || row.type !== 'system/message') return;
  const data = object(row.data, 'system/message data');
  positive(data.turn, 'system/message turn');
  positive(data.step, 'system/message step');
  const message = object(data.message, 'system message');
  string(message.id, 'system message id', true);
  if (message.role !== 'system') throw new SessionFormatError('format v4 system message requires system role');
  if (!Array.isArray(message.content)) throw new SessionFormatError('format v4 system message requires content array');
  for (const value of message.content) {
    const block = object(value, 'system content block');
    string(block.type, 'system content type', true);
    switch (block.type) {
      case 'text':
      case 'reasoning':
        string(block.text, 'system content text');
        break;
      case 'tool-call':
        string(block.id, 'system tool-call id', true);
        string(block.name, 'system tool-call name', true);
        string(block.arguments, 'system tool-call arguments');
        break;
      case 'image':
        checkImage(block.attachment);
        break;
      case 'tool-result':
        throw new SessionFormatError('format v4 system content rejects retired tool-result wrappers');
    }
  }
}
