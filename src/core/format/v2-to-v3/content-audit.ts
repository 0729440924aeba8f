// The content audit of the v2→v3 migration: every content block in the positions it knows (message
// content, nested tool results, compaction summaries, stream block starts and ends) must be one of the
// audited kinds and valid as that kind. A kind the migration does not know refuses the migration
// rather than crossing into v3 unexamined.
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import type { FormatEvent } from '../types';
import { formatCount, isJsonObject, jsonString, templateString, type JsonObject } from '../json';
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
      `${label}: cannot safely transform unclassified message content kind ${templateString(jsonString(kind))}`,
    );
}

/**
 * A block's place, rendered only for a message: nested tool results can be thousands of levels deep,
 * and building every level's label up front would cost the square of the depth.
 */
class BlockPath {
  constructor(
    private readonly parent: BlockPath | string,
    private readonly step: string,
  ) {}

  toString(): string {
    const steps: string[] = [];
    let at: BlockPath | string = this;
    while (at instanceof BlockPath) {
      steps.push(at.step);
      at = at.parent;
    }
    return at + steps.reverse().join('');
  }
}

type Label = BlockPath | string;

type Pending = { value: unknown; label: Label } | { probe: JsonObject; label: Label };

function auditBlocks(content: unknown, label: string): void {
  const work: Pending[] = [];
  pushBlocks(work, content, label);
  auditPending(work);
}

function auditBlock(value: unknown, label: string): void {
  auditPending([{ value, label }]);
}

function pushBlocks(work: Pending[], blocks: unknown, at: Label): void {
  if (!Array.isArray(blocks)) contentArray(blocks, String(at));
  const members = blocks as unknown[];
  for (let index = members.length - 1; index >= 0; index--) work.push({ value: members[index], label: new BlockPath(at, `[${index}]`) });
}

/**
 * Depth first, as a recursive walk would go (so the first refusal is the one dsh meets): a block's
 * nested content is audited before the block itself is checked against the payload rules. Labels are
 * rendered only for a refusal.
 */
function auditPending(work: Pending[]): void {
  while (work.length > 0) {
    const item = work.pop()!;
    if ('probe' in item) {
      probeBlock(item.probe, item.label);
      continue;
    }
    if (!isJsonObject(item.value)) objectAt(item.value, String(item.label));
    const block = item.value as JsonObject;
    if (typeof block.type !== 'string' || !AUDITED_CONTENT_KINDS.has(block.type)) auditKind(block.type, String(item.label));
    if (block.type === 'file') {
      auditFileBlock(block, item.label);
      continue;
    }
    work.push({ probe: block, label: item.label });
    if (block.type === 'tool-result') {
      if (!Array.isArray(block.content))
        throw new SessionFormatError(`${String(item.label)}.content: invalid message content kind "tool-result": content must be an array`);
      pushBlocks(work, block.content, new BlockPath(item.label, '.content'));
    }
  }
}

/**
 * The block checked as the released payload rules check a user message's content (a nested tool
 * result's own content was audited on its own, so it is left out of the probe).
 */
function probeBlock(block: JsonObject, label: Label): void {
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
    throw new SessionFormatError(`${String(label)}: invalid message content kind ${JSON.stringify(block.type)}: ${String(error)}`);
  }
}

function auditFileBlock(block: JsonObject, label: Label): void {
  const attachment = block.attachment;
  const wellFormed =
    Object.keys(block).length === 2 &&
    Object.hasOwn(block, 'attachment') &&
    isJsonObject(attachment) &&
    Object.keys(attachment).length === 3 &&
    ['attachmentId', 'name', 'bytes'].every((key) => Object.hasOwn(attachment, key));
  // Only a refusal needs the label; the checks below run again with it to word the first one found.
  const subject = wellFormed ? '' : `${String(label)} kind "file"`;
  if (!wellFormed) {
    requireExactFields(block, ['type', 'attachment'], [], subject);
    requireExactFields(objectAt(attachment, `${subject} attachment`), ['attachmentId', 'name', 'bytes'], [], `${subject} attachment`);
  }
  const file = attachment as JsonObject;
  if (typeof file.attachmentId !== 'string' || file.attachmentId.length === 0 || typeof file.name !== 'string')
    throw new SessionFormatError(`${String(label)} kind "file": file attachment requires attachmentId and name`);
  if (!Number.isSafeInteger(file.bytes) || (file.bytes as number) < 0 || Object.is(file.bytes, -0))
    formatCount(file.bytes, `${String(label)} kind "file" attachment bytes`);
}
