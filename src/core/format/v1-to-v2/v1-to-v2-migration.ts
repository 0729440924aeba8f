// The v1→v2 migration. It streams: events are emitted as soon as their place is known, except the
// events after an unsettled attempt's last chunk, which wait for the attempt (see PendingAttempt).
// Chunk events disappear into streams, so seqs are renumbered densely (see remap-references).
import { SessionFormatUnsupportedMigrationError } from '../errors';
import type { EventRun, EventSink, FormatEvent, FormatMigration, LogicalHeader, MigrationStage, MigrationStageContext } from '../types';
import { assertEventPayload, assertReleasedHeader, isAssistantChunkRun, RELEASED_EVENT_DISPOSITIONS } from '../v0-to-v1';
import { LegacyTurnTracker, splitLegacyGoalMessage } from './legacy-repairs';
import { PendingAttempt } from './pending-attempt';
import { remapEvent } from './remap-references';
import { hasEntry } from './v2-checks';
import { assertV2Header } from './v2-header';
import { jsonString, type JsonObject } from '../json';

const CHUNK_FIELDS: ReadonlySet<string> = new Set(['type', 'seq', 'time', 'data', 'ignorable', 'sourceEventSeqs', 'surfaceOp']);
/** Events that end an attempt: after them, the attempt can no longer be claimed by a message. */
const ATTEMPT_CLOSERS: ReadonlySet<string> = new Set(['turn/end', 'step/end', 'llm/retry', 'llm/retry-started']);

function refuse(message: string): SessionFormatUnsupportedMigrationError {
  return new SessionFormatUnsupportedMigrationError(message);
}

class V1ToV2Stage implements MigrationStage {
  readonly headerInheritedEventCount: number | undefined;
  private readonly header: LogicalHeader;
  private readonly sourceCut: number;
  private readonly mapping = new Map<unknown, number>();
  private readonly turns = new LegacyTurnTracker();
  private pending: PendingAttempt | undefined;
  private targetSeq = 0;
  /** Where the target's inherited cut lands; unknown for a seeded source until the cut is reached. */
  private targetCut: number | undefined;
  private lastTime: number;

  constructor(
    context: MigrationStageContext,
    /** A decoded v1 source has its payloads checked here; a migrated one was checked by its own edge. */
    private readonly checkPayloads: boolean,
  ) {
    assertReleasedHeader(context.sourceHeader, 1);
    this.header = context.sourceHeader;
    // A v1 source's cut is its header's seedLength, always known before the events.
    this.sourceCut = context.sourceInheritedEventCount ?? 0;
    this.targetCut = this.header.isSeeded ? undefined : 0;
    this.headerInheritedEventCount = this.targetCut;
    this.lastTime = this.header.createdAt;
  }

  transformEvent(event: FormatEvent, out: EventSink): void {
    if (this.checkPayloads && event.type !== 'assistant/chunk' && hasEntry(RELEASED_EVENT_DISPOSITIONS, event.type))
      assertEventPayload(event, 1);
    if (event.type === 'assistant/chunk') assertChunkEnvelope(event);
    if (!hasEntry(RELEASED_EVENT_DISPOSITIONS, event.type))
      throw refuse(`format v1 contains unknown event type ${jsonString(event.type)} at seq ${event.seq}`);
    const interrupted = this.turns.interruptedEndBefore(event);
    if (event.type === 'turn/start' && this.turns.openTurn !== null && interrupted === undefined)
      throw refuse(`turn/start ${jsonString((event.data as JsonObject).turn)} does not close the prior turn`);
    this.checkDeliveryMarker(event);
    this.turns.observe(event);
    this.lastTime = event.time;
    if (interrupted) {
      this.settleAttempt(out);
      this.emitGenerated(event.seq, interrupted, out);
    }
    const legacyGoal = splitLegacyGoalMessage(event);
    if (legacyGoal) {
      this.emitGenerated(event.seq, legacyGoal.change, out);
      this.emitSource(legacyGoal.message, out);
    } else if (event.type === 'assistant/chunk') this.addChunk(event, out);
    else if (event.type === 'assistant/message') this.settleMessage(event, out);
    else if (ATTEMPT_CLOSERS.has(event.type)) {
      this.settleAttempt(out);
      this.emitSource(event, out);
    } else if (this.pending) this.pending.heldBack.push(event);
    else this.emitSource(event, out);
  }

  transformRun(run: EventRun, out: EventSink): void {
    if (!isAssistantChunkRun(run)) {
      for (const event of run.expand()) this.transformEvent(event, out);
      return;
    }
    this.turns.previous = undefined;
    this.lastTime = run.lastTime;
    const attempt = this.attemptFor(run.turn, run.step, out);
    if (run.firstSeq < this.sourceCut !== run.lastSeq < this.sourceCut) throw this.cutSplitsAttempt();
    attempt.stream.addPackedRun(run.stream, run.lastTime);
    attempt.addChunkSeqs(run.firstSeq, run.eventCount, run.lastTime);
  }

  finish(out: EventSink): number {
    this.settleAttempt(out);
    if (this.targetCut === undefined) {
      this.targetCut = this.targetSeq;
      this.emitMarker(this.lastTime, out);
    }
    return this.targetCut;
  }

  private addChunk(event: FormatEvent, out: EventSink): void {
    const data = event.data as JsonObject;
    const attempt = this.attemptFor(data.turn, data.step, out);
    this.assertCutKeeps(attempt, event.seq);
    attempt.stream.addChunk(event.time, data.chunk);
    attempt.addChunkSeqs(event.seq, 1, event.time);
    if ((data.chunk as JsonObject).type === 'finish') attempt.terminal = true;
  }

  /** The attempt a chunk of (turn, step) belongs to: the pending one, or a new one after settling it. */
  private attemptFor(turn: unknown, step: unknown, out: EventSink): PendingAttempt {
    const pending = this.pending;
    if (pending && (pending.terminal || pending.turn !== turn || pending.step !== step)) this.settleAttempt(out);
    else if (pending) this.releaseHeldBack(pending, out);
    return (this.pending ??= new PendingAttempt(turn, step));
  }

  /** An `assistant/message` claims the pending attempt when it cites exactly its chunks. */
  private settleMessage(event: FormatEvent, out: EventSink): void {
    const data = event.data as JsonObject;
    const pending = this.pending;
    const sources = event.sourceEventSeqs as unknown;
    if (pending && (pending.turn !== data.turn || pending.step !== data.step)) {
      this.settleAttempt(out);
      this.emitSource(withStream(event, []), out);
      return;
    }
    if (!Array.isArray(sources)) {
      if (pending) throw refuse(`assistant/message ${event.seq} does not cite its complete v1 chunk attempt`);
      this.emitSource(withStream(event, []), out);
      return;
    }
    if (sources.length === 0) {
      this.settleAttempt(out);
      this.emitSource(withStream(event, []), out);
      return;
    }
    if (!pending || !pending.isCitedExactlyBy(sources))
      throw refuse(`assistant/message ${event.seq} chunk provenance is not one complete ordered attempt`);
    this.assertCutKeeps(pending, event.seq);
    pending.terminal = true;
    this.releaseHeldBack(pending, out);
    this.emitSource(withStream(event, pending.stream.records()), out);
    this.pending = undefined;
  }

  /** An unclaimed attempt becomes `assistant/attempt` at its last chunk, before the events held after it. */
  private settleAttempt(out: EventSink): void {
    const pending = this.pending;
    if (!pending) return;
    this.emitGenerated(pending.lastSeq, pending.attemptEvent(), out);
    this.releaseHeldBack(pending, out);
    this.pending = undefined;
  }

  private releaseHeldBack(pending: PendingAttempt, out: EventSink): void {
    for (const event of pending.heldBack) this.emitSource(event, out);
    pending.heldBack.length = 0;
  }

  /** A source event at its new seq; the source's own end-seed at the cut becomes the inherited marker. */
  private emitSource(event: FormatEvent, out: EventSink): void {
    const atCut = this.header.isSeeded && event.seq === this.sourceCut && event.type === 'session/end-seed';
    this.placeCutBefore(event.seq, event.time, atCut, out);
    this.mapping.set(event.seq, this.targetSeq);
    out.emitEvent(remapEvent(atCut ? { ...event, data: { inherited: true } } : event, this.targetSeq++, this.mapping));
  }

  /** An inserted event, placed as if it stood at source seq `origin`. */
  private emitGenerated(origin: number, event: FormatEvent, out: EventSink): void {
    this.placeCutBefore(origin, event.time, false, out);
    out.emitEvent(remapEvent(event, this.targetSeq++, this.mapping));
  }

  /**
   * The first event at or after the source cut fixes the target cut; unless that event is the source's
   * own end-seed, an inherited marker is inserted before it.
   */
  private placeCutBefore(origin: number, time: number, isSourceMarker: boolean, out: EventSink): void {
    if (this.targetCut !== undefined || origin < this.sourceCut) return;
    this.targetCut = this.targetSeq;
    if (!isSourceMarker) this.emitMarker(time, out);
  }

  private emitMarker(time: number, out: EventSink): void {
    out.emitEvent({ type: 'session/end-seed', seq: this.targetSeq++, time, data: { inherited: true } });
  }

  private assertCutKeeps(attempt: PendingAttempt, member: number): void {
    if ((attempt.firstChunkSeq ?? member) < this.sourceCut !== member < this.sourceCut) throw this.cutSplitsAttempt();
  }

  private cutSplitsAttempt(): SessionFormatUnsupportedMigrationError {
    return refuse(`inherited Session cut ${this.sourceCut} splits one Assistant attempt`);
  }

  /** A v1 delivery marker of this generation must name this session, unless it was inherited from the parent. */
  private checkDeliveryMarker(event: FormatEvent): void {
    if (event.type !== 'session-log-deepseek/delivery-accepted') return;
    const data = event.data as JsonObject;
    const inherited = this.header.parentSession !== undefined && event.seq < this.sourceCut;
    if (data.sessionFormatVersion === 1 && !inherited && data.sessionId !== this.header.id)
      throw refuse('current-generation delivery marker names the wrong Session');
  }
}

function assertChunkEnvelope(event: FormatEvent): void {
  for (const key of Object.keys(event))
    if (!CHUNK_FIELDS.has(key)) throw refuse(`assistant/chunk ${event.seq} has unexpected member ${key}`);
  for (const key of ['type', 'seq', 'time', 'data'])
    if (!Object.hasOwn(event, key)) throw refuse(`assistant/chunk ${event.seq} lacks required member ${key}`);
  if (event.ignorable !== undefined && event.ignorable !== true)
    throw refuse(`assistant/chunk ${event.seq} ignorable must be true when present`);
}

/** The message with its chunk provenance dropped and its stream embedded. */
function withStream(event: FormatEvent, stream: unknown[]): FormatEvent {
  const { sourceEventSeqs: _cited, ...rest } = event;
  return { ...rest, data: { ...(event.data as JsonObject), stream } };
}

export const v1ToV2Migration: FormatMigration = {
  name: '@deepseek-ai/dsh-session-format-v1-to-v2',
  edge: 'v1-to-v2',
  fromVersion: 1,
  toVersion: 2,
  migrateHeader(header) {
    assertReleasedHeader(header, 1);
    return { ...header, version: 2 };
  },
  validateTargetHeader: assertV2Header,
  createStage: (context) => new V1ToV2Stage(context, context.sourceKind === 'decoded'),
};
