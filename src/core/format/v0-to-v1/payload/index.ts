// Nested payload semantics of every released event type (after its exact members were checked).
// `version` is the payload generation: it decides versioned members (a v1+ session reference may say
// which format it captured, a v0/v1 round-zero goal message still carries its change, a delivery
// marker is checked only for its own generation).
import { SessionFormatError } from '../../errors';
import { jsonObject, jsonString, templateString, type JsonObject } from '../../json';
import type { FormatEvent } from '../../types';
import { contentBlocks, llmFailure, streamChunk, tokenUsage } from './content';
import { goalChange, scheduleChange } from './goals';
import { messageValue } from './messages';
import {
  allowedModels,
  deepSeekSearchBody,
  modelRoute,
  requestHeader,
  shadowedSpan,
  subagentDescriptor,
  teamMember,
  teamMessage,
  teamSelector,
  teamTask,
  titleSource,
  turnEndReason,
  workflowIdentity,
} from './records';
import {
  arrayValue,
  booleanValue,
  coordinatePair,
  countValue,
  earlierSeq,
  exactRecord,
  finiteNumber,
  literalValue,
  nonEmptyString,
  positiveInteger,
  safeIntegerValue,
  seqArray,
  stringValue,
} from './values';

export { contentBlocks, contentBlock, streamChunk, tokenUsage, llmFailure, MAX_CONTENT_NESTING } from './content';
export { messageValue, type MessageSlot } from './messages';

/** The nested rules of one known event's payload at payload generation `version`. */
export function assertPayloadSemantics(event: FormatEvent, version: number): void {
  const label = `${templateString(event.type)} ${templateString(event.seq)}`;
  const data = jsonObject(event.data, `${label} data`);
  const check = typeof event.type === 'string' && Object.hasOwn(PAYLOAD_RULES, event.type) ? PAYLOAD_RULES[event.type] : undefined;
  if (check === undefined) throw new SessionFormatError(`released payload validator is missing event ${jsonString(event.type)}`);
  check(data, label, event.seq, version);
}

type PayloadRule = (data: JsonObject, label: string, seq: number, version: number) => void;

const compactionMarker: PayloadRule = (data, label) => {
  nonEmptyString(data['compactionId'], `${label} compactionId`);
  if (data['sourceCommandId'] !== undefined) nonEmptyString(data['sourceCommandId'], `${label} sourceCommandId`);
  if (data['turn'] !== null) countValue(data['turn'], `${label} turn`);
  if (data['error'] !== undefined) stringValue(data['error'], `${label} error`);
};

const coordinatesOnly: PayloadRule = (data, label) => coordinatePair(data, label);

const PAYLOAD_RULES: Readonly<Record<string, PayloadRule>> = {
  'agent-preset/selected': (data, label) => stringValue(data['agentPreset'], `${label} agentPreset`),
  'agent/inbox/spliced': (data, label, _seq, version) => {
    literalValue(data['target'], ['next-turn', 'next-step'], `${label} target`);
    countValue(data['start'], `${label} start`);
    if (data['removedCount'] !== undefined) countValue(data['removedCount'], `${label} removedCount`);
    arrayValue(data['inserted'], `${label} inserted`, (value) => messageValue(value, `${label} inserted message`, version, 'user'));
    if (data['outcome'] !== undefined) literalValue(data['outcome'], ['canceled'], `${label} outcome`);
  },
  'approval/asked': (data, label) => {
    nonEmptyString(data['id'], `${label} id`);
    nonEmptyString(data['toolName'], `${label} toolName`);
    if (data['callId'] !== undefined) nonEmptyString(data['callId'], `${label} callId`);
    if (data['reason'] !== undefined) stringValue(data['reason'], `${label} reason`);
  },
  'approval/decided': (data, label) => {
    nonEmptyString(data['id'], `${label} id`);
    literalValue(data['outcome'], ['allowed-once', 'rejected', 'cancelled', 'unavailable'], `${label} outcome`);
  },
  'approval/policy': (data, label) => {
    literalValue(data['policy'], ['ask', 'never'], `${label} policy`);
    if (data['source'] !== undefined) literalValue(data['source'], ['delegation'], `${label} source`);
  },
  'assistant/chunk': (data, label) => {
    coordinatePair(data, label);
    streamChunk(data['chunk'], `${label} chunk`);
  },
  'assistant/message': (data, label, _seq, version) => {
    coordinatePair(data, label);
    messageValue(data['message'], `${label} message`, version, 'assistant');
    if (data['usage'] !== undefined) tokenUsage(data['usage'], `${label} usage`);
    if (data['interrupted'] !== undefined) literalValue(data['interrupted'], [true], `${label} interrupted`);
  },
  'command/done': (data, label, seq) => {
    nonEmptyString(data['commandId'], `${label} commandId`);
    literalValue(data['kind'], ['success', 'error'], `${label} kind`);
    if (data['text'] !== undefined) stringValue(data['text'], `${label} text`);
    if (data['sourceEventSeq'] !== undefined) earlierSeq(data['sourceEventSeq'], seq, `${label} sourceEventSeq`);
  },
  'command/run': (data, label) => {
    nonEmptyString(data['commandId'], `${label} commandId`);
    nonEmptyString(data['name'], `${label} name`);
    if (data['args'] !== undefined) stringValue(data['args'], `${label} args`);
    literalValue(exactRecord(data['source'], `${label} source`, ['kind'])['kind'], ['user'], `${label} source kind`);
  },
  'compaction/start': compactionMarker,
  'compaction/end': compactionMarker,
  'compaction/prune': (data, label, seq) => shadowedSpan(data, seq, label),
  'compaction/summary': (data, label, seq, version) => {
    if (data['llmStreamCall'] === true && data['rawOutput'] === undefined)
      throw new SessionFormatError(`${label} llmStreamCall requires rawOutput`);
    nonEmptyString(data['compactionId'], `${label} compactionId`);
    if (data['sourceCommandId'] !== undefined) nonEmptyString(data['sourceCommandId'], `${label} sourceCommandId`);
    contentBlocks(data['summary'], `${label} summary`, version);
    shadowedSpan(data, seq, label);
    nonEmptyString(data['provider'], `${label} provider`);
    nonEmptyString(data['model'], `${label} model`);
    if (data['maxTokens'] !== undefined) countValue(data['maxTokens'], `${label} maxTokens`);
    if (data['usage'] !== undefined) tokenUsage(data['usage'], `${label} usage`);
    if (data['rawOutput'] !== undefined) contentBlocks(data['rawOutput'], `${label} rawOutput`, version);
    if (data['llmStreamCall'] !== undefined) literalValue(data['llmStreamCall'], [true], `${label} llmStreamCall`);
  },
  'feedback/record': (data, label) => nonEmptyString(data['text'], `${label} text`),
  'goal/change': (data, label) => goalChange(data, label),
  'hook/invoked': (data, label) => {
    countValue(data['turn'], `${label} turn`);
    nonEmptyString(data['point'], `${label} point`);
    literalValue(data['dialect'], ['claude-code', 'codex'], `${label} dialect`);
    if (data['matcher'] !== undefined) stringValue(data['matcher'], `${label} matcher`);
    nonEmptyString(data['handlerId'], `${label} handlerId`);
  },
  'hook/result': (data, label) => {
    countValue(data['turn'], `${label} turn`);
    nonEmptyString(data['point'], `${label} point`);
    nonEmptyString(data['handlerId'], `${label} handlerId`);
    nonEmptyString(data['decision'], `${label} decision`);
    if (data['exitCode'] !== undefined) safeIntegerValue(data['exitCode'], `${label} exitCode`);
    if (data['stderrSummary'] !== undefined) stringValue(data['stderrSummary'], `${label} stderrSummary`);
    if (finiteNumber(data['durationMs'], `${label} durationMs`) < 0)
      throw new SessionFormatError(`${label} durationMs must be non-negative`);
  },
  'llm/retry': (data, label) => {
    nonEmptyString(data['retryId'], `${label} retryId`);
    coordinatePair(data, label);
    nonEmptyString(data['provider'], `${label} provider`);
    literalValue(data['mode'], ['normal', 'always'], `${label} mode`);
    nonEmptyString(data['policyKey'], `${label} policyKey`);
    positiveInteger(data['retry'], `${label} retry`);
    if (data['mode'] === 'normal') {
      const maxRetries = positiveInteger(data['maxRetries'], `${label} maxRetries`);
      if ((data['retry'] as number) > maxRetries) throw new SessionFormatError(`${label} retry exceeds maxRetries`);
    } else if (data['maxRetries'] !== undefined) throw new SessionFormatError(`${label} always mode must omit maxRetries`);
    const delayMs = finiteNumber(data['delayMs'], `${label} delayMs`);
    if (delayMs < 0) throw new SessionFormatError(`${label} delayMs must be non-negative`);
    if (delayMs > 2147483647) throw new SessionFormatError(`${label} delayMs exceeds the timer range`);
    llmFailure(data['failure'], `${label} failure`);
  },
  'llm/retry-started': (data, label) => {
    nonEmptyString(data['retryId'], `${label} retryId`);
    coordinatePair(data, label);
    positiveInteger(data['retry'], `${label} retry`);
  },
  'model/selection': (data, label) => {
    nonEmptyString(data['provider'], `${label} provider`);
    nonEmptyString(data['model'], `${label} model`);
    if (data['reasoningEffort'] !== undefined) nonEmptyString(data['reasoningEffort'], `${label} reasoningEffort`);
  },
  'permission/preset': (data, label) => nonEmptyString(data['preset'], `${label} preset`),
  'plan/mode': (data, label) => booleanValue(data['active'], `${label} active`),
  'request/context': (data, label) => {
    nonEmptyString(data['provider'], `${label} provider`);
    nonEmptyString(data['model'], `${label} model`);
    if (data['contextWindow'] !== undefined) positiveInteger(data['contextWindow'], `${label} contextWindow`);
  },
  'request/header': (data, label) => {
    requestHeader(data['header'], `${label} header`);
    literalValue(data['reason'], ['initial', 'resume', 'change', 'series'], `${label} reason`);
    if (data['startsSeries'] !== undefined) literalValue(data['startsSeries'], [true], `${label} startsSeries`);
  },
  'sandbox/mode': (data, label) => {
    literalValue(data['mode'], ['read-only', 'workspace-write', 'danger-full-access'], `${label} mode`);
    if (data['source'] !== undefined) literalValue(data['source'], ['delegation'], `${label} source`);
  },
  'schedule/change': (data, label) => scheduleChange(data, label),
  'session-log-deepseek/delivery-accepted': (data, label, seq, version) => {
    // A marker written by another generation is that generation's to check.
    const accepted =
      data['sessionFormatVersion'] === undefined ? 0 : countValue(data['sessionFormatVersion'], `${label} sessionFormatVersion`);
    if (accepted !== version) return;
    nonEmptyString(data['sessionId'], `${label} sessionId`);
    earlierSeq(data['throughSeq'], seq, `${label} throughSeq`);
  },
  'session/end-seed': () => {},
  'session/title': (data, label, seq) => {
    nonEmptyString(data['title'], `${label} title`);
    seqArray(data['messageSeqs'], seq, `${label} messageSeqs`, false);
    titleSource(data['source'], `${label} source`);
  },
  'session/title-llm-request': (data, label, seq, version) => {
    nonEmptyString(data['titleProvider'], `${label} titleProvider`);
    seqArray(data['messageSeqs'], seq, `${label} messageSeqs`, true);
    modelRoute(data['route'], `${label} route`);
    stringValue(data['system'], `${label} system`);
    arrayValue(data['messages'], `${label} messages`, (value) => messageValue(value, `${label} message`, version));
    positiveInteger(data['maxTokens'], `${label} maxTokens`);
  },
  'step/end': coordinatesOnly,
  'step/start': coordinatesOnly,
  'subagent/descriptor': (data, label) => subagentDescriptor(data, label),
  'subagent/model-selection-policy': (data, label) => allowedModels(data['allowedModels'], `${label} allowedModels`),
  'team/member': (data, label) => {
    teamSelector(data, label);
    teamMember(data['member'], `${label} member`);
  },
  'team/message/delivered': (data, label) => {
    teamSelector(data, label);
    nonEmptyString(data['messageId'], `${label} messageId`);
    nonEmptyString(data['targetId'], `${label} targetId`);
  },
  'team/message/queued': (data, label, _seq, version) => {
    teamSelector(data, label);
    teamMessage(data['message'], `${label} message`, version);
  },
  'team/task': (data, label) => {
    teamSelector(data, label);
    teamTask(data['task'], `${label} task`);
  },
  'todo/write': (data, label) =>
    void arrayValue(data['todos'], `${label} todos`, (value, itemLabel) => {
      const item = exactRecord(value, itemLabel, ['content', 'status']);
      stringValue(item['content'], `${itemLabel} content`);
      literalValue(item['status'], ['pending', 'in_progress', 'completed'], `${itemLabel} status`);
    }),
  'tool-workflow/agent-end': (data, label) => {
    workflowIdentity(data, label);
    literalValue(data['outcome'], ['completed', 'failed', 'cancelled'], `${label} outcome`);
  },
  'tool-workflow/agent-start': (data, label) => {
    workflowIdentity(data, label);
    stringValue(data['label'], `${label} label`);
    if (data['phase'] !== undefined) stringValue(data['phase'], `${label} phase`);
    nonEmptyString(data['childId'], `${label} childId`);
  },
  'tool-workflow/run-end': (data, label) => {
    nonEmptyString(data['runId'], `${label} runId`);
    literalValue(data['stopReason'], ['completed', 'cancelled', 'error'], `${label} stopReason`);
  },
  'tool-workflow/run-start': (data, label) => {
    nonEmptyString(data['runId'], `${label} runId`);
    nonEmptyString(data['name'], `${label} name`);
  },
  'tool/call': (data, label) => {
    coordinatePair(data, label);
    nonEmptyString(data['callId'], `${label} callId`);
    nonEmptyString(data['name'], `${label} name`);
    stringValue(data['arguments'], `${label} arguments`);
  },
  'tool/code-dispatch': (data, label, _seq, version) => {
    codeDispatchIdentity(data, label);
    booleanValue(data['isError'], `${label} isError`);
    contentBlocks(data['content'], `${label} content`, version);
  },
  'tool/code-dispatch-start': (data, label) => codeDispatchIdentity(data, label),
  'tool/result': (data, label, _seq, version) => {
    coordinatePair(data, label);
    messageValue(data['message'], `${label} message`, version, 'tool');
    if (data['error'] !== undefined) {
      const error = exactRecord(data['error'], `${label} error`, ['name', 'code']);
      nonEmptyString(error['name'], `${label} error name`);
      nonEmptyString(error['code'], `${label} error code`);
    }
  },
  'turn/end': (data, label) => {
    countValue(data['turn'], `${label} turn`);
    turnEndReason(data['reason'], `${label} reason`);
  },
  'turn/start': (data, label) => void countValue(data['turn'], `${label} turn`),
  'user/message': (data, label, _seq, version) => messageValue(data, label, version, 'user'),
  'web/deepseek-search-llm-request': (data, label) => {
    nonEmptyString(data['endpoint'], `${label} endpoint`);
    nonEmptyString(data['apiVersion'], `${label} apiVersion`);
    deepSeekSearchBody(data['body'], `${label} body`);
  },
};

function codeDispatchIdentity(data: JsonObject, label: string): void {
  nonEmptyString(data['rootCallId'], `${label} rootCallId`);
  nonEmptyString(data['parentCallId'], `${label} parentCallId`);
  nonEmptyString(data['subCallId'], `${label} subCallId`);
  nonEmptyString(data['name'], `${label} name`);
}
