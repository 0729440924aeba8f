// The closed v2 event inventory: v0's, without `assistant/chunk` (folded into streams), with
// `assistant/message` carrying its `stream`, the log-only `assistant/attempt`, a delivery marker that
// may name its format generation, and the seed marker that may say `inherited: true`.
import { RELEASED_EVENT_DISPOSITIONS, type PayloadDisposition } from '../v0-to-v1';
import { hasEntry } from './v2-checks';

function disposition(required: string[], optional: string[] = []): PayloadDisposition {
  return { required, optional, opaque: [] };
}

export const V2_EVENT_DISPOSITIONS: Readonly<Record<string, PayloadDisposition>> = (() => {
  const inventory: Record<string, PayloadDisposition> = {};
  for (const [type, members] of Object.entries(RELEASED_EVENT_DISPOSITIONS)) if (type !== 'assistant/chunk') inventory[type] = members;
  inventory['assistant/attempt'] = disposition(['turn', 'step', 'stream']);
  inventory['assistant/message'] = disposition(['turn', 'step', 'message', 'stream'], ['usage', 'interrupted']);
  inventory['session-log-deepseek/delivery-accepted'] = disposition(['sessionId', 'throughSeq'], ['sessionFormatVersion']);
  inventory['session/end-seed'] = disposition([], ['inherited']);
  return inventory;
})();

/** The events whose position is on the model's surface (everything else is log-only). */
export const V2_SURFACE_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'tool/result']);

export function isV2EventType(type: unknown): type is string {
  return hasEntry(V2_EVENT_DISPOSITIONS, type);
}
