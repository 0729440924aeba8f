// The v4 relationships between events (spec §6): turns and steps in order, the events that need an
// open turn or step, tool calls, PTC sub-calls, retries, titles, commands, compactions and the
// surface with its protected head. Unfinished tails stay open: a log may end mid-turn. The events are
// checked as they go past; what a later event looks back at is kept compact (EarlierEvents).
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';
import { V4_SURFACE_TYPES } from '../vocabulary';
import { earlierSeq, nonEmptyText, record } from './checks';
import { SurfaceFold } from './surface-fold';
import { ToolCalls } from './tool-calls';
import { PtcDispatches, Retries } from './dispatches-and-retries';
import { Compactions, OrphanStarts } from './compactions';
import { checkTitleSources } from './titles';
import { checkDeveloperBinding } from './developer-binding';
import { EarlierEvents } from './earlier-events';

const NONE: readonly number[] = [];

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

/**
 * The relationship checks over a v4 artifact's events in order (dsh's lifecycle pass). `accept` throws
 * the first relationship an event breaks; `observe`, called for every event after it, keeps what later
 * events look back at. One rule looks ahead: a turn boundary may cross a compaction an inherited
 * prefix left open at its seed marker, which only a later marker shows; such a crossing is held back
 * until the log tells (see `observe`).
 */
export class V4Lifecycle {
  private turn: number | null = null;
  private step: number | null = null;
  private nextTurn = 1;
  private nextStep = 1;
  /** The provider of the latest request/header (retries must name it). */
  private provider: unknown;
  private readonly surface = new SurfaceFold();
  /** The surface nodes the last accepted event shadowed (none unless it replaced some). */
  shadowed: readonly number[] = NONE;
  private readonly tools = new ToolCalls();
  private readonly dispatches = new PtcDispatches();
  private readonly retries = new Retries();
  private readonly commands = new Set<string>();
  private readonly compactions = new Compactions();
  private readonly earlier = new EarlierEvents();
  private readonly orphans = new OrphanStarts();
  /** A turn boundary that crossed an open compaction whose start may yet prove an orphan. */
  private crossing: { start: number; error: SessionFormatError } | undefined;

  constructor(private readonly knownTypes: ReadonlySet<string>) {}

  accept(event: FormatEvent): void {
    this.shadowed = NONE;
    if (!this.knownTypes.has(event.type) || !RELATIONSHIP_TYPES.has(event.type)) return;
    const data = record(event.data, event.type);
    if (STEP_EVENT_TYPES.has(event.type)) this.requireStep(event, data);
    if (event.type.startsWith('turn/')) this.crossTurnBoundary(event.type);
    this.shadowed = this.surface.apply(event);
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
        checkDeveloperBinding(this.earlier, event, data, this.knownTypes);
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
        checkTitleSources(this.earlier, event, data, this.knownTypes);
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

  /**
   * Notes the event at `index` (its place in the artifact) for the events after it. Returns the
   * refusal of a held-back crossing once the log shows it stands (its compaction was no orphan): it
   * arose before anything this pass refused since. Never throws.
   */
  observe(event: FormatEvent, index: number): SessionFormatError | undefined {
    this.earlier.note(event, index);
    if (!isJsonObject(event) || !this.knownTypes.has(event.type)) return undefined;
    this.orphans.observe(event);
    return this.settledCrossing(false);
  }

  /** After the last event: the refusal of a crossing still held back (its compaction is no orphan). */
  finish(): SessionFormatError | undefined {
    return this.settledCrossing(true);
  }

  private settledCrossing(atEnd: boolean): SessionFormatError | undefined {
    const crossing = this.crossing;
    if (crossing === undefined) return undefined;
    const status = this.orphans.status(crossing.start);
    if (status === 'pending' && !atEnd) return undefined;
    this.crossing = undefined;
    return status === 'orphan' ? undefined : crossing.error;
  }

  private crossTurnBoundary(type: string): void {
    const start = this.compactions.openStart;
    if (start === undefined) return;
    const status = this.orphans.status(start);
    if (status === 'orphan') return;
    const error = new SessionFormatError(`${type} crosses an open compaction`);
    if (status === 'not') throw error;
    // Only a later seed marker can show the start is an orphan: the check goes on as if it were.
    this.crossing ??= { start, error };
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
    const sourceIsCommand = this.earlier.isCommand(earlierSeq(data.sourceEventSeq, event.seq, 'command sourceEventSeq'));
    if (data.kind !== 'success' || sourceIsCommand) {
      throw new SessionFormatError('command/done has invalid sourceEventSeq');
    }
  }
}
