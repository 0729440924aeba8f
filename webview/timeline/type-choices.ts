// Event types offered by the type filter: dsh's core vocabulary (format spec §2.2) in reading order.
export const EVENT_TYPE_CHOICES = [
  'user/message',
  'assistant/message',
  'assistant/chunk',
  'tool/call',
  'tool/result',
  'system/message',
  'developer/message',
  'context/message',
  'steering/message',
  'turn/start',
  'turn/end',
  'step/start',
  'step/end',
  'request/header',
  'request/header-delta',
  'request/context',
  'compaction/start',
  'compaction/summary',
  'compaction/end',
  'compaction/prune',
  'session/end-seed',
];

/** Not an event type: the filter value that keeps only the events crash repairs wrote. */
export const REPAIRS_FILTER = 'repairs';
