// What a type of event is called and which codicon stands for it, in every view.
import { phrase, type Formatter } from './format';

interface TypeLook {
  label: string;
  icon: string;
}

const LOOKS = new Map<string, TypeLook>([
  ['user/message', { label: phrase('User message'), icon: 'account' }],
  ['assistant/message', { label: phrase('Assistant message'), icon: 'hubot' }],
  ['assistant/chunk', { label: phrase('Stream chunk'), icon: 'ellipsis' }],
  ['tool/call', { label: phrase('Tool call'), icon: 'tools' }],
  ['tool/result', { label: phrase('Tool result'), icon: 'output' }],
  ['turn/start', { label: phrase('Turn start'), icon: 'debug-start' }],
  ['turn/end', { label: phrase('Turn end'), icon: 'debug-stop' }],
  ['step/start', { label: phrase('Step start'), icon: 'debug-step-into' }],
  ['step/end', { label: phrase('Step end'), icon: 'debug-step-out' }],
  ['compaction/start', { label: phrase('Compaction start'), icon: 'fold' }],
  ['compaction/summary', { label: phrase('Compaction summary'), icon: 'fold-down' }],
  ['compaction/end', { label: phrase('Compaction end'), icon: 'fold-up' }],
  ['compaction/prune', { label: phrase('Prune'), icon: 'trash' }],
  ['request/header', { label: phrase('Request header'), icon: 'settings' }],
  ['request/context', { label: phrase('Request route'), icon: 'server' }],
  ['session/end-seed', { label: phrase('End of seed'), icon: 'debug-restart' }],
  ['session/title', { label: phrase('Session title'), icon: 'tag' }],
  ['todo/write', { label: phrase('To-do list'), icon: 'checklist' }],
  ['llm/retry', { label: phrase('Model retry'), icon: 'refresh' }],
  ['llm/retry-started', { label: phrase('Retry started'), icon: 'refresh' }],
  ['command/run', { label: phrase('Command'), icon: 'terminal' }],
  ['command/done', { label: phrase('Command done'), icon: 'terminal' }],
  ['hook/invoked', { label: phrase('Hook'), icon: 'plug' }],
  ['hook/result', { label: phrase('Hook result'), icon: 'plug' }],
  ['approval/asked', { label: phrase('Approval asked'), icon: 'question' }],
  ['approval/decided', { label: phrase('Approval decided'), icon: 'pass' }],
  ['agent/inbox/spliced', { label: phrase('Queued input'), icon: 'inbox' }],
  ['goal/change', { label: phrase('Goal'), icon: 'target' }],
  // The vocabulary of dsh's later log generations (v2–v4).
  ['system/message', { label: phrase('System prompt'), icon: 'law' }],
  ['developer/message', { label: phrase('Developer message'), icon: 'extensions' }],
  ['assistant/attempt', { label: phrase('Model attempt'), icon: 'circle-slash' }],
  ['model/selection', { label: phrase('Model selection'), icon: 'chip' }],
  ['image/offload', { label: phrase('Image offload'), icon: 'file-media' }],
  ['subagent/catalog', { label: phrase('Subagent catalog'), icon: 'type-hierarchy-sub' }],
  ['subagent/descriptor', { label: phrase('Subagent descriptor'), icon: 'type-hierarchy-super' }],
  ['tool/ptc-dispatch-start', { label: phrase('PTC dispatch start'), icon: 'run-all' }],
  ['tool/ptc-dispatch', { label: phrase('PTC dispatch'), icon: 'run-all' }],
  ['permission/preset', { label: phrase('Permission preset'), icon: 'shield' }],
  ['sandbox/mode', { label: phrase('Sandbox mode'), icon: 'lock' }],
  ['approval/policy', { label: phrase('Approval policy'), icon: 'shield' }],
  ['agent-preset/selected', { label: phrase('Agent preset'), icon: 'person' }],
  ['plan/mode', { label: phrase('Plan mode'), icon: 'checklist' }],
  ['session/title-llm-request', { label: phrase('Title request'), icon: 'tag' }],
  ['session-log-deepseek/delivery-accepted', { label: phrase('Delivery accepted'), icon: 'cloud-upload' }],
]);

/** A readable label for an event type; unknown types keep their name (bounded by the caller). */
export function typeLabel(type: string, fmt: Formatter): string {
  const label = LOOKS.get(type)?.label;
  return label === undefined ? type : fmt.t(label);
}

/** A codicon name (without `codicon-`) for an event type. */
export function typeIcon(type: string): string {
  return LOOKS.get(type)?.icon ?? 'circle-small';
}
