// Smaller payload records: requests, titles, subagents, teams, workflows, turn ends, shadowed spans.
import { SessionFormatError } from '../../errors';
import { assertExactKeys, jsonObject, type JsonObject } from '../../json';
import { contentBlocks, llmFailure } from './content';
import {
  arrayValue,
  earlierSeq,
  exactRecord,
  finiteNumber,
  literalValue,
  nonEmptyString,
  positiveInteger,
  seqArray,
  stringValue,
  countValue,
} from './values';

export function requestHeader(value: unknown, label: string): void {
  const header = exactRecord(value, label, ['config'], ['adapterDefaults', 'system', 'tools']);
  const config = exactRecord(
    header['config'],
    `${label} config`,
    ['provider', 'model'],
    ['reasoningEffort', 'temperature', 'maxTokens', 'stop'],
  );
  nonEmptyString(config['provider'], `${label} provider`);
  nonEmptyString(config['model'], `${label} model`);
  if (config['reasoningEffort'] !== undefined) nonEmptyString(config['reasoningEffort'], `${label} reasoningEffort`);
  if (config['temperature'] !== undefined) finiteNumber(config['temperature'], `${label} temperature`);
  if (config['maxTokens'] !== undefined) positiveInteger(config['maxTokens'], `${label} maxTokens`);
  if (config['stop'] !== undefined) arrayValue(config['stop'], `${label} stop`, stringValue);
  if (header['adapterDefaults'] !== undefined) {
    const defaults = exactRecord(header['adapterDefaults'], `${label} adapterDefaults`, [], ['reasoningEffort', 'maxTokens']);
    for (const [key, marker] of Object.entries(defaults)) {
      literalValue(marker, [true], `${label} adapterDefaults ${key}`);
      if (!Object.hasOwn(config, key)) throw new SessionFormatError(`${label} adapter default ${key} lacks config value`);
    }
  }
  if (header['system'] !== undefined) stringValue(header['system'], `${label} system`);
  if (header['tools'] !== undefined) arrayValue(header['tools'], `${label} tools`, toolSchema);
}

function toolSchema(value: unknown, label: string): void {
  const schema = exactRecord(value, label, ['name', 'description', 'parameters']);
  nonEmptyString(schema['name'], `${label} name`);
  stringValue(schema['description'], `${label} description`);
  jsonObject(schema['parameters'], `${label} parameters`);
}

/** `shadowedRange` and `shadowedSeqs` of a compaction summary or prune: earlier seqs, endpoints matching. */
export function shadowedSpan(data: JsonObject, eventSeq: number, label: string): void {
  const range = exactRecord(data['shadowedRange'], `${label} shadowedRange`, ['start', 'end']);
  const start = earlierSeq(range['start'], eventSeq, `${label} shadowedRange start`);
  const end = earlierSeq(range['end'], eventSeq, `${label} shadowedRange end`);
  const seqs = seqArray(data['shadowedSeqs'], eventSeq, `${label} shadowedSeqs`, true);
  if (seqs[0] !== start || seqs[seqs.length - 1] !== end)
    throw new SessionFormatError(`${label} shadowedRange must match shadowedSeqs endpoints`);
  countValue(data['shadowedTokenCount'], `${label} shadowedTokenCount`);
}

export function turnEndReason(value: unknown, label: string): void {
  const reason = jsonObject(value, label);
  switch (reason['kind']) {
    case 'completed':
    case 'blocked':
    case 'max-tokens':
    case 'interrupted':
      assertExactKeys(reason, ['kind'], [], label);
      return;
    case 'aborted': {
      assertExactKeys(reason, ['kind', 'reason'], [], label);
      const cause = jsonObject(reason['reason'], `${label} abort cause`);
      if (cause['kind'] === 'hook') {
        assertExactKeys(cause, ['kind', 'reason'], [], `${label} abort cause`);
        stringValue(cause['reason'], `${label} abort reason`);
      } else {
        assertExactKeys(cause, ['kind'], [], `${label} abort cause`);
        literalValue(cause['kind'], ['user', 'parent', 'disposed', 'legacy'], `${label} abort kind`);
      }
      return;
    }
    case 'error':
      assertExactKeys(reason, ['kind', 'error'], [], label);
      llmFailure(reason['error'], `${label} error`);
      return;
    default:
      nonEmptyString(reason['kind'], `${label} kind`);
  }
}

export function titleSource(value: unknown, label: string): void {
  const source = jsonObject(value, label);
  if (source['kind'] === 'provider') {
    assertExactKeys(source, ['kind', 'provider'], ['model'], label);
    nonEmptyString(source['provider'], `${label} provider`);
    if (source['model'] !== undefined) modelRoute(source['model'], `${label} model`);
    return;
  }
  assertExactKeys(source, ['kind'], [], label);
  literalValue(source['kind'], ['fallback', 'user'], `${label} kind`);
}

export function modelRoute(value: unknown, label: string): void {
  const route = exactRecord(value, label, ['provider', 'model']);
  nonEmptyString(route['provider'], `${label} provider`);
  nonEmptyString(route['model'], `${label} model`);
}

export function subagentDescriptor(data: JsonObject, label: string): void {
  literalValue(data['version'], [3], `${label} version`);
  nonEmptyString(data['provider'], `${label} provider`);
  if (data['mode'] === 'one-shot') {
    assertExactKeys(data, ['mode', 'version', 'provider'], ['label'], `${label} data`);
    if (data['label'] !== undefined) stringValue(data['label'], `${label} label`);
    return;
  }
  literalValue(data['mode'], ['continuable'], `${label} mode`);
  nonEmptyString(data['label'], `${label} label`);
  for (const key of ['agentProvider', 'agentModel', 'agentReasoningEffort', 'persona'])
    if (data[key] !== undefined) nonEmptyString(data[key], `${label} ${key}`);
  if ((data['agentProvider'] === undefined) !== (data['agentModel'] === undefined))
    throw new SessionFormatError(`${label} agentProvider and agentModel must be paired`);
  if (data['toolFilter'] !== undefined) {
    const filter = exactRecord(data['toolFilter'], `${label} toolFilter`, [], ['allow', 'deny']);
    if (filter['allow'] === undefined && filter['deny'] === undefined)
      throw new SessionFormatError(`${label} toolFilter requires allow or deny`);
    if (filter['allow'] !== undefined) arrayValue(filter['allow'], `${label} allow`, nonEmptyString);
    if (filter['deny'] !== undefined) arrayValue(filter['deny'], `${label} deny`, nonEmptyString);
  }
}

export function allowedModels(value: unknown, label: string): void {
  const seen = new Set<string>();
  const routes = arrayValue(value, label, (member, memberLabel) => {
    const route = exactRecord(member, memberLabel, ['provider', 'model']);
    nonEmptyString(route['provider'], `${memberLabel} provider`);
    nonEmptyString(route['model'], `${memberLabel} model`);
    const key = `${route['provider'] as string}\0${route['model'] as string}`;
    if (seen.has(key)) throw new SessionFormatError(`${label} repeats route ${key}`);
    seen.add(key);
  });
  if (routes.length === 0) throw new SessionFormatError(`${label} must be non-empty`);
}

export function teamSelector(data: JsonObject, label: string): void {
  literalValue(data['version'], [1], `${label} version`);
  nonEmptyString(data['teamId'], `${label} teamId`);
}

export function teamMember(value: unknown, label: string): void {
  const member = exactRecord(value, label, ['id', 'name', 'description', 'provider', 'context', 'phase'], ['error']);
  nonEmptyString(member['id'], `${label} id`);
  stringValue(member['name'], `${label} name`);
  stringValue(member['description'], `${label} description`);
  stringValue(member['provider'], `${label} provider`);
  literalValue(member['context'], ['fresh', 'fork'], `${label} context`);
  literalValue(member['phase'], ['provisioning', 'active', 'failed'], `${label} phase`);
  if (member['error'] !== undefined) stringValue(member['error'], `${label} error`);
}

export function teamTask(value: unknown, label: string): void {
  const task = exactRecord(value, label, ['id', 'revision', 'subject', 'description', 'status', 'blockedBy', 'writeScopes'], ['ownerId']);
  nonEmptyString(task['id'], `${label} id`);
  positiveInteger(task['revision'], `${label} revision`);
  stringValue(task['subject'], `${label} subject`);
  stringValue(task['description'], `${label} description`);
  literalValue(task['status'], ['pending', 'in_progress', 'completed', 'deleted'], `${label} status`);
  if (task['ownerId'] !== undefined) nonEmptyString(task['ownerId'], `${label} ownerId`);
  arrayValue(task['blockedBy'], `${label} blockedBy`, nonEmptyString);
  arrayValue(task['writeScopes'], `${label} writeScopes`, stringValue);
}

export function teamMessage(value: unknown, label: string, version: number): void {
  const message = exactRecord(value, label, ['id', 'senderId', 'senderName', 'targetId', 'delivery', 'content']);
  for (const key of ['id', 'senderId', 'targetId']) nonEmptyString(message[key], `${label} ${key}`);
  stringValue(message['senderName'], `${label} senderName`);
  literalValue(message['delivery'], ['quiet', 'wakeup'], `${label} delivery`);
  contentBlocks(message['content'], `${label} content`, version);
}

export function workflowIdentity(data: JsonObject, label: string): void {
  nonEmptyString(data['runId'], `${label} runId`);
  positiveInteger(data['seq'], `${label} seq`);
}

export function deepSeekSearchBody(value: unknown, label: string): void {
  const body = exactRecord(value, label, ['model', 'max_tokens', 'messages', 'tools']);
  nonEmptyString(body['model'], `${label} model`);
  positiveInteger(body['max_tokens'], `${label} max_tokens`);
  const messages = arrayValue(body['messages'], `${label} messages`, (member, memberLabel) => {
    const message = exactRecord(member, memberLabel, ['role', 'content']);
    literalValue(message['role'], ['user'], `${memberLabel} role`);
    const blocks = arrayValue(message['content'], `${memberLabel} content`, (block, blockLabel) => {
      const text = exactRecord(block, blockLabel, ['type', 'text']);
      literalValue(text['type'], ['text'], `${blockLabel} type`);
      stringValue(text['text'], `${blockLabel} text`);
    });
    if (blocks.length !== 1) throw new SessionFormatError(`${memberLabel} content must contain one text block`);
  });
  if (messages.length !== 1) throw new SessionFormatError(`${label} messages must contain one user message`);
  const tools = arrayValue(body['tools'], `${label} tools`, (member, memberLabel) => {
    const tool = exactRecord(member, memberLabel, ['type', 'name', 'max_uses']);
    literalValue(tool['type'], ['web_search_20250305'], `${memberLabel} type`);
    literalValue(tool['name'], ['web_search'], `${memberLabel} name`);
    positiveInteger(tool['max_uses'], `${memberLabel} max_uses`);
  });
  if (tools.length !== 1) throw new SessionFormatError(`${label} tools must contain one web search tool`);
}
