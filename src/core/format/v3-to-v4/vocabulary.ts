// The event vocabularies of this edge (spec §5 "v3 → v4", §6). Both lists are frozen format data:
// a v3 source is classified against what the released v3 reader knew, never against what v4 knows.

/** Every event type the released v3 reader interprets (dsh's RELEASED_V3_EVENT_TYPES, 58 names). */
export const RELEASED_V3_EVENT_TYPES: ReadonlySet<string> = new Set([
  'agent-preset/selected',
  'agent/inbox/spliced',
  'approval/asked',
  'approval/decided',
  'approval/policy',
  'assistant/attempt',
  'assistant/message',
  'command/done',
  'command/run',
  'compaction/end',
  'compaction/prune',
  'compaction/start',
  'compaction/summary',
  'deliverables/presented',
  'feedback/message-delete',
  'feedback/message-put',
  'feedback/record',
  'goal/change',
  'hook/invoked',
  'hook/result',
  'image/offload',
  'llm/retry',
  'llm/retry-started',
  'model/selection',
  'permission/preset',
  'plan/mode',
  'request/context',
  'request/header',
  'sandbox/mode',
  'schedule/change',
  'session-log-deepseek/delivery-accepted',
  'session/end-seed',
  'session/title',
  'session/title-llm-request',
  'step/end',
  'step/start',
  'subagent/catalog',
  'subagent/descriptor',
  'subagent/model-selection-policy',
  'system/message',
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
  'tool/ptc-dispatch',
  'tool/ptc-dispatch-start',
  'tool/result',
  'turn/end',
  'turn/start',
  'user/message',
  'web/deepseek-search-llm-request',
  'workspace/changes',
]);

/**
 * The event types a v4 reader interprets: the v3 vocabulary plus `developer/message` (spec §5, "New in
 * v4"). The fork the spec was read from (spec §9) also lists `slots/dispatch`, its own model-slots
 * change; it is not upstream's, so a required `slots/dispatch` is an unknown type here.
 */
export const V4_EVENT_TYPES: ReadonlySet<string> = new Set([...RELEASED_V3_EVENT_TYPES, 'developer/message']);

/** The five v4 event types that carry a message onto the model's surface (spec §4). */
export const V4_SURFACE_TYPES: ReadonlySet<string> = new Set([
  'system/message',
  'user/message',
  'developer/message',
  'assistant/message',
  'tool/result',
]);

/** The role each surface type's message has in v4 (a tool result is a tool-role message from v4 on). */
export const V4_MESSAGE_ROLES: ReadonlyMap<string, string> = new Map([
  ['system/message', 'system'],
  ['user/message', 'user'],
  ['developer/message', 'developer'],
  ['assistant/message', 'assistant'],
  ['tool/result', 'tool'],
]);

/** The PTC predecessor tags v3 retired (spec §5 "v2 → v3"); required ones are refused anywhere. */
export const RETIRED_DISPATCH_TYPES: ReadonlySet<string> = new Set(['tool/code-dispatch-start', 'tool/code-dispatch']);
