// Nested payload semantics of every released event type, by family.
import type { FormatEvent } from '../../types';

/** The nested rules of one known event's payload at payload generation `version` (0, 1, 2 …). */
export function assertPayloadSemantics(event: FormatEvent, version: number): void {
  void event;
  void version;
  throw new Error('not implemented');
}
