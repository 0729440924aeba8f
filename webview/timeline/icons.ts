// The codicon shown for each event type: one glance tells a message from a tool call or a bracket.

const BY_TYPE: Record<string, string> = {
  'user/message': 'account',
  'assistant/message': 'hubot',
  'assistant/chunk': 'symbol-string',
  'assistant/attempt': 'debug-restart',
  'system/message': 'gear',
  'developer/message': 'code',
  'context/message': 'book',
  'steering/message': 'compass',
  'tool/call': 'tools',
  'tool/result': 'output',
  'turn/start': 'play',
  'turn/end': 'debug-stop',
  'step/start': 'debug-step-into',
  'step/end': 'debug-step-out',
  'request/header': 'settings-gear',
  'request/header-delta': 'settings-gear',
  'request/context': 'settings',
  'compaction/start': 'fold',
  'compaction/summary': 'note',
  'compaction/end': 'fold-up',
  'compaction/prune': 'trash',
  'session/end-seed': 'debug-line-by-line',
};

export function iconFor(type: string): string {
  return BY_TYPE[type] ?? (type.endsWith('/message') ? 'comment' : 'circle-small');
}
