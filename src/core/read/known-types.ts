// The event types a v0 reader knows (spec §2.1). A log with any other type that is not
// `ignorable: true` is refused as written by a newer harness.
export const KNOWN_EVENT_TYPE_NAMES = [
  'agent-preset/selected',
  'agent/inbox/spliced',
  'approval/asked',
  'approval/decided',
  'approval/policy',
  'assistant/chunk',
  'assistant/message',
  'command/done',
  'command/run',
  'compaction/end',
  'compaction/prune',
  'compaction/start',
  'compaction/summary',
  'feedback/record',
  'goal/change',
  'hook/invoked',
  'hook/result',
  'llm/retry',
  'llm/retry-started',
  'permission/preset',
  'plan/mode',
  'request/context',
  'request/header',
  'sandbox/mode',
  'schedule/change',
  'session/end-seed',
  'session/title',
  'session/title-llm-request',
  'step/end',
  'step/start',
  'subagent/descriptor',
  'team/member',
  'team/message/delivered',
  'team/message/queued',
  'team/task',
  'todo/write',
  'tool-workflow/agent-end',
  'tool-workflow/agent-start',
  'tool-workflow/run-end',
  'tool-workflow/run-start',
  'tool/call',
  'tool/code-dispatch',
  'tool/code-dispatch-start',
  'tool/result',
  'turn/end',
  'turn/start',
  'user/message',
  'web/deepseek-search-llm-request',
] as const;

export type KnownEventType = (typeof KNOWN_EVENT_TYPE_NAMES)[number];

export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(KNOWN_EVENT_TYPE_NAMES);

/**
 * The number of a known type: its place in KNOWN_EVENT_TYPE_NAMES (the event index numbers the types it
 * meets the same way, unknown ones from KNOWN_TYPE_COUNT on). The loader looks an event's type up once
 * and every stage then switches on the number, instead of comparing the type text again and again.
 * Only the types some stage dispatches on are named here.
 */
export const enum TypeId {
  AssistantChunk = 5,
  AssistantMessage = 6,
  CompactionEnd = 9,
  CompactionPrune = 10,
  CompactionStart = 11,
  CompactionSummary = 12,
  LlmRetry = 17,
  LlmRetryStarted = 18,
  RequestContext = 21,
  RequestHeader = 22,
  SessionEndSeed = 25,
  SessionTitle = 26,
  SessionTitleLlmRequest = 27,
  StepEnd = 28,
  StepStart = 29,
  TodoWrite = 35,
  ToolCall = 40,
  ToolResult = 43,
  TurnEnd = 44,
  TurnStart = 45,
  UserMessage = 46,
}

export const KNOWN_TYPE_COUNT = KNOWN_EVENT_TYPE_NAMES.length;

const KNOWN_TYPE_IDS: ReadonlyMap<unknown, number> = new Map(KNOWN_EVENT_TYPE_NAMES.map((name, id) => [name, id]));

/** The TypeId of a known type, -1 for any other value. */
export function knownTypeId(type: unknown): number {
  return KNOWN_TYPE_IDS.get(type) ?? -1;
}

/** The three types that produce model messages and must carry a surfaceOp (v0). */
export const SURFACE_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'tool/result']);

export function isSurfaceType(type: unknown): boolean {
  return typeof type === 'string' && SURFACE_TYPES.has(type);
}
