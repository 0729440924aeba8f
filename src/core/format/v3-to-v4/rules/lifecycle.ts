// The v4 relationships between events (spec §6): turns and steps in order, the events that need an
// open turn or step, tool calls, PTC sub-calls, retries, titles, commands, compactions and the
// surface with its protected head. Unfinished tails stay open: a log may end mid-turn.
import type { Artifact, FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import type { JsonObject } from '../../json';
import { V4_SURFACE_TYPES } from '../vocabulary';
import { earlierSeq, nonEmptyText, record } from './checks';
import { SurfaceFold } from './surface-fold';
import { ToolCalls } from './tool-calls';
import { PtcDispatches, Retries } from './dispatches-and-retries';
import { Compactions, orphanCompactionStarts } from './compactions';
import { checkTitleSources } from './titles';
import { checkDeveloperBinding } from './developer-binding';

/** Events that belong to an open step, beside the tool lifecycle ones. */
const STEP_EVENT_TYPES: ReadonlySet<string> = new Set(['system/message', 'developer/message', 'assistant/attempt']);

const RELATIONSHIP_TYPES: ReadonlySet<string> = new Set([
  ...V4_SURFACE_TYPES,
  ...STEP_EVENT_TYPES,
  'turn/start',
  'turn/end',
  'step/start',
  'step/end',
  'tool/call',
  'request/header',
  'request/context',
  'tool/ptc-dispatch-start',
  'tool/ptc-dispatch',
  'llm/retry',
  'llm/retry-started',
  'session/title',
  'session/title-llm-request',
  'command/run',
  'command/done',
  'compaction/start',
  'compaction/summary',
  'compaction/end',
  'compaction/prune',
  'session/end-seed',
]);

class Lifecycle {
  private turn: number | null = null;
  private step: number | null = null;
  private nextTurn = 1;
  private nextStep = 1;
  /** The provider of the latest request/header (retries must name it). */
  private provider: unknown;
  private readonly surface = new SurfaceFold();
  private readonly tools = new ToolCalls();
  private readonly dispatches = new PtcDispatches();
  private readonly retries = new Retries();
  private readonly commands = new Set<string>();
  private readonly compactions: Compactions;

  constructor(
    private readonly artifact: Artifact,
    private readonly knownTypes: ReadonlySet<string>,
  ) {
    this.compactions = new Compactions(orphanCompactionStarts(artifact.events, knownTypes));
  }

  accept(event: FormatEvent): void {
    if (!this.knownTypes.has(event.type) || !RELATIONSHIP_TYPES.has(event.type)) return;
    const data = record(event.data, event.type);
    if (STEP_EVENT_TYPES.has(event.type)) this.requireStep(event, data);
    if (event.type.startsWith('turn/') && this.compactions.blocksTurnBoundary) {
      throw new SessionFormatError(`${event.type} crosses an open compaction`);
    }
    this.surface.apply(event);
    switch (event.type) {
      case 'turn/start':
        if (this.turn !== null || data.turn !== this.nextTurn) throw new SessionFormatError('turn/start does not open the expected turn');
        this.turn = this.nextTurn;
        this.nextStep = 1;
        this.tools.clear();
        break;
      case 'turn/end':
        if (this.turn === null || data.turn !== this.turn || this.step !== null) {
          throw new SessionFormatError('turn/end does not match the open turn with no open step');
        }
        this.closeTools(event.type);
        this.turn = null;
        this.nextTurn += 1;
        break;
      case 'step/start':
        if (this.turn === null || data.turn !== this.turn || this.step !== null || data.step !== this.nextStep) {
          throw new SessionFormatError('step/start does not match the open turn and next step');
        }
        this.step = this.nextStep;
        break;
      case 'step/end':
        this.requireStep(event, data);
        this.closeTools(event.type);
        this.step = null;
        this.nextStep += 1;
        break;
      case 'assistant/message':
      case 'tool/call':
      case 'tool/result':
        this.toolEvent(event, data);
        break;
      case 'developer/message':
        checkDeveloperBinding(this.artifact.events, event, data, this.knownTypes);
        break;
      case 'request/header':
        this.requireTurn(event.type);
        this.provider = record(record(data.header, 'request header').config, 'request config').provider;
        break;
      case 'request/context':
        this.requireTurn(event.type);
        break;
      case 'tool/ptc-dispatch-start':
      case 'tool/ptc-dispatch':
        this.requireTurn(event.type);
        this.dispatches.accept(event, data);
        break;
      case 'llm/retry':
      case 'llm/retry-started':
        this.retries.accept(event, data, { turn: this.turn, step: this.step ?? this.nextStep - 1, provider: this.provider });
        break;
      case 'session/title':
      case 'session/title-llm-request':
        checkTitleSources(this.artifact.events, event, data, this.knownTypes);
        break;
      case 'command/run':
      case 'command/done':
        this.command(event, data);
        break;
      case 'compaction/start':
      case 'compaction/summary':
      case 'compaction/end':
      case 'compaction/prune':
        if (event.type === 'compaction/prune' || event.type === 'compaction/summary') this.surface.checkShadowedSpan(event, data);
        if (event.type !== 'compaction/prune') this.compactions.accept(event, data, this.turn);
        break;
      case 'user/message': {
        const source = record(data.source, 'user message source');
        if (event.surfaceOp !== 'append' && source.kind === 'compact-checkpoint') this.compactions.owner(source, 'compaction checkpoint');
        break;
      }
      case 'session/end-seed':
        this.compactions.expire();
        break;
    }
  }

  private requireTurn(type: string): void {
    if (this.turn === null) throw new SessionFormatError(`${type} is outside an open turn`);
  }

  private requireStep(event: FormatEvent, data: JsonObject): void {
    if (this.turn === null || this.step === null || data.turn !== this.turn || data.step !== this.step) {
      throw new SessionFormatError(`${event.type} does not match an open turn and step`);
    }
  }

  private closeTools(type: string): void {
    if (this.tools.size !== 0) throw new SessionFormatError(`${type} leaves unresolved tool call ${String(this.tools.firstPending())}`);
  }

  private toolEvent(event: FormatEvent, data: JsonObject): void {
    // A result replacing an earlier one (a prune) rewrites history; it needs a turn, not the call's step.
    if (event.type === 'tool/result' && event.surfaceOp !== 'append') {
      this.requireTurn(event.type);
      return;
    }
    this.requireStep(event, data);
    if (event.type === 'assistant/message') this.tools.advertise(data);
    else if (event.type === 'tool/call') this.tools.start(event, data);
    else this.tools.settle(event, data);
  }

  private command(event: FormatEvent, data: JsonObject): void {
    const id = nonEmptyText(data.commandId, 'commandId');
    if (event.type === 'command/run') {
      if (this.commands.has(id)) throw new SessionFormatError(`command/run repeats commandId ${id}`);
      this.commands.add(id);
      return;
    }
    if (!this.commands.has(id)) throw new SessionFormatError('command/done has no prior command/run');
    if (data.sourceEventSeq === undefined) return;
    const source = this.artifact.events[earlierSeq(data.sourceEventSeq, event.seq, 'command sourceEventSeq')];
    if (data.kind !== 'success' || source?.type === 'command/run' || source?.type === 'command/done') {
      throw new SessionFormatError('command/done has invalid sourceEventSeq');
    }
  }
}

/** Throws the first relationship a v4 artifact breaks; events of types outside `knownTypes` are passed over. */
export function assertV4Lifecycle(artifact: Artifact, knownTypes: ReadonlySet<string>): void {
  const lifecycle = new Lifecycle(artifact, knownTypes);
  for (const event of artifact.events) lifecycle.accept(event);
}
