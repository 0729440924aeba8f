// What an append is handed, as the events it may write: checked and copied as plain JSON in one walk.
import type { Diagnostic, SessionEvent } from '../types';
import { badInput } from '../api-guard';
import { checkedJsonCopy } from '../json-copy';
import { say } from '../words';

/**
 * A batch to append as plain JSON copies, or the refusal: values dsh's lossless JSON rule cannot write
 * (Date, undefined, functions, symbols, BigInt, cycles, throwing getters) are refused before anything. The
 * batch is checked and copied in one walk (checkedJsonCopy), so a getter cannot show the check one value
 * and the writer another, and a Proxy claiming 2^32−1 events is refused as too large.
 */
export function plainEvents(input: unknown): SessionEvent[] | Diagnostic {
  let isArray = false;
  try {
    isArray = Array.isArray(input);
  } catch {
    // a revoked Proxy
  }
  if (!isArray) return badInput('an append takes an array of events', input);
  const refuse = (event: number | string, why: string): Diagnostic => ({
    severity: 'error',
    rule: 'json.lossless-values',
    ...say('appended event {0} is not plain JSON ({1}): dsh writes only lossless JSON', event, why),
  });
  const checked = checkedJsonCopy(input);
  if (!checked.ok) {
    // "a Date object at [0].data.when": event 1, "a Date object at .data.when".
    const at = /^(.*) at \[(\d+)\](.*)$/.exec(checked.reason);
    return at ? refuse(Number(at[2]) + 1, at[3] ? `${at[1]} at ${at[3]}` : at[1]) : refuse('batch', checked.reason);
  }
  const events = checked.copy as unknown[];
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (typeof event !== 'object' || event === null || Array.isArray(event)) return refuse(i + 1, 'not an object');
  }
  return events as SessionEvent[];
}
