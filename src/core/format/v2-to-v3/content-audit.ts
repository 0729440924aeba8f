// The content audit of the v2→v3 migration: every content block in the positions it knows (message
// content, nested tool results, compaction summaries, stream block starts and ends) must be one of the
// audited kinds and valid as that kind. A kind the migration does not know refuses the migration
// rather than crossing into v3 unexamined.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import type { FormatEvent } from '../types';
import { formatCount, type JsonObject } from '../json';
import { objectAt, requireExactFields } from '../v1-to-v2/v2-checks';
import { assertPayloadSemantics } from '../v0-to-v1';
import { AUDITED_CONTENT_KINDS } from './v3-vocabulary';

function contentArray(value: unknown, label: string): unknown[] {
  if (!Array.isArray(value)) throw new SessionFormatError(`${label}: content must be an array`);
  return value;
}

/** Audits the content a v2 event owns, labelled `format v2 <type> at seq <n> data…`. */
export function auditEventContent(event: FormatEvent, data: JsonObject): void {
  const label = `format v2 ${event.type} at seq ${String(event.seq)} data`;
  switch (event.type) {
    case 'user/message':
    case 'tool/code-dispatch':
      auditBlocks(data.content, `${label}.content`);
      break;
    case 'assistant/message':
    case 'tool/result':
    case 'team/message/queued':
      auditBlocks(objectAt(data.message, `${label}.message`).content, `${label}.message.content`);
      break;
    case 'agent/inbox/spliced':
    case 'session/title-llm-request': {
      const field = event.type === 'agent/inbox/spliced' ? 'inserted' : 'messages';
      contentArray(data[field], `${label}.${field}`).forEach((message, index) => {
        const path = `${label}.${field}[${index}]`;
        auditBlocks(objectAt(message, path).content, `${path}.content`);
      });
      break;
    }
    case 'compaction/summary':
      auditBlocks(data.summary, `${label}.summary`);
      if (data.rawOutput !== undefined) auditBlocks(data.rawOutput, `${label}.rawOutput`);
      break;
  }
  if (event.type === 'assistant/message' || event.type === 'assistant/attempt') {
    contentArray(data.stream, `${label}.stream`).forEach((value, index) => {
      const path = `${label}.stream[${index}]`;
      const record = objectAt(value, path);
      if (record.type !== 'chunk') return;
      const chunk = objectAt(record.chunk, `${path}.chunk`);
      if (chunk.type === 'block-end') auditBlock(chunk.block, `${path}.chunk.block`);
      if (chunk.type === 'block-start') auditKind(chunk.blockType, `${path}.chunk.blockType`);
    });
  }
}

function auditKind(kind: unknown, label: string): void {
  if (typeof kind !== 'string' || !AUDITED_CONTENT_KINDS.has(kind))
    throw new SessionFormatUnsupportedMigrationError(
      `${label}: cannot safely transform unclassified message content kind ${String(JSON.stringify(kind))}`,
    );
}

function auditBlocks(content: unknown, label: string): void {
  contentArray(content, label).forEach((block, index) => auditBlock(block, `${label}[${index}]`));
}

function auditBlock(value: unknown, label: string): void {
  const block = objectAt(value, label);
  auditKind(block.type, label);
  if (block.type === 'tool-result') {
    if (!Array.isArray(block.content))
      throw new SessionFormatError(`${label}.content: invalid message content kind "tool-result": content must be an array`);
    auditBlocks(block.content, `${label}.content`);
  }
  if (block.type === 'file') {
    auditFileBlock(block, label);
    return;
  }
  // The block is checked as the released payload rules check a user message's content (a nested
  // tool result's own content was audited above, so it is left out of the probe).
  const probe: FormatEvent = {
    type: 'user/message',
    seq: 0,
    time: 0,
    data: {
      id: 'content-admission',
      role: 'user',
      source: { kind: 'user' },
      content: [block.type === 'tool-result' ? { ...block, content: [] } : block],
    },
  };
  try {
    assertPayloadSemantics(probe, 2);
  } catch (error) {
    throw new SessionFormatError(`${label}: invalid message content kind ${JSON.stringify(block.type)}: ${String(error)}`);
  }
}

function auditFileBlock(block: JsonObject, label: string): void {
  const subject = `${label} kind "file"`;
  requireExactFields(block, ['type', 'attachment'], [], subject);
  const attachment = objectAt(block.attachment, `${subject} attachment`);
  requireExactFields(attachment, ['attachmentId', 'name', 'bytes'], [], `${subject} attachment`);
  if (typeof attachment.attachmentId !== 'string' || attachment.attachmentId.length === 0 || typeof attachment.name !== 'string')
    throw new SessionFormatError(`${subject}: file attachment requires attachmentId and name`);
  formatCount(attachment.bytes, `${subject} attachment bytes`);
}
