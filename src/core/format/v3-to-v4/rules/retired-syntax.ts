// Retired syntax (spec §6): what v3 and earlier wrote and v4 no longer admits where it interprets it —
// a required PTC predecessor event, `request/header.header.system`, and a `tool-result` block. The
// check reads direct block tags only; arguments, replay state and extension payloads stay opaque.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';
import { stringText } from '../../../value-text';
import { RETIRED_DISPATCH_TYPES } from '../vocabulary';

function isWrapper(block: unknown): boolean {
  return isJsonObject(block) && block.type === 'tool-result';
}

function hasWrapper(content: unknown): boolean {
  return Array.isArray(content) && content.some(isWrapper);
}

function messageHasWrapper(message: unknown): boolean {
  return isJsonObject(message) && hasWrapper(message.content);
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
  if (retiredWrapperIn(type, data)) {
    // `seq` is not checked yet (admission runs before decoding), so it is written depth-safely.
    throw new SessionFormatError(
      `format v4 ${stringText(type)} at seq ${stringText(row.seq)} content must not contain a released tool-result wrapper`,
    );
  }
}

/** Whether the content v4 interprets in an event of `type` holds a released tool-result wrapper. */
function retiredWrapperIn(type: unknown, data: JsonObject): boolean {
  switch (type) {
    case 'user/message':
      if (hasWrapper(data.content)) return true;
      break;
    case 'developer/message':
    case 'assistant/message':
    case 'team/message/queued':
      if (messageHasWrapper(data.message)) return true;
      break;
    case 'agent/inbox/spliced':
    case 'session/title-llm-request': {
      const messages = data[type === 'agent/inbox/spliced' ? 'inserted' : 'messages'];
      if (Array.isArray(messages) && messages.some(messageHasWrapper)) return true;
      break;
    }
    case 'compaction/summary':
      if (hasWrapper(data.summary) || hasWrapper(data.rawOutput)) return true;
      break;
    case 'tool/ptc-dispatch':
      if (hasWrapper(data.content)) return true;
      break;
  }
  if ((type === 'assistant/message' || type === 'assistant/attempt') && Array.isArray(data.stream)) {
    for (const record of data.stream) {
      if (!isJsonObject(record) || record.type !== 'chunk' || !isJsonObject(record.chunk)) continue;
      const chunk = record.chunk;
      if (chunk.type === 'block-end' && isWrapper(chunk.block)) return true;
      if (chunk.type === 'block-start' && chunk.blockType === 'tool-result') return true;
    }
  }
  return false;
}
