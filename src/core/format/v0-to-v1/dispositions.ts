// The closed inventory of the 54 event types of released v0 (and v1): for each, the payload members
// it must and may carry, and those kept as opaque JSON. A type outside it refuses migration even
// when marked ignorable; later generations derive their inventories from this one.

/** The payload members of one event type; `opaque` ones are kept as lossless JSON, uninspected. */
export interface PayloadDisposition {
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly opaque: readonly string[];
}

export function payloadDisposition(
  required: readonly string[],
  optional: readonly string[] = [],
  opaque: readonly string[] = [],
): PayloadDisposition {
  return Object.freeze({
    required: Object.freeze([...required]),
    optional: Object.freeze([...optional]),
    opaque: Object.freeze([...opaque]),
  });
}

const d = payloadDisposition;
const COORDINATES = ['turn', 'step'];
const TEAM = ['version', 'teamId'];
const PTC_START = ['rootCallId', 'parentCallId', 'subCallId', 'name', 'arguments'];

/** Released v0/v1 event types and their payload members. */
export const RELEASED_EVENT_DISPOSITIONS: Readonly<Record<string, PayloadDisposition>> = Object.freeze({
  'agent-preset/selected': d(['agentPreset']),
  'agent/inbox/spliced': d(['target', 'start', 'inserted'], ['removedCount', 'outcome']),
  'approval/asked': d(['id', 'toolName'], ['callId', 'reason']),
  'approval/decided': d(['id', 'outcome']),
  'approval/policy': d(['policy'], ['source']),
  'assistant/chunk': d([...COORDINATES, 'chunk']),
  'assistant/message': d([...COORDINATES, 'message'], ['usage', 'interrupted']),
  'command/done': d(['commandId', 'kind'], ['text', 'sourceEventSeq']),
  'command/run': d(['commandId', 'name', 'source'], ['args']),
  'compaction/end': d(['compactionId', 'turn'], ['sourceCommandId', 'error']),
  'compaction/prune': d(['shadowedRange', 'shadowedSeqs', 'shadowedTokenCount']),
  'compaction/start': d(['compactionId', 'turn'], ['sourceCommandId']),
  'compaction/summary': d(
    ['compactionId', 'summary', 'shadowedRange', 'shadowedSeqs', 'shadowedTokenCount', 'provider', 'model'],
    ['sourceCommandId', 'maxTokens', 'usage', 'rawOutput', 'llmStreamCall'],
  ),
  'feedback/record': d(['text']),
  'goal/change': d(['kind', 'version', 'operation'], ['goal', 'roundsStarted', 'createdAt', 'updatedAt', 'cleared', 'clearedAt']),
  'hook/invoked': d(['turn', 'point', 'dialect', 'handlerId'], ['matcher']),
  'hook/result': d(['turn', 'point', 'handlerId', 'decision', 'durationMs'], ['exitCode', 'stderrSummary']),
  'llm/retry': d(['retryId', ...COORDINATES, 'provider', 'mode', 'policyKey', 'retry', 'delayMs', 'failure'], ['maxRetries']),
  'llm/retry-started': d(['retryId', ...COORDINATES, 'retry']),
  'model/selection': d(['provider', 'model'], ['reasoningEffort']),
  'permission/preset': d(['preset']),
  'plan/mode': d(['active']),
  'request/context': d(['provider', 'model'], ['contextWindow']),
  'request/header': d(['header', 'reason'], ['startsSeries']),
  'sandbox/mode': d(['mode'], ['source']),
  'schedule/change': d(['version', 'operation'], ['schedule', 'id', 'acceptedAt']),
  'session-log-deepseek/delivery-accepted': d(['sessionId', 'throughSeq']),
  'session/end-seed': d([]),
  'session/title': d(['title', 'messageSeqs', 'source']),
  'session/title-llm-request': d(['titleProvider', 'messageSeqs', 'route', 'system', 'messages', 'maxTokens']),
  'step/end': d(COORDINATES),
  'step/start': d(COORDINATES),
  'subagent/descriptor': d(
    ['mode', 'version', 'provider'],
    ['label', 'agentProvider', 'agentModel', 'agentReasoningEffort', 'persona', 'toolFilter'],
  ),
  'subagent/model-selection-policy': d(['allowedModels']),
  'team/member': d([...TEAM, 'member']),
  'team/message/delivered': d([...TEAM, 'messageId', 'targetId']),
  'team/message/queued': d([...TEAM, 'message']),
  'team/task': d([...TEAM, 'task']),
  'todo/write': d(['todos']),
  'tool-workflow/agent-end': d(['runId', 'seq', 'outcome']),
  'tool-workflow/agent-start': d(['runId', 'seq', 'label', 'childId'], ['phase']),
  'tool-workflow/run-end': d(['runId', 'stopReason']),
  'tool-workflow/run-start': d(['runId', 'name']),
  'tool/call': d([...COORDINATES, 'callId', 'name', 'arguments']),
  'tool/code-dispatch': d([...PTC_START, 'isError', 'content'], [], ['arguments']),
  'tool/code-dispatch-start': d(PTC_START, [], ['arguments']),
  'tool/result': d([...COORDINATES, 'message'], ['error', 'meta'], ['meta']),
  'turn/end': d(['turn', 'reason']),
  'turn/start': d(['turn']),
  'user/message': d(['role', 'id', 'content', 'source']),
  'web/deepseek-search-llm-request': d(['endpoint', 'apiVersion', 'body']),
});

const DISPOSITION_BY_TYPE: ReadonlyMap<string, PayloadDisposition> = new Map(Object.entries(RELEASED_EVENT_DISPOSITIONS));

/**
 * The released v0/v1 event types, sorted by code unit: the names are ASCII, and a locale collation
 * would start ICU while the module loads, in every process that reads a log.
 */
export const RELEASED_EVENT_TYPES: readonly string[] = Object.freeze(Object.keys(RELEASED_EVENT_DISPOSITIONS).sort());

/** The disposition of a released type (an own property: `constructor` and friends are not types). */
export function releasedDisposition(type: unknown): PayloadDisposition | undefined {
  return typeof type === 'string' ? DISPOSITION_BY_TYPE.get(type) : undefined;
}
