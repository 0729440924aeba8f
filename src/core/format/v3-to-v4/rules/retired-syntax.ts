// Retired syntax (spec §6): what v3 and earlier wrote and v4 no longer admits where it interprets it —
// a required PTC predecessor event, `request/header.header.system`, and a `tool-result` block. The
// check reads direct block tags only; arguments, replay state and extension payloads stay opaque.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../../errors';
import { isJsonObject } from '../../json';
import { stringText } from '../../../value-text';
import { RETIRED_DISPATCH_TYPES } from '../vocabulary';

function refuseWrapper(block: unknown, subject: string): void {
  if (isJsonObject(block) && block.type === 'tool-result')
    throw new SessionFormatError(`${subject} must not contain a released tool-result wrapper`);
}

function refuseInContent(content: unknown, subject: string): void {
  if (Array.isArray(content)) for (const block of content) refuseWrapper(block, subject);
}

function refuseInMessage(message: unknown, subject: string): void {
  if (isJsonObject(message)) refuseInContent(message.content, subject);
}

/** Throws when a row or event (a parsed object of any shape) uses syntax v4 retired. */
export function assertNoRetiredSyntax(row: unknown): void {
  if (!isJsonObject(row)) return;
  const type = row.type;
  if (typeof type === 'string' && RETIRED_DISPATCH_TYPES.has(type) && row.ignorable !== true) {
    throw new SessionFormatUnsupportedMigrationError(`format v4 rejects retired event type ${type}`);
  }
  const data = row.data;
  if (type === 'request/header') {
    if (!isJsonObject(data) || !isJsonObject(data.header))
      throw new SessionFormatError('format v4 request/header requires data and header objects');
    if (Object.hasOwn(data.header, 'system')) throw new SessionFormatError('format v4 request/header rejects retired header.system');
    return;
  }
  if (!isJsonObject(data)) return;
  // `seq` is not checked yet (admission runs before decoding), so it is written depth-safely.
  const subject = `format v4 ${stringText(type)} at seq ${stringText(row.seq)} content`;
  switch (type) {
    case 'user/message':
      refuseInContent(data.content, subject);
      break;
    case 'developer/message':
    case 'assistant/message':
    case 'team/message/queued':
      refuseInMessage(data.message, subject);
      break;
    case 'agent/inbox/spliced':
    case 'session/title-llm-request': {
      const messages = data[type === 'agent/inbox/spliced' ? 'inserted' : 'messages'];
      if (Array.isArray(messages)) for (const message of messages) refuseInMessage(message, subject);
      break;
    }
    case 'compaction/summary':
      refuseInContent(data.summary, subject);
      refuseInContent(data.rawOutput, subject);
      break;
    case 'tool/ptc-dispatch':
      refuseInContent(data.content, subject);
      break;
  }
  if ((type === 'assistant/message' || type === 'assistant/attempt') && Array.isArray(data.stream)) {
    for (const record of data.stream) {
      if (!isJsonObject(record) || record.type !== 'chunk' || !isJsonObject(record.chunk)) continue;
      const chunk = record.chunk;
      if (chunk.type === 'block-end') refuseWrapper(chunk.block, subject);
      if (chunk.type === 'block-start' && chunk.blockType === 'tool-result') {
        throw new SessionFormatError(`${subject} must not contain a released tool-result wrapper`);
      }
    }
  }
}
