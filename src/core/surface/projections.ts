// Projections of a surface: the derived messages, tool-pairing balance and the human transcript.
import type { SessionEvent } from '../types';
import { derivedMessageOf, toolCallIdsOf } from '../vocabulary/messages';

export type DerivedMessage = Record<string, unknown>;

/** What the model sees for one surface node, or null (see `derivedMessageOf`). */
export function deriveEventMessage(event: SessionEvent): DerivedMessage | null {
  return derivedMessageOf(event);
}

/** Number of tool-call blocks an assistant/message opens (the balance counter's increment). */
export function toolCallCount(event: SessionEvent): number {
  return toolCallIdsOf(event).length;
}

export type BalanceResult = { cuts: number[] } | { error: string };

/**
 * Cut k (before surface node k; k = length is after the tail) is balanced when every tool-call opened
 * before it has its result before it. A negative count means a result with no call: a corrupt surface.
 */
export function balancedCuts(nodes: readonly number[], delta: (seq: number) => number): BalanceResult {
  const cuts = [0];
  let open = 0;
  for (let k = 0; k < nodes.length; k++) {
    open += delta(nodes[k]);
    if (open < 0)
      return { error: `tool-pairing balance: tool/result at surface seq ${nodes[k]} has no matching tool-call (corrupt surface)` };
    if (open === 0) cuts.push(k + 1);
  }
  return { cuts };
}
