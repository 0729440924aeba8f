// Content blocks, image attachments, stream chunks, finish reasons, token usage and LLM failures.
import { SessionFormatError } from '../../errors';
import { assertExactKeys, jsonObject, jsonString } from '../../json';
import {
  arrayValue,
  booleanValue,
  countValue,
  exactRecord,
  finiteNumber,
  literalValue,
  nonEmptyString,
  positiveInteger,
  safeIntegerValue,
  stringValue,
} from './values';

/**
 * Tool results nest content blocks in content blocks. dsh walks them recursively (a value nested
 * deeper than its stack fails with the engine's error); here the nesting is bounded instead, with a
 * refusal of our own wording.
 */
export const MAX_CONTENT_NESTING = 1000;

export function contentBlocks(value: unknown, label: string, version: number, depth = 0): void {
  arrayValue(value, label, (member, memberLabel) => contentBlock(member, memberLabel, version, depth));
}

export function contentBlock(value: unknown, label: string, version: number, depth = 0): void {
  const block = jsonObject(value, label);
  switch (block['type']) {
    case 'text':
    case 'reasoning':
      assertExactKeys(block, ['type', 'text'], [], label);
      stringValue(block['text'], `${label} text`);
      return;
    case 'image':
      assertExactKeys(block, ['type', 'attachment'], [], label);
      imageAttachment(block['attachment'], `${label} attachment`);
      return;
    case 'tool-call':
      assertExactKeys(block, ['type', 'id', 'name', 'arguments'], [], label);
      nonEmptyString(block['id'], `${label} id`);
      nonEmptyString(block['name'], `${label} name`);
      stringValue(block['arguments'], `${label} arguments`);
      return;
    case 'tool-result':
      assertExactKeys(block, ['type', 'toolCallId', 'content'], ['isError'], label);
      nonEmptyString(block['toolCallId'], `${label} toolCallId`);
      if (depth >= MAX_CONTENT_NESTING)
        throw new SessionFormatError(`${label} nests tool results more than ${MAX_CONTENT_NESTING} levels deep`);
      contentBlocks(block['content'], `${label} content`, version, depth + 1);
      if (block['isError'] !== undefined) booleanValue(block['isError'], `${label} isError`);
      return;
    default:
      // Unknown kinds stay owner-opaque JSON; only a kind is required.
      nonEmptyString(block['type'], `${label} type`);
  }
}

function imageAttachment(value: unknown, label: string): void {
  const attachment = exactRecord(value, label, ['attachmentId', 'mediaType', 'bytes', 'width', 'height'], ['name', 'originalDimensions']);
  nonEmptyString(attachment['attachmentId'], `${label} attachmentId`);
  literalValue(attachment['mediaType'], ['image/png', 'image/jpeg', 'image/webp', 'image/gif'], `${label} mediaType`);
  countValue(attachment['bytes'], `${label} bytes`);
  positiveInteger(attachment['width'], `${label} width`);
  positiveInteger(attachment['height'], `${label} height`);
  if (attachment['name'] !== undefined) stringValue(attachment['name'], `${label} name`);
  if (attachment['originalDimensions'] !== undefined) {
    const dimensions = exactRecord(attachment['originalDimensions'], `${label} originalDimensions`, ['width', 'height']);
    positiveInteger(dimensions['width'], `${label} original width`);
    positiveInteger(dimensions['height'], `${label} original height`);
  }
}

export function tokenUsage(value: unknown, label: string): void {
  const usage = exactRecord(
    value,
    label,
    ['inputTokens', 'outputTokens'],
    ['totalTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'],
  );
  for (const key of Object.keys(usage)) countValue(usage[key], `${label} ${key}`);
}

export function llmFailure(value: unknown, label: string): void {
  const failure = exactRecord(value, label, ['message', 'code'], ['status', 'providerRetryAfterMs', 'requestId']);
  nonEmptyString(failure['message'], `${label} message`);
  nonEmptyString(failure['code'], `${label} code`);
  if (failure['status'] !== undefined) {
    const status = safeIntegerValue(failure['status'], `${label} status`);
    if (status < 100 || status > 599) throw new SessionFormatError(`${label} status must be 100 through 599`);
  }
  if (failure['providerRetryAfterMs'] !== undefined && finiteNumber(failure['providerRetryAfterMs'], `${label} providerRetryAfterMs`) <= 0)
    throw new SessionFormatError(`${label} providerRetryAfterMs must be positive`);
  if (failure['requestId'] !== undefined) nonEmptyString(failure['requestId'], `${label} requestId`);
}

/** One `assistant/chunk` stream chunk (a closed union: an unknown chunk type is refused). */
export function streamChunk(value: unknown, label: string): void {
  const chunk = jsonObject(value, label);
  switch (chunk['type']) {
    case 'block-start':
      assertExactKeys(chunk, ['type', 'index', 'blockType'], [], label);
      countValue(chunk['index'], `${label} index`);
      nonEmptyString(chunk['blockType'], `${label} blockType`);
      return;
    case 'text-delta':
    case 'reasoning-delta':
      assertExactKeys(chunk, ['type', 'index', 'text'], [], label);
      countValue(chunk['index'], `${label} index`);
      stringValue(chunk['text'], `${label} text`);
      return;
    case 'tool-call-delta':
      assertExactKeys(chunk, ['type', 'index', 'id', 'argumentsDelta'], ['name'], label);
      countValue(chunk['index'], `${label} index`);
      nonEmptyString(chunk['id'], `${label} id`);
      if (chunk['name'] !== undefined) stringValue(chunk['name'], `${label} name`);
      stringValue(chunk['argumentsDelta'], `${label} argumentsDelta`);
      return;
    case 'block-end':
      assertExactKeys(chunk, ['type', 'index', 'block'], [], label);
      countValue(chunk['index'], `${label} index`);
      contentBlock(chunk['block'], `${label} block`, 1);
      return;
    case 'usage':
      assertExactKeys(chunk, ['type', 'usage'], [], label);
      tokenUsage(chunk['usage'], `${label} usage`);
      return;
    case 'finish':
      assertExactKeys(chunk, ['type', 'reason'], ['replayState'], label);
      finishReason(chunk['reason'], `${label} reason`);
      if (chunk['replayState'] !== undefined) replayEnvelope(chunk['replayState'], `${label} replayState`);
      return;
    default:
      throw new SessionFormatError(`${label} has unknown stream chunk type ${jsonString(chunk['type'])}`);
  }
}

function finishReason(value: unknown, label: string): void {
  const reason = jsonObject(value, label);
  if (reason['kind'] === 'aborted' || reason['kind'] === 'error') {
    assertExactKeys(reason, ['kind', 'failure'], [], label);
    llmFailure(reason['failure'], `${label} failure`);
    return;
  }
  if (reason['kind'] === 'stop' || reason['kind'] === 'tool-calls' || reason['kind'] === 'max-tokens')
    assertExactKeys(reason, ['kind'], [], label);
  nonEmptyString(reason['kind'], `${label} kind`);
}

function replayEnvelope(value: unknown, label: string): void {
  const replay = exactRecord(value, label, ['response'], ['blocks']);
  if (replay['blocks'] !== undefined && !Array.isArray(replay['blocks'])) throw new SessionFormatError(`${label} blocks must be an array`);
}
