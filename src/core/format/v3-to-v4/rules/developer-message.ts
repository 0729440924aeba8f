// `developer/message` and tool-change blocks (spec §5 "New in v4", §6): a developer-role message whose
// `tool-addition` / `tool-removal` blocks name a tool; additions bind to an earlier request/header by
// `headerSeq` (checked with the relationships, which can see that header). Tool-change blocks belong
// to developer messages only, and a request tool's `deferLoading` must be exactly true.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject, formatCount, type JsonObject } from '../../json';

function isToolChange(block: unknown): block is JsonObject {
  return isJsonObject(block) && (block.type === 'tool-addition' || block.type === 'tool-removal');
}

function checkToolChange(block: unknown, inDeveloperMessage: boolean): void {
  if (!isToolChange(block)) return;
  if (!inDeveloperMessage) throw new SessionFormatError(`format v4 ${String(block.type)} requires developer role`);
  if (typeof block.toolName !== 'string' || block.toolName.length === 0) {
    throw new SessionFormatError(`format v4 ${String(block.type)} requires a nonempty toolName`);
  }
  if (block.type === 'tool-addition' && Object.hasOwn(block, 'tool'))
    throw new SessionFormatError('format v4 tool-addition must omit inline tool definitions');
}

function checkContent(content: unknown, inDeveloperMessage = false): void {
  if (Array.isArray(content)) for (const block of content) checkToolChange(block, inDeveloperMessage);
}

/** An ordinary message may hold neither the developer role nor tool-change blocks. */
function checkOrdinaryMessage(message: unknown): void {
  if (!isJsonObject(message)) return;
  if (message.role === 'developer') throw new SessionFormatError('format v4 developer/message and developer role must occur together');
  checkContent(message.content);
}

function checkDeveloperEvent(data: JsonObject): void {
  const message = data.message;
  if (!isJsonObject(message) || message.role !== 'developer') {
    throw new SessionFormatError('format v4 developer/message requires turn, step, and a developer message');
  }
  for (const field of ['turn', 'step']) {
    if (formatCount(data[field], `developer/message ${field}`) === 0)
      throw new SessionFormatError(`developer/message ${field} must be positive`);
  }
  checkContent(message.content, true);
  const source = message.source;
  if (
    typeof message.id !== 'string' ||
    message.id.length === 0 ||
    !Array.isArray(message.content) ||
    !isJsonObject(source) ||
    typeof source.kind !== 'string' ||
    source.kind.length === 0 ||
    source.kind === 'plugin'
  ) {
    throw new SessionFormatError('format v4 developer message requires id, role, content, and a producer-owned source');
  }
  if (message.content.some((block: unknown) => isJsonObject(block) && block.type === 'tool-addition')) {
    formatCount(data.headerSeq, 'developer/message headerSeq');
  } else if (Object.hasOwn(data, 'headerSeq')) {
    throw new SessionFormatError('format v4 developer/message must omit headerSeq without tool additions');
  }
}

/**
 * Throws unless the row or event keeps v4's developer rules: a developer message's own fields,
 * tool-change blocks only in developer messages (never in other slots, compaction output, or embedded
 * stream block records), and `deferLoading: true` only.
 */
export function assertDeveloperRules(event: FormatEvent): void {
  const data = event.data;
  if (!isJsonObject(data)) {
    if (event.type === 'developer/message') throw new SessionFormatError('format v4 developer/message data must be an object');
    return;
  }
  switch (event.type) {
    case 'developer/message':
      checkDeveloperEvent(data);
      break;
    case 'user/message':
      checkOrdinaryMessage(data);
      break;
    case 'system/message':
    case 'assistant/message':
    case 'tool/result':
      checkOrdinaryMessage(data.message);
      break;
    case 'agent/inbox/spliced':
    case 'session/title-llm-request': {
      const messages = data[event.type === 'agent/inbox/spliced' ? 'inserted' : 'messages'];
      if (Array.isArray(messages)) messages.forEach(checkOrdinaryMessage);
      break;
    }
    case 'compaction/summary':
      checkContent(data.summary);
      checkContent(data.rawOutput);
      break;
    case 'request/header':
      checkDeferLoading(data);
      break;
  }
  if ((event.type === 'assistant/message' || event.type === 'assistant/attempt') && Array.isArray(data.stream)) checkStream(data.stream);
}

function checkStream(stream: unknown[]): void {
  for (const record of stream) {
    if (!isJsonObject(record) || record.type !== 'chunk' || !isJsonObject(record.chunk)) continue;
    const chunk = record.chunk;
    if (chunk.type === 'block-end') checkToolChange(chunk.block, false);
    if (chunk.type === 'block-start' && (chunk.blockType === 'tool-addition' || chunk.blockType === 'tool-removal')) {
      throw new SessionFormatError('format v4 tool-change blocks require developer role');
    }
  }
}

function checkDeferLoading(data: JsonObject): void {
  const header = data.header;
  if (!isJsonObject(header) || !Array.isArray(header.tools)) return;
  for (const tool of header.tools) {
    if (isJsonObject(tool) && Object.hasOwn(tool, 'deferLoading') && tool.deferLoading !== true) {
      throw new SessionFormatError('format v4 tool deferLoading must be true when present');
    }
  }
}
