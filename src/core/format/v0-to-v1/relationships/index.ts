// Cross-event relationships a session must satisfy to be constructed (dsh's rules and messages):
// turns and steps open and close in order, tool calls are advertised, started and resolved, retries
// chain, compactions nest and shadow exact surface spans, titles cite human messages, commands pair,
// delivery markers name their own session. Event types outside the released inventory are skipped,
// except those a later generation declares as step events.
import { SessionFormatError } from '../../errors';
import { jsonEqual, jsonObject, jsonString, templateString, type JsonObject } from '../../json';
import type { Artifact, FormatEvent } from '../../types';
import { RELEASED_EVENT_DISPOSITIONS } from '../dispositions';
import { RetryLedger } from './retries';
import { LiveSurface } from './surface';
import { assertTitleSources, property } from './titles';

/** Event roles a later generation adds, interpreted by the generation that owns them. */
export interface RelationshipExtensions {
  /** Event types that must sit inside an open turn and step (v2's `assistant/attempt`). */
  readonly stepEvents?: ReadonlySet<string>;
  /** Title requests keep the source's framed text instead of having it recomputed (v2+). */
  readonly preservedSourceTitleRequestText?: boolean;
  /** Accept the legacy restart: a next-turn splice, then `turn/start` with the previous turn left open. */
  readonly legacyInterruptedTurnRestart?: boolean;
}

const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result']);
const TOOL_NOT_STARTED_TEXT = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.';

interface ToolLifecycle {
  name: unknown;
  arguments: unknown;
  state: 'advertised' | 'started';
}

interface OpenCompaction {
  id: unknown;
  sourceCommandId: unknown;
  turn: unknown;
  startSeq: number;
  summarized: boolean;
}

interface PtcStart {
  root: unknown;
  parent: unknown;
  name: unknown;
  arguments: unknown;
  settled: boolean;
}

function isReleasedType(type: unknown): type is string {
  return typeof type === 'string' && (RELEASED_EVENT_DISPOSITIONS as Record<string, unknown>)[type] !== undefined;
}

export function assertArtifactRelationships(artifact: Artifact, extensions: RelationshipExtensions = {}): void {
  new RelationshipWalk(artifact, extensions).run();
}

class RelationshipWalk {
  private openTurn: unknown = null;
  private openStep: unknown = null;
  private openStepProvider: unknown;
  private nextTurn = 1;
  private nextStep = 1;
  private readonly surface: LiveSurface;
  private openCompaction: OpenCompaction | undefined;
  private readonly staleCompactionStarts: Set<number>;
  private readonly retries = new RetryLedger();
  private readonly ptcRoots = new Map<unknown, unknown>();
  private readonly ptcStarts = new Map<unknown, PtcStart>();
  private readonly tools = new Map<unknown, ToolLifecycle>();
  private readonly commandRuns = new Set<unknown>();

  constructor(
    private readonly artifact: Artifact,
    private readonly extensions: RelationshipExtensions,
  ) {
    let capacity = artifact.events.length;
    for (const event of artifact.events) if (Number.isSafeInteger(event.seq) && event.seq >= capacity) capacity = event.seq + 1;
    this.surface = new LiveSurface(capacity);
    this.staleCompactionStarts = inheritedOrphanCompactionStarts(artifact.events);
  }

  run(): void {
    for (const event of this.artifact.events) {
      const stepEvent = this.extensions.stepEvents?.has(event.type) === true;
      if (!isReleasedType(event.type) && !stepEvent) continue;
      const data = jsonObject(event.data, `${event.type} ${event.seq} data`);
      if (SURFACE_TYPES.has(event.type)) this.surface.apply(event);
      if (
        (event.type === 'turn/start' || event.type === 'turn/end') &&
        this.openCompaction !== undefined &&
        !this.staleCompactionStarts.has(this.openCompaction.startSeq)
      )
        throw new SessionFormatError(`${event.type} crosses an open compaction`);
      if (stepEvent) this.requireOpenStep(event, data);
      else this.check(event, data);
    }
  }

  private check(event: FormatEvent, data: JsonObject): void {
    switch (event.type) {
      case 'turn/start':
        return this.turnStart(event, data);
      case 'turn/end':
        if (this.openTurn !== data['turn']) throw new SessionFormatError(`turn/end ${jsonString(data['turn'])} has no matching open turn`);
        this.assertNoUnresolvedTools('turn/end');
        if (this.openStep !== null) throw new SessionFormatError(`turn/end ${jsonString(data['turn'])} crosses an open step`);
        this.openTurn = null;
        this.nextTurn += 1;
        return;
      case 'step/start':
        if (this.openTurn !== data['turn'] || this.openStep !== null || data['step'] !== this.nextStep)
          throw new SessionFormatError(`${event.type} does not match the open turn and next step`);
        this.openStep = data['step'];
        return;
      case 'step/end':
        this.requireOpenStep(event, data);
        this.assertNoUnresolvedTools('step/end');
        this.tools.clear();
        this.openStep = null;
        this.nextStep += 1;
        return;
      case 'assistant/chunk':
        return this.requireOpenStep(event, data);
      case 'assistant/message':
        return this.assistantMessage(event, data);
      case 'tool/call': {
        this.requireOpenStep(event, data);
        const lifecycle = this.tools.get(data['callId']);
        if (
          lifecycle === undefined ||
          lifecycle.state !== 'advertised' ||
          lifecycle.name !== data['name'] ||
          lifecycle.arguments !== data['arguments']
        )
          throw new SessionFormatError(`tool/call ${templateString(data['callId'])} does not match one advertised tool call`);
        lifecycle.state = 'started';
        return;
      }
      case 'tool/result':
        return this.toolResult(event, data);
      case 'request/header':
        this.requireOpenTurn(event);
        this.openStepProvider = property(property(data['header'], 'config'), 'provider');
        return;
      case 'request/context':
        return this.requireOpenTurn(event);
      case 'tool/code-dispatch-start':
      case 'tool/code-dispatch':
        return this.codeDispatch(event, data);
      case 'llm/retry':
        if (this.openTurn !== data['turn'] || data['step'] !== (this.openStep ?? this.nextStep - 1) || this.openTurn === null)
          throw new SessionFormatError('llm/retry does not match the current turn and step');
        if (data['provider'] !== this.openStepProvider)
          throw new SessionFormatError('llm/retry provider does not match the open request/header');
        return this.retries.schedule(data);
      case 'llm/retry-started':
        return this.retries.start(data);
      case 'session/title':
      case 'session/title-llm-request':
        return assertTitleSources(this.artifact.events, event, data, this.extensions.preservedSourceTitleRequestText !== true);
      case 'command/run':
        if (this.commandRuns.has(data['commandId']))
          throw new SessionFormatError(`command/run repeats commandId ${templateString(data['commandId'])}`);
        this.commandRuns.add(data['commandId']);
        return;
      case 'command/done':
        return this.commandDone(data);
      case 'session-log-deepseek/delivery-accepted':
        return this.deliveryMarker(event, data);
      case 'compaction/start':
      case 'compaction/summary':
      case 'compaction/end':
      case 'compaction/prune':
        return this.compaction(event, data);
      case 'user/message': {
        const source = jsonObject(data['source'], `user/message ${event.seq} source`);
        if (event.surfaceOp !== 'append' && source['kind'] === 'plugin' && source['plugin'] === 'compact')
          this.assertCompactionOwner(source, `compaction checkpoint at seq ${event.seq}`);
        return;
      }
      case 'session/end-seed':
        this.openCompaction = undefined;
        return;
    }
  }

  private turnStart(event: FormatEvent, data: JsonObject): void {
    const previous = this.artifact.events[event.seq - 1];
    if (
      this.extensions.legacyInterruptedTurnRestart === true &&
      this.openTurn !== null &&
      this.openStep === null &&
      data['turn'] === (this.openTurn as number) + 1 &&
      this.nextTurn === this.openTurn &&
      previous?.type === 'agent/inbox/spliced'
    ) {
      const splice = jsonObject(previous.data, `agent/inbox/spliced ${previous.seq} data`);
      if (splice['target'] === 'next-turn' && Array.isArray(splice['inserted']) && splice['inserted'].length > 0) {
        this.openTurn = null;
        this.nextTurn += 1;
      }
    }
    if (this.openTurn !== null || data['turn'] !== this.nextTurn)
      throw new SessionFormatError(`turn/start ${jsonString(data['turn'])} does not open expected turn ${this.nextTurn}`);
    this.openTurn = data['turn'];
    this.openStep = null;
    this.tools.clear();
    this.nextStep = 1;
  }

  private assistantMessage(event: FormatEvent, data: JsonObject): void {
    this.requireOpenStep(event, data);
    const content = jsonObject(data['message'], `assistant/message ${event.seq} message`)['content'];
    if (!Array.isArray(content)) throw new TypeError(`assistant/message ${event.seq} content is not iterable`);
    for (const block of content as JsonObject[]) {
      if (property(block, 'type') !== 'tool-call') continue;
      const callId = block['id'];
      if (this.tools.has(callId)) throw new SessionFormatError(`assistant/message repeats advertised tool call ${templateString(callId)}`);
      this.tools.set(callId, { name: block['name'], arguments: block['arguments'], state: 'advertised' });
    }
  }

  private toolResult(event: FormatEvent, data: JsonObject): void {
    if (event.surfaceOp !== 'append') {
      if (this.openTurn === null) throw new SessionFormatError('tool/result replacement is outside an open turn');
      return;
    }
    this.requireOpenStep(event, data);
    const message = jsonObject(data['message'], `tool/result ${event.seq} message`);
    const callId = jsonObject(message['source'], `tool/result ${event.seq} source`)['callId'];
    const error = data['error'] === undefined ? undefined : jsonObject(data['error'], `tool/result ${event.seq} error`);
    const lifecycle = this.tools.get(callId);
    if (lifecycle === undefined) throw new SessionFormatError(`tool/result ${templateString(callId)} has no advertised tool lifecycle`);
    if (lifecycle.state === 'advertised' && !isExactToolNotStartedRepair(event, message, error))
      throw new SessionFormatError(`tool/result ${templateString(callId)} is not the exact TOOL_NOT_STARTED repair`);
    this.tools.delete(callId);
  }

  private codeDispatch(event: FormatEvent, data: JsonObject): void {
    this.requireOpenTurn(event);
    const root = data['rootCallId'];
    const parent = data['parentCallId'];
    const child = data['subCallId'];
    const known = this.ptcRoots.get(child);
    if (known !== undefined && known !== root) throw new SessionFormatError(`${event.type} changes its rootCallId`);
    if (parent !== root && this.ptcRoots.get(parent) !== root)
      throw new SessionFormatError(`${event.type} parentCallId does not belong to rootCallId`);
    if (event.type === 'tool/code-dispatch-start') {
      if (this.ptcStarts.has(child)) throw new SessionFormatError('tool/code-dispatch-start repeats subCallId');
      this.ptcStarts.set(child, { root, parent, name: data['name'], arguments: data['arguments'], settled: false });
    } else {
      const start = this.ptcStarts.get(child);
      if (start === undefined || start.settled) throw new SessionFormatError('tool/code-dispatch has no unique start');
      if (start.root !== root || start.parent !== parent || start.name !== data['name'] || !jsonEqual(start.arguments, data['arguments']))
        throw new SessionFormatError('tool/code-dispatch does not match its start');
      start.settled = true;
    }
    this.ptcRoots.set(child, root);
  }

  private commandDone(data: JsonObject): void {
    const id = data['commandId'];
    if (!this.commandRuns.has(id)) throw new SessionFormatError(`command/done ${templateString(id)} has no prior command/run`);
    const sourceSeq = data['sourceEventSeq'];
    if (sourceSeq === undefined) return;
    const source = typeof sourceSeq === 'number' ? this.artifact.events[sourceSeq] : undefined;
    if (data['kind'] !== 'success' || source?.type === 'command/run' || source?.type === 'command/done')
      throw new SessionFormatError(`command/done ${templateString(id)} has invalid sourceEventSeq`);
  }

  private deliveryMarker(event: FormatEvent, data: JsonObject): void {
    const { header, inheritedEventCount } = this.artifact;
    if ((data['sessionFormatVersion'] ?? 0) !== header.version) return;
    const inherited = header.parentSession !== undefined && event.seq < inheritedEventCount;
    if (!inherited && data['sessionId'] !== header.id)
      throw new SessionFormatError('current-generation delivery marker names the wrong Session');
  }

  private compaction(event: FormatEvent, data: JsonObject): void {
    const type = event.type;
    if (type === 'compaction/prune') return this.assertCurrentSurfaceSpan(data, type);
    if (type === 'compaction/start') {
      if (this.openCompaction !== undefined) throw new SessionFormatError('compaction/start overlaps an open compaction');
      this.assertCompactionTurn(data['turn'], type);
      this.openCompaction = {
        id: data['compactionId'],
        sourceCommandId: data['sourceCommandId'],
        turn: data['turn'],
        startSeq: event.seq,
        summarized: false,
      };
      return;
    }
    const open = this.assertCompactionOwner(data, type);
    if (type === 'compaction/summary') {
      this.assertCompactionTurn(open.turn, type);
      if (open.summarized) throw new SessionFormatError('compaction/summary repeats');
      this.assertCurrentSurfaceSpan(data, type);
      open.summarized = true;
      return;
    }
    if (data['turn'] !== open.turn) throw new SessionFormatError('compaction/end changes its owner turn');
    this.assertCompactionTurn(open.turn, type);
    if (data['error'] === undefined && !open.summarized) throw new SessionFormatError('successful compaction/end requires one summary');
    this.openCompaction = undefined;
  }

  private assertCompactionOwner(data: JsonObject, what: string): OpenCompaction {
    const open = this.openCompaction;
    if (open === undefined || data['compactionId'] !== open.id || data['sourceCommandId'] !== open.sourceCommandId)
      throw new SessionFormatError(`${what} has no matching compaction/start`);
    return open;
  }

  private assertCompactionTurn(owner: unknown, type: string): void {
    if (owner === null ? this.openTurn !== null : owner !== this.openTurn)
      throw new SessionFormatError(`${type} does not match the open turn`);
  }

  private assertCurrentSurfaceSpan(data: JsonObject, type: string): void {
    const range = (data['shadowedRange'] ?? {}) as JsonObject;
    const seqs = data['shadowedSeqs'] as unknown[];
    const expected = this.surface.span(range['start'], range['end']) ?? [];
    if (!Array.isArray(seqs) || expected.length !== seqs.length || expected.some((seq, i) => seq !== seqs[i]))
      throw new SessionFormatError(`${type} shadowedSeqs do not name an exact current surface span`);
  }

  private requireOpenTurn(event: FormatEvent): void {
    if (this.openTurn === null) throw new SessionFormatError(`${event.type} is outside an open turn`);
  }

  private requireOpenStep(event: FormatEvent, data: JsonObject): void {
    if (data['turn'] !== this.openTurn || data['step'] !== this.openStep || this.openTurn === null || this.openStep === null)
      throw new SessionFormatError(`${event.type} does not match an open turn and step`);
  }

  private assertNoUnresolvedTools(boundary: string): void {
    const unresolved = this.tools.keys().next();
    if (!unresolved.done) throw new SessionFormatError(`${boundary} leaves unresolved tool call ${templateString(unresolved.value)}`);
  }
}

/** Compaction starts left open at an inherited seed boundary: the turn markers after them do not cross them. */
function inheritedOrphanCompactionStarts(events: readonly FormatEvent[]): Set<number> {
  const stale = new Set<number>();
  let open: number | undefined;
  for (const event of events) {
    if (event.type === 'compaction/start') open = event.seq;
    else if (event.type === 'compaction/end') open = undefined;
    else if (event.type === 'session/end-seed') {
      if (open !== undefined) stale.add(open);
      open = undefined;
    }
  }
  return stale;
}

/** The one tool result a resuming writer may append for a call advertised but never started. */
function isExactToolNotStartedRepair(event: FormatEvent, message: JsonObject, error: JsonObject | undefined): boolean {
  const callId = (message['source'] as JsonObject)['callId'];
  const content = message['content'] as unknown[] | undefined;
  const block = (Array.isArray(content) ? content[0] : undefined) as JsonObject | undefined;
  const repair = block?.['content'] as unknown[] | undefined;
  const text = (Array.isArray(repair) ? repair[0] : undefined) as JsonObject | undefined;
  return (
    error?.['name'] === 'ToolNotStartedError' &&
    error['code'] === 'TOOL_NOT_STARTED' &&
    event.sourceEventSeqs === undefined &&
    message['id'] === `interrupted-tool-result-${templateString(callId)}-${event.seq}` &&
    block?.['isError'] === true &&
    repair?.length === 1 &&
    text?.['type'] === 'text' &&
    text['text'] === TOOL_NOT_STARTED_TEXT
  );
}
