// Extension data on the v3→v4 edge (spec §5 "v3 → v4"): a content block whose tag v3 did not define
// becomes `plugin:<tag>` (stream block starts too, in `blockType`), so an extension never takes on a
// meaning v4 gives a name; and a request tool with its own `deferLoading` is refused, because that
// member means something only from v4 on.
import type { FormatEvent } from '../types';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import { mapEventMessages } from './message-slots';
import { isJsonObject, type JsonObject } from '../json';

/** The content tags v3 defines; anything else is an extension. */
const V3_BLOCK_TYPES: ReadonlySet<string> = new Set(['text', 'reasoning', 'image', 'file', 'tool-call', 'tool-result']);

function namespacedBlock(block: unknown, subject: string): unknown {
  if (!isJsonObject(block) || typeof block.type !== 'string')
    throw new SessionFormatError(`${subject} requires content blocks with string type tags`);
  return V3_BLOCK_TYPES.has(block.type) ? block : { ...block, type: `plugin:${block.type}` };
}

/** A content array with extension tags namespaced (the same array when none is). */
function namespacedContent(content: unknown, subject: string): unknown[] {
  if (!Array.isArray(content)) throw new SessionFormatError(`${subject} content must be an array`);
  const mapped = content.map((block: unknown, index: number) => namespacedBlock(block, `${subject}[${index}]`));
  return mapped.every((block, index) => block === content[index]) ? content : mapped;
}

function namespacedMessage(message: JsonObject, subject: string): JsonObject {
  const content = namespacedContent(message.content, subject);
  return content === message.content ? message : { ...message, content };
}

/** One stream record's chunk with its block tag namespaced (only block starts and ends carry one). */
function namespacedChunk(chunk: unknown, subject: string): unknown {
  if (!isJsonObject(chunk)) return chunk;
  if (chunk.type === 'block-end') {
    const block = namespacedBlock(chunk.block, `${subject}.block`);
    return block === chunk.block ? chunk : { ...chunk, block };
  }
  if (chunk.type !== 'block-start') return chunk;
  const blockType = chunk.blockType;
  if (typeof blockType !== 'string') throw new SessionFormatError(`${subject} blockType must be a string`);
  return V3_BLOCK_TYPES.has(blockType) ? chunk : { ...chunk, blockType: `plugin:${blockType}` };
}

/** An embedded assistant stream with its block tags namespaced (the same array when none is). */
function namespacedStream(stream: unknown[], subject: string): unknown[] {
  let changed = false;
  const mapped = stream.map((record: unknown, index: number) => {
    if (!isJsonObject(record) || record.type !== 'chunk') return record;
    const chunk = namespacedChunk(record.chunk, `${subject}.stream[${index}]`);
    if (chunk === record.chunk) return record;
    changed = true;
    return { ...record, chunk };
  });
  return changed ? mapped : stream;
}

function refuseDeferLoading(data: JsonObject, subject: string): void {
  const header = data.header;
  if (!isJsonObject(header) || !Array.isArray(header.tools)) return;
  header.tools.forEach((tool: unknown, index: number) => {
    if (isJsonObject(tool) && Object.hasOwn(tool, 'deferLoading')) {
      throw new SessionFormatUnsupportedMigrationError(
        `${subject}.header.tools[${index}] contains deferLoading, which is only defined in V4`,
      );
    }
  });
}

/**
 * The event with every content tag in the positions v3 audits namespaced: the message slots, a
 * compaction summary and its raw output, a PTC dispatch's content, a queued team message, and the
 * block starts and ends of embedded assistant streams. Arguments, replay state and plugin fields are
 * never entered. Refuses a request tool carrying `deferLoading`.
 */
export function namespaceContentTags(event: FormatEvent): FormatEvent {
  const subject = `format v3 ${event.type} at seq ${event.seq}`;
  const withMessages = mapEventMessages(event, (message) => namespacedMessage(message, subject));
  if (!isJsonObject(withMessages.data)) return withMessages;
  const original = withMessages.data;
  let data = original;
  const namespaceField = (key: string): void => {
    const content = namespacedContent(data[key], `${subject}.${key}`);
    if (content !== data[key]) data = { ...data, [key]: content };
  };
  if (event.type === 'compaction/summary') {
    namespaceField('summary');
    if (data.rawOutput !== undefined) namespaceField('rawOutput');
  } else if (event.type === 'tool/ptc-dispatch') {
    namespaceField('content');
  } else if (event.type === 'team/message/queued' && isJsonObject(data.message)) {
    const message = namespacedMessage(data.message, subject);
    if (message !== data.message) data = { ...data, message };
  } else if (event.type === 'request/header') {
    refuseDeferLoading(data, subject);
  }
  if ((event.type === 'assistant/message' || event.type === 'assistant/attempt') && Array.isArray(data.stream)) {
    const stream = namespacedStream(data.stream, subject);
    if (stream !== data.stream) data = { ...data, stream };
  }
  return data === original ? withMessages : { ...withMessages, data };
}
