// What a type of event is called and which codicon stands for it, in every view.

interface TypeLook {
  label: string;
  icon: string;
}

const LOOKS = new Map<string, TypeLook>([
  ['user/message', { label: 'User message', icon: 'account' }],
  ['assistant/message', { label: 'Assistant message', icon: 'hubot' }],
  ['assistant/chunk', { label: 'Stream chunk', icon: 'ellipsis' }],
  ['tool/call', { label: 'Tool call', icon: 'tools' }],
  ['tool/result', { label: 'Tool result', icon: 'output' }],
  ['turn/start', { label: 'Turn start', icon: 'debug-start' }],
  ['turn/end', { label: 'Turn end', icon: 'debug-stop' }],
  ['step/start', { label: 'Step start', icon: 'debug-step-into' }],
  ['step/end', { label: 'Step end', icon: 'debug-step-out' }],
  ['compaction/start', { label: 'Compaction start', icon: 'fold' }],
  ['compaction/summary', { label: 'Compaction summary', icon: 'fold-down' }],
  ['compaction/end', { label: 'Compaction end', icon: 'fold-up' }],
  ['compaction/prune', { label: 'Prune', icon: 'trash' }],
  ['request/header', { label: 'Request header', icon: 'settings' }],
  ['request/context', { label: 'Request route', icon: 'server' }],
  ['session/end-seed', { label: 'End of seed', icon: 'debug-restart' }],
  ['session/title', { label: 'Session title', icon: 'tag' }],
  ['todo/write', { label: 'To-do list', icon: 'checklist' }],
  ['llm/retry', { label: 'Model retry', icon: 'refresh' }],
  ['llm/retry-started', { label: 'Retry started', icon: 'refresh' }],
  ['command/run', { label: 'Command', icon: 'terminal' }],
  ['command/done', { label: 'Command done', icon: 'terminal' }],
  ['hook/invoked', { label: 'Hook', icon: 'plug' }],
  ['hook/result', { label: 'Hook result', icon: 'plug' }],
  ['approval/asked', { label: 'Approval asked', icon: 'question' }],
  ['approval/decided', { label: 'Approval decided', icon: 'pass' }],
  ['agent/inbox/spliced', { label: 'Queued input', icon: 'inbox' }],
  ['goal/change', { label: 'Goal', icon: 'target' }],
]);

/** A readable label for an event type; unknown types keep their name (bounded by the caller). */
export function typeLabel(type: string): string {
  return LOOKS.get(type)?.label ?? type;
}

/** A codicon name (without `codicon-`) for an event type. */
export function typeIcon(type: string): string {
  return LOOKS.get(type)?.icon ?? 'circle-small';
}
