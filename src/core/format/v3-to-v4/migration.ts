// The adjacent migration v3 → v4 (spec §5 "v3 → v4"). It streams: each v3 event comes out as v4 at
// once, except the parent-catalog facts, which need the whole log and are appended at the end.
import type { EventRun, EventSink, FormatEvent, FormatMigration, LogicalHeader, MigrationStage, MigrationStageContext } from '../types';
import { SessionFormatError, SessionFormatUnsupportedMigrationError } from '../errors';
import { assertV3Header } from '../v2-to-v3/v3-header';
import { assertV4Header } from './header';
import { convertMessageSource } from './message-sources';
import { mapEventMessages } from './message-slots';
import { liftToolResult } from './tool-role';
import { namespaceContentTags } from './content-tags';
import { remapReferences } from './references';
import { activeDeliverySession, DELIVERY_ACCEPTED, WRONG_SESSION_DELIVERY } from './delivery';
import { RELEASED_V3_EVENT_TYPES } from './vocabulary';
import {
  catalogFactOfChild,
  checkCatalogFact,
  checkChildEvidence,
  childSubject,
  unknownModeFact,
  type ChildCatalogEvidence,
} from './child-catalog';
import { isJsonObject, formatCount, type JsonObject } from '../json';

/** dsh's package name for this edge; it appears in dsh's refusal messages. */
export const V3_TO_V4_NAME = '@deepseek-ai/dsh-session-format-v3-to-v4';

/**
 * The v3 → v4 migration with the direct children's evidence bound to it (spec §2 step 5): `[]` says
 * the parent has no children, which is what a log read on its own supplies. A read may also hand
 * children in per artifact, as `evidence.children` (a list of ChildCatalogEvidence).
 */
export function createV3ToV4Migration(children: readonly unknown[] = []): FormatMigration {
  const bound = children.map(checkChildEvidence);
  return {
    name: V3_TO_V4_NAME,
    edge: 'v3-to-v4',
    fromVersion: 3,
    toVersion: 4,
    migrateHeader,
    validateTargetHeader: assertV4Header,
    createStage: (context) => new V3ToV4Stage(context, [...bound, ...evidenceChildren(context)]),
  };
}

/** The children a read handed in beside the file. */
function evidenceChildren(context: MigrationStageContext): ChildCatalogEvidence[] {
  const children = context.evidence?.children;
  if (children === undefined) return [];
  if (!Array.isArray(children))
    throw new SessionFormatUnsupportedMigrationError('catalog migration requires historical child identity and descriptor evidence');
  return children.map(checkChildEvidence);
}

/** The migration of a log read on its own (no child logs beside it). */
export const v3ToV4Migration: FormatMigration = createV3ToV4Migration();

/** Only the version moves; every other header field stays (spec §5 "v3 → v4"). */
function migrateHeader(header: LogicalHeader): LogicalHeader {
  assertV3Header(header);
  return { ...header, version: 4 };
}

/** Child evidence in the order its catalog entries are appended: by creation time, then id. */
function sortedEvidence(children: readonly ChildCatalogEvidence[]): ChildCatalogEvidence[] {
  return [...children].sort(
    (a, b) => a.childCreatedAt - b.childCreatedAt || (a.childId === b.childId ? 0 : a.childId < b.childId ? -1 : 1),
  );
}

class V3ToV4Stage implements MigrationStage {
  readonly headerInheritedEventCount?: number;
  private readonly children: ChildCatalogEvidence[];
  /** Target seq of every source event so far, by source seq. */
  private readonly mapping: number[] = [];
  private nextSeq = 0;
  /** The time of the last source event (the appended catalog facts take it). */
  private lastTime: number;
  /** The inherited cut in target and source coordinates (undefined until a seeded log's marker). */
  private cut: number | undefined;
  private sourceCut: number | undefined;
  /** Catalog payloads after the latest inherited cut: the parent's own entries. */
  private readonly ownCatalogs: unknown[] = [];
  private foreignDeliverySeq: number | undefined;
  private readonly restart = new RestartWatch();

  constructor(
    private readonly context: MigrationStageContext,
    children: readonly ChildCatalogEvidence[],
  ) {
    this.children = sortedEvidence(children);
    if (!context.sourceHeader.isSeeded) {
      this.cut = 0;
      this.sourceCut = 0;
      this.headerInheritedEventCount = 0;
    }
    this.lastTime = context.sourceHeader.createdAt;
  }

  transformEvent(event: FormatEvent, out: EventSink): void {
    if (event.seq !== this.mapping.length) throw new SessionFormatError('V3 source events must be dense');
    const interruptedTurn = this.restart.observe(event);
    if (interruptedTurn !== undefined) {
      out.emitEvent({
        type: 'turn/end',
        seq: this.nextSeq++,
        time: event.time,
        data: { turn: interruptedTurn, reason: { kind: 'interrupted' } },
      });
    }
    const targetSeq = this.nextSeq++;
    this.lastTime = event.time;
    this.observeOwnership(event, targetSeq);
    if (event.ignorable === true && !RELEASED_V3_EVENT_TYPES.has(event.type)) {
      // An extension v3 did not know stays opaque under a namespaced name: its payload and its surface
      // metadata (which v3 never checked and v4 does not read) keep their values; only its seq moves.
      this.mapping.push(targetSeq);
      out.emitEvent({ ...event, type: `plugin:${event.type}`, seq: targetSeq, ignorable: true });
      return;
    }
    if (!RELEASED_V3_EVENT_TYPES.has(event.type)) {
      throw new SessionFormatUnsupportedMigrationError(
        `format v3 contains unknown event type ${JSON.stringify(event.type)} at seq ${event.seq}`,
      );
    }
    const remapped = remapReferences(event, targetSeq, this.mapping);
    this.mapping.push(targetSeq);
    const attributed = mapEventMessages(remapped, (message) => convertMessageSource(message, event.seq));
    out.emitEvent(namespaceContentTags(liftToolResult(attributed)));
  }

  transformRun(run: EventRun, out: EventSink): void {
    for (const event of run.expand()) this.transformEvent(event, out);
  }

  /** The inherited cut, the parent's own catalog entries, and delivery markers naming another session. */
  private observeOwnership(event: FormatEvent, targetSeq: number): void {
    if (event.type === 'session/end-seed' && isJsonObject(event.data) && event.data.inherited === true) {
      if (!this.context.sourceHeader.isSeeded)
        throw new SessionFormatError('unseeded format v3 Session contains an inherited end-seed marker');
      this.sourceCut = event.seq;
      this.cut = targetSeq;
      this.ownCatalogs.length = 0;
    } else if (event.type === 'subagent/catalog') {
      this.ownCatalogs.push(event.data);
    }
    const deliverySession = activeDeliverySession(event, 3);
    if (event.type !== DELIVERY_ACCEPTED) return;
    if ((event.data as JsonObject).sessionFormatVersion === 4) {
      throw new SessionFormatUnsupportedMigrationError('format v3 delivery marker claims target format v4');
    }
    if (deliverySession !== undefined && deliverySession !== this.context.sourceHeader.id) this.foreignDeliverySeq = event.seq;
  }

  finish(out: EventSink): number {
    const cut = formatCount(this.cut, 'V3 inherited event count');
    const sourceCut = formatCount(this.sourceCut, 'V3 source inherited event count');
    const own = new Map<string, JsonObject>();
    for (const data of this.ownCatalogs) {
      const fact = checkCatalogFact(data);
      const id = fact.childId as string;
      if (own.has(id)) throw new SessionFormatUnsupportedMigrationError(`duplicate catalog child ${id}`);
      own.set(id, fact);
    }
    // A cut known before the events (declared by the previous stage) must be the marker's.
    const declared = this.context.sourceInheritedEventCount;
    if (declared !== undefined && declared !== sourceCut)
      throw new SessionFormatError('format v3 inherited cut disagrees with its source marker');
    if (
      this.foreignDeliverySeq !== undefined &&
      (this.context.sourceHeader.parentSession === undefined || this.foreignDeliverySeq >= sourceCut)
    ) {
      throw new SessionFormatError(WRONG_SESSION_DELIVERY);
    }
    for (const child of this.children) this.appendCatalogFact(child, own, out);
    return cut;
  }

  /** Keeps a child's existing entry (refusing one that contradicts the child), or appends the missing one. */
  private appendCatalogFact(child: ChildCatalogEvidence, own: Map<string, JsonObject>, out: EventSink): void {
    const existing = own.get(child.childId);
    const fact = catalogFactOfChild(child);
    if (existing !== undefined) {
      const contradicts =
        existing.childCreatedAt !== child.childCreatedAt ||
        (fact !== undefined && (existing.mode !== fact.mode || existing.label !== fact.label));
      if (contradicts) throw new SessionFormatUnsupportedMigrationError(`${childSubject(child)} conflicts with its parent catalog`);
      return;
    }
    const entry = fact ?? unknownModeFact(child);
    own.set(child.childId, entry);
    out.emitEvent({ type: 'subagent/catalog', seq: this.nextSeq++, time: this.lastTime, data: entry });
  }
}

/**
 * The restart pattern the edge closes (spec §5 "v3 → v4"): a turn left open with no open step, then a
 * non-empty next-turn `agent/inbox/spliced` immediately followed by the next numbered `turn/start`. dsh
 * wrote that shape when a session restarted mid-turn; the edge inserts the interrupted `turn/end`.
 */
class RestartWatch {
  private turn: number | undefined;
  private stepOpen = false;
  private nextTurnSpliced = false;

  /** Feeds the next source event; returns the turn to close before it, if it completes the pattern. */
  observe(event: FormatEvent): number | undefined {
    const data = event.data;
    const closes =
      event.type === 'turn/start' &&
      this.turn !== undefined &&
      !this.stepOpen &&
      this.nextTurnSpliced &&
      isJsonObject(data) &&
      data.turn === this.turn + 1;
    const interrupted = closes ? this.turn : undefined;
    this.nextTurnSpliced =
      event.type === 'agent/inbox/spliced' &&
      isJsonObject(data) &&
      data.target === 'next-turn' &&
      Array.isArray(data.inserted) &&
      data.inserted.length > 0;
    if (event.type === 'turn/start' && isJsonObject(data) && typeof data.turn === 'number') this.turn = data.turn;
    // The v4 rules refuse a turn/end that crosses an open step, so only step events move `stepOpen`.
    else if (event.type === 'turn/end') this.turn = undefined;
    else if (event.type === 'step/start') this.stepOpen = true;
    else if (event.type === 'step/end') this.stepOpen = false;
    return interrupted;
  }
}
