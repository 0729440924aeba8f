// The v4 rules that relate an event to the session rather than to other events (spec §6): developer
// rules, producer-owned message sources, delivery markers naming this session, and catalog children
// named once. Two of them depend on the inherited cut (what a parent wrote is not this session's to
// answer for), which a v2+ log's rows tell only at their end: those are noted as the events go past
// and judged by `deferredRefusal` once the cut is known, in event order.
import type { FormatEvent, LogicalHeader } from '../../types';
import { SessionFormatError } from '../../errors';
import { assertDeveloperRules } from './developer-message';
import { admissionDefers } from './row-admission';
import { assertProducerOwnedSource } from '../message-sources';
import { forEachEventMessage } from '../message-slots';
import { checkCatalogFact } from '../child-catalog';
import { activeDeliverySession, WRONG_SESSION_DELIVERY } from '../delivery';

/** An event whose refusal depends on the cut: a delivery for another session, or a catalog entry. */
type CutDependent = { seq: number; delivery: true } | { seq: number; delivery: false; childId: string } | { seq: number; refusal: unknown };

export class V4SessionRelationships {
  private readonly dependents: CutDependent[] = [];

  constructor(
    private readonly header: LogicalHeader,
    /** Whether the events come from rows the v4 codec admitted, which applied the developer rules already. */
    private readonly rowsAdmitted: boolean,
  ) {}

  /** The next known event; throws the first rule it breaks whatever the cut. */
  accept(event: FormatEvent): void {
    if (!this.rowsAdmitted || admissionDefers(event)) assertDeveloperRules(event);
    forEachEventMessage(event, assertProducerOwnedSource);
    const deliverySession = activeDeliverySession(event, 4);
    if (deliverySession !== undefined && deliverySession !== this.header.id) {
      // A marker inherited from a parent may name the parent: only a child's can be excused.
      if (this.header.parentSession === undefined) throw new SessionFormatError(WRONG_SESSION_DELIVERY);
      this.dependents.push({ seq: event.seq, delivery: true });
    }
    if (event.type === 'subagent/catalog') {
      try {
        this.dependents.push({ seq: event.seq, delivery: false, childId: checkCatalogFact(event.data).childId as string });
      } catch (refusal) {
        this.dependents.push({ seq: event.seq, refusal });
      }
    }
  }

  /** With the cut known: the first refusal among the events noted, in order (events before the cut are inherited). */
  deferredRefusal(inheritedEventCount: number): { error: unknown } | undefined {
    const children = new Set<string>();
    for (const dependent of this.dependents) {
      if (dependent.seq < inheritedEventCount) continue;
      if ('refusal' in dependent) return { error: dependent.refusal };
      if (dependent.delivery) return { error: new SessionFormatError(WRONG_SESSION_DELIVERY) };
      if (children.has(dependent.childId)) return { error: new SessionFormatError(`duplicate catalog child ${dependent.childId}`) };
      children.add(dependent.childId);
    }
    return undefined;
  }
}
