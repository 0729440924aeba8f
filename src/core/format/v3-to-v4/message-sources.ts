// Producer-owned message sources (spec §5 "v3 → v4", message sources): a v3 message attributed to
// `{kind: 'plugin', plugin: P}` names its producer in `kind` from v4 on. Direct kinds stay as they are.
import { SessionFormatError } from '../errors';
import { isJsonObject, type JsonObject } from '../json';

/** v3 plugin names whose v4 kind is another name. `@deepseek-ai/dsh-system-prompt` depends on the role. */
const RENAMED_PRODUCERS: ReadonlyMap<string, string> = new Map([
  ['compact', 'compact-checkpoint'],
  ['tools-code-mode', 'ptc-mode'],
  ['tools-ptc', 'ptc-mode'],
  ['dsh-compaction-basic', 'compact-basic'],
]);

const SYSTEM_PROMPT_PLUGIN = '@deepseek-ai/dsh-system-prompt';

/** The 25 first-party producers whose v4 kind is their v3 plugin name. */
const SAME_NAME_PRODUCERS: ReadonlySet<string> = new Set([
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
  'model-selection',
  'plan-mode',
  'time-context',
  'tmux-context',
  'user-approval',
  'repeat-tool-reminder',
  'tool-cordis',
  'cordis-host-runner',
  'tool-goal',
  'tool-jobs',
  'hooks-codex',
  'hooks-claude-code',
  'schedule',
  'dsh-session-title-llm',
]);

/** The v4 kind of a v3 plugin name on a message of `role`. Any other plugin keeps its whole name after `plugin:`. */
export function producerKind(plugin: string, role: unknown): string {
  if (plugin === SYSTEM_PROMPT_PLUGIN) return role === 'system' ? 'system-prompt' : 'runtime-context';
  const renamed = RENAMED_PRODUCERS.get(plugin);
  if (renamed !== undefined) return renamed;
  return SAME_NAME_PRODUCERS.has(plugin) ? plugin : `plugin:${plugin}`;
}

/**
 * A v3 message's source as v4 writes it. A plugin source loses its `plugin` member and takes the
 * producer's kind in place of `kind`; every other member keeps its place and value. `seq` is the
 * source event's, for the message.
 */
export function convertV3Source(source: JsonObject, seq: number, role: unknown): JsonObject {
  const kind = source.kind;
  if (typeof kind !== 'string' || kind.length === 0) throw new SessionFormatError(`message source at seq ${seq} requires a nonempty kind`);
  if (kind !== 'plugin') return source;
  const plugin = source.plugin;
  if (typeof plugin !== 'string') throw new SessionFormatError(`plugin source at seq ${seq} is not canonical: plugin requires a string`);
  // fromEntries defines each key as data, so a member named `__proto__` stays a member.
  return Object.fromEntries(
    Object.entries(source)
      .filter(([key]) => key !== 'plugin')
      .map(([key, value]) => [key, key === 'kind' ? producerKind(plugin, role) : value]),
  );
}

/** The message with its source converted (the same object when the source does not change). */
export function convertMessageSource(message: JsonObject, seq: number): JsonObject {
  const source = message.source;
  if (!isJsonObject(source)) return message;
  const converted = convertV3Source(source, seq, message.role);
  return converted === source ? message : { ...message, source: converted };
}

/**
 * The v4 rule for a message's source (spec §6, interpreted message sources): an object whose kind is a
 * nonempty string other than `plugin`. dsh words every failure the same way.
 */
export function assertProducerOwnedSource(message: JsonObject): void {
  const source = message.source;
  if (!isJsonObject(source) || typeof source.kind !== 'string' || source.kind.length === 0 || source.kind === 'plugin') {
    throw new SessionFormatError('format v4 message requires a producer-owned source kind');
  }
}
