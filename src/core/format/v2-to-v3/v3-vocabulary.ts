// Names the v2→v3 layer audits: the surface events (v3 adds `system/message`), the message source
// kinds and content block kinds it can carry across safely, and the PTC renames.

export const V3_SURFACE_TYPES: ReadonlySet<string> = new Set(['system/message', 'user/message', 'assistant/message', 'tool/result']);

/** Event types v3 has beyond the v2 inventory (before it is renamed): feedback and the PTC dispatches. */
export const FEEDBACK_TYPES: ReadonlySet<string> = new Set(['feedback/message-put', 'feedback/message-delete']);

/** v2's names of the PTC dispatch events, retired in v3 (a required one is an unknown event there). */
export const RETIRED_DISPATCH_TYPES: Readonly<Record<string, string>> = {
  'tool/code-dispatch-start': 'tool/ptc-dispatch-start',
  'tool/code-dispatch': 'tool/ptc-dispatch',
};
export const PTC_DISPATCH_TYPES: ReadonlySet<string> = new Set(Object.values(RETIRED_DISPATCH_TYPES));

export const AUDITED_SOURCE_KINDS: ReadonlySet<string> = new Set([
  'user',
  'plugin',
  'model',
  'tool',
  'agent-instructions',
  'session-reference',
  'team-message',
  'goal',
  'skill-invocation',
  'skill-catalog',
  'coordinator',
  'subagent-report',
  'subagent-settled',
  'webhook',
  'agent-message',
]);

export const AUDITED_CONTENT_KINDS: ReadonlySet<string> = new Set(['text', 'reasoning', 'image', 'file', 'tool-call', 'tool-result']);

/** The plugin that owns the system prompt messages the migration writes. */
export const SYSTEM_PROMPT_PLUGIN = '@deepseek-ai/dsh-system-prompt';

/** The canonical id of a harness-written TOOL_NOT_STARTED repair: `interrupted-tool-result-<callId>-<n>`. */
export function isRepairMessageId(id: unknown, callId: unknown): boolean {
  if (typeof callId !== 'string' || typeof id !== 'string') return false;
  const prefix = `interrupted-tool-result-${callId}-`;
  if (!id.startsWith(prefix)) return false;
  const suffix = id.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(suffix) && Number.isSafeInteger(Number(suffix));
}
