// Messages (user, assistant, tool results) and their sources.
import { SessionFormatError } from '../../errors';
import { assertExactKeys, jsonEqual, jsonObject, type JsonObject } from '../../json';
import { contentBlocks } from './content';
import { goalChange } from './goals';
import { arrayValue, booleanValue, countValue, exactRecord, literalValue, nonEmptyString, positiveInteger, stringValue } from './values';

/** The role a slot expects: an assistant message, a user message, a tool result (a user message holding one tool-result block), or any. */
export type MessageSlot = 'assistant' | 'user' | 'tool' | undefined;

export function messageValue(value: unknown, label: string, version: number, expected?: MessageSlot): void {
  const message = exactRecord(value, label, ['id', 'role', 'content', 'source']);
  nonEmptyString(message['id'], `${label} id`);
  const role = expected === 'assistant' ? 'assistant' : expected === 'user' || expected === 'tool' ? 'user' : undefined;
  if (role === undefined) literalValue(message['role'], ['system', 'user', 'assistant'], `${label} role`);
  else literalValue(message['role'], [role], `${label} role`);
  contentBlocks(message['content'], `${label} content`, version);
  const source = jsonObject(message['source'], `${label} source`);
  if (version < 2 && expected === 'user' && source['kind'] === 'goal' && source['change'] !== undefined)
    legacyGoalMessage(message, source, label);
  else messageSource(source, `${label} source`, version, expected);
  if (expected === 'tool') {
    const content = message['content'];
    const block = Array.isArray(content) && content.length === 1 ? jsonObject(content[0], `${label} tool result`) : undefined;
    if (block?.['type'] !== 'tool-result' || block['toolCallId'] !== source['callId'])
      throw new SessionFormatError(`${label} must contain exactly one tool-result block`);
  }
}

/** A round-zero goal message of v0/v1, whose source still carries the goal change it announces. */
function legacyGoalMessage(message: JsonObject, source: JsonObject, label: string): void {
  assertExactKeys(source, ['kind', 'goalId', 'revision', 'round', 'change'], [], `${label} source`);
  nonEmptyString(source['goalId'], `${label} source goalId`);
  positiveInteger(source['revision'], `${label} source revision`);
  if (source['round'] !== 0) throw new SessionFormatError(`${label} legacy goal source round must be 0`);
  const change = jsonObject(source['change'], `${label} source change`);
  goalChange(change, `${label} source change`);
  const cleared = change['operation'] === 'clear';
  const ref = jsonObject(cleared ? change['cleared'] : change['goal'], `${label} source change ref`);
  if (source['goalId'] !== ref['id'] || source['revision'] !== ref['revision'])
    throw new SessionFormatError(`${label} legacy goal source does not match its change`);
  const state = cleared
    ? { cleared: change['cleared'], clearedAt: change['clearedAt'] }
    : { goal: change['goal'], roundsStarted: change['roundsStarted'], createdAt: change['createdAt'], updatedAt: change['updatedAt'] };
  const expected = [{ type: 'text', text: `<goal_state>${JSON.stringify(state)}</goal_state>` }];
  if (!jsonEqual(message['content'], expected)) throw new SessionFormatError(`${label} legacy goal content does not match its change`);
}

function messageSource(value: unknown, label: string, version: number, expected: MessageSlot): void {
  const source = jsonObject(value, label);
  if (expected === 'assistant' && source['kind'] !== 'model') throw new SessionFormatError(`${label} must be model source`);
  if (expected === 'tool' && source['kind'] !== 'tool') throw new SessionFormatError(`${label} must be tool source`);
  switch (source['kind']) {
    case 'user':
      assertExactKeys(source, ['kind'], ['rpcId', 'clientTimeZone'], label);
      if (source['rpcId'] !== undefined) nonEmptyString(source['rpcId'], `${label} rpcId`);
      if (source['clientTimeZone'] !== undefined) nonEmptyString(source['clientTimeZone'], `${label} clientTimeZone`);
      return;
    case 'plugin':
      pluginSource(source, label);
      return;
    case 'model':
      assertExactKeys(source, ['kind', 'provider', 'model'], ['replayState'], label);
      nonEmptyString(source['provider'], `${label} provider`);
      nonEmptyString(source['model'], `${label} model`);
      return;
    case 'tool':
      assertExactKeys(source, ['kind', 'callId'], [], label);
      nonEmptyString(source['callId'], `${label} callId`);
      return;
    case 'agent-instructions':
      agentInstructionsSource(source, label);
      return;
    case 'session-reference':
      sessionReferenceSource(source, label, version);
      return;
    case 'team-message':
      assertExactKeys(source, ['kind', 'teamId', 'messageId', 'senderId', 'senderName'], [], label);
      for (const key of ['teamId', 'messageId', 'senderId']) nonEmptyString(source[key], `${label} ${key}`);
      stringValue(source['senderName'], `${label} senderName`);
      return;
    case 'goal':
      assertExactKeys(source, ['kind', 'goalId', 'revision', 'round'], [], label);
      nonEmptyString(source['goalId'], `${label} goalId`);
      positiveInteger(source['revision'], `${label} revision`);
      positiveInteger(source['round'], `${label} round`);
      return;
    case 'skill-invocation':
      assertExactKeys(source, ['kind', 'name', 'form'], [], label);
      nonEmptyString(source['name'], `${label} name`);
      literalValue(source['form'], ['instructions'], `${label} form`);
      return;
    case 'skill-catalog':
      assertExactKeys(source, ['kind', 'form', 'entries'], ['update'], label);
      literalValue(source['form'], ['catalog'], `${label} form`);
      if (source['update'] !== undefined) literalValue(source['update'], [true], `${label} update`);
      arrayValue(source['entries'], `${label} entries`, (member, memberLabel) => {
        const entry = exactRecord(member, memberLabel, ['name', 'description']);
        nonEmptyString(entry['name'], `${memberLabel} name`);
        stringValue(entry['description'], `${memberLabel} description`);
      });
      return;
    case 'coordinator':
    case 'subagent-report':
      assertExactKeys(source, ['kind', 'form', 'senderSessionId'], [], label);
      literalValue(source['form'], ['relay'], `${label} form`);
      nonEmptyString(source['senderSessionId'], `${label} senderSessionId`);
      return;
    case 'subagent-settled':
      assertExactKeys(source, ['kind', 'form', 'summary', 'senderSessionId'], [], label);
      literalValue(source['form'], ['notice'], `${label} form`);
      stringValue(source['summary'], `${label} summary`);
      nonEmptyString(source['senderSessionId'], `${label} senderSessionId`);
      return;
    case 'webhook':
      assertExactKeys(source, ['kind', 'provider', 'source', 'deliveryId', 'ruleId', 'form', 'summary'], [], label);
      for (const key of ['provider', 'source', 'deliveryId', 'ruleId']) nonEmptyString(source[key], `${label} ${key}`);
      literalValue(source['form'], ['notice'], `${label} form`);
      stringValue(source['summary'], `${label} summary`);
      return;
    default:
      // Other kinds are owner-opaque; only a kind is required.
      nonEmptyString(source['kind'], `${label} kind`);
  }
}

function agentInstructionsSource(source: JsonObject, label: string): void {
  assertExactKeys(source, ['kind', 'form', 'changes'], ['baseline', 'baselineIdentity'], label);
  literalValue(source['form'], ['instructions'], `${label} form`);
  if (source['baseline'] !== undefined) literalValue(source['baseline'], [true], `${label} baseline`);
  if (source['baselineIdentity'] !== undefined) nonEmptyString(source['baselineIdentity'], `${label} baselineIdentity`);
  arrayValue(source['changes'], `${label} changes`, (member, memberLabel) => {
    const change = exactRecord(member, memberLabel, ['action', 'scope', 'path'], ['digest']);
    literalValue(change['action'], ['set', 'replace', 'remove'], `${memberLabel} action`);
    stringValue(change['scope'], `${memberLabel} scope`);
    stringValue(change['path'], `${memberLabel} path`);
    if (change['digest'] !== undefined) stringValue(change['digest'], `${memberLabel} digest`);
  });
}

function pluginSource(source: JsonObject, label: string): void {
  const optional = ['form', 'sections', 'summary'];
  const compact = source['plugin'] === 'compact';
  if (compact) optional.push('compactionId', 'sourceCommandId');
  assertExactKeys(source, ['kind', 'plugin'], optional, label);
  nonEmptyString(source['plugin'], `${label} plugin`);
  if (compact) {
    nonEmptyString(source['compactionId'], `${label} compactionId`);
    if (source['sourceCommandId'] !== undefined) nonEmptyString(source['sourceCommandId'], `${label} sourceCommandId`);
  }
  const form = source['form'];
  if (form === undefined) return;
  literalValue(form, ['instructions', 'catalog', 'snapshot', 'notice', 'relay', 'recall'], `${label} form`);
  if (form === 'snapshot')
    arrayValue(source['sections'], `${label} sections`, (member, memberLabel) => {
      const section = exactRecord(member, memberLabel, ['name', 'text']);
      nonEmptyString(section['name'], `${memberLabel} name`);
      stringValue(section['text'], `${memberLabel} text`);
    });
  else if (source['sections'] !== undefined) throw new SessionFormatError(`${label} sections require snapshot form`);
  if (form === 'notice') stringValue(source['summary'], `${label} summary`);
  else if (source['summary'] !== undefined) throw new SessionFormatError(`${label} summary requires notice form`);
}

function sessionReferenceSource(source: JsonObject, label: string, version: number): void {
  assertExactKeys(source, ['kind', 'form', 'version', 'references'], [], label);
  literalValue(source['form'], ['recall'], `${label} form`);
  literalValue(source['version'], [1], `${label} version`);
  let expectedInputIndex = 0;
  const sessionIds = new Set<unknown>();
  const references = arrayValue(source['references'], `${label} references`, (member, memberLabel) => {
    const reference = exactRecord(
      member,
      memberLabel,
      [
        'sessionId',
        'label',
        'capturedThroughSeq',
        'compacted',
        'originalMessages',
        'retainedMessages',
        'omittedMessages',
        'omittedBytes',
        'truncated',
        'inputIndex',
      ],
      version >= 1 ? ['capturedFormatVersion'] : [],
    );
    nonEmptyString(reference['sessionId'], `${memberLabel} sessionId`);
    stringValue(reference['label'], `${memberLabel} label`);
    if (reference['capturedThroughSeq'] !== null) countValue(reference['capturedThroughSeq'], `${memberLabel} capturedThroughSeq`);
    if (reference['capturedFormatVersion'] !== undefined) {
      const captured = countValue(reference['capturedFormatVersion'], `${memberLabel} capturedFormatVersion`);
      if (captured < 1 || captured > version)
        throw new SessionFormatError(`${memberLabel} capturedFormatVersion must be between 1 and ${version}`);
    }
    booleanValue(reference['compacted'], `${memberLabel} compacted`);
    const original = countValue(reference['originalMessages'], `${memberLabel} originalMessages`);
    const retained = countValue(reference['retainedMessages'], `${memberLabel} retainedMessages`);
    const omitted = countValue(reference['omittedMessages'], `${memberLabel} omittedMessages`);
    const omittedBytes = countValue(reference['omittedBytes'], `${memberLabel} omittedBytes`);
    const inputIndex = countValue(reference['inputIndex'], `${memberLabel} inputIndex`);
    const truncated = reference['truncated'];
    booleanValue(truncated, `${memberLabel} truncated`);
    if (retained > original || omitted !== original - retained)
      throw new SessionFormatError(`${memberLabel} message counts are inconsistent`);
    if (truncated !== (omitted > 0 || omittedBytes > 0))
      throw new SessionFormatError(`${memberLabel} truncated disagrees with omitted content`);
    if (inputIndex !== expectedInputIndex) throw new SessionFormatError(`${label} inputIndex must match reference position`);
    expectedInputIndex += 1;
    const sessionId = reference['sessionId'] as string;
    if (sessionIds.has(sessionId)) throw new SessionFormatError(`${label} repeats sessionId ${sessionId}`);
    sessionIds.add(sessionId);
  });
  if (references.length === 0) throw new SessionFormatError(`${label} references must be non-empty`);
}
