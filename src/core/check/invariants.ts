// The relational invariants of spec §3 as warnings. dsh does not enforce them when it loads a log
// (they are its dev-time "invariant companion"), so a log dsh loads can break them; the editor shows
// them as lint. The pass takes each event while the log loads (and as it grows), so nothing is
// parsed again; turn and step numbers come from the log's typed columns.
//
// Rules (ids in quotes):
//   'invariant.turn-bracketing'  turn/start only when no turn is open, numbered previous + 1 (first 1);
//                                turn/end names the open turn, with no step open.
//   'invariant.step-bracketing'  step/start inside the open turn with no step open, numbered next
//                                (restarting at 1 each turn); step/end names the open turn/step.
//   'invariant.step-scope'       assistant/chunk, assistant/message, tool/call and appended tool/result
//                                name the open turn and step.
//   'invariant.turn-scope'       todo/write, request/header, request/context and replacement tool/results
//                                happen inside an open turn.
//   'invariant.pending-call'     an appended tool/result answers a tool/call pending in its step, unless
//                                it is a synthetic TOOL_NOT_STARTED error result; a step/end leaves no
//                                recorded tool/call unanswered.
//   compaction brackets          see compaction-invariants.ts.
// user/message, session/end-seed and plugin events are unconstrained (agent/inbox/spliced, hooks,
// titles… appear between turns in real logs).
import type { Diagnostic, SessionEvent } from '../types';
import { SurfaceRole, type EventFacts } from '../read/event-index';
import { KNOWN_EVENT_TYPE_NAMES, TypeId } from '../read/known-types';
import { DiagnosticSink } from './diagnostic-sink';
import { CompactionBracketCheck } from './compaction-invariants';
import { stringText, valueText } from '../value-text';
import { SmallMap } from '../small-map';
import { say, type Said } from '../words';

const TURN = 'invariant.turn-bracketing';
const STEP = 'invariant.step-bracketing';
const STEP_SCOPE = 'invariant.step-scope';
const TURN_SCOPE = 'invariant.turn-scope';
const PENDING = 'invariant.pending-call';

/**
 * Every relational-invariant warning of the log's kept events (closers are not included). The pass ran
 * while the log was read; the log is named by the one field read here, so this module need not know
 * the reader that holds it.
 */
export function checkInvariants(log: { readonly facts: { readonly invariants: InvariantPass } }): Diagnostic[] {
  return log.facts.invariants.diagnostics();
}

export class InvariantPass {
  private readonly sink: DiagnosticSink;
  private readonly compaction: CompactionBracketCheck;
  private count = 0;
  private settled: { count: number; diagnostics: Diagnostic[] } | undefined;
  private openTurn: number | null = null;
  private openTurnSeq = -1;
  private lastTurn = 0;
  private openStep: number | null = null;
  private lastStep = 0;
  /** Recorded tool/calls of the open step awaiting a result: call id → tool/call seq. */
  private readonly pending = new SmallMap<string, number>();
  /** The last step-scope warning, so a run of stray events of one step makes one warning, not hundreds. */
  private scopeRun: { key: string; first: Said; diagnostic: Diagnostic | undefined; more: number } | undefined;

  constructor(private readonly log: EventFacts) {
    this.sink = new DiagnosticSink(log);
    this.compaction = new CompactionBracketCheck(this.sink, log);
  }

  /** One kept event, after the reader indexed it (see LogFacts.observeEvent for the rest). */
  observeEvent(
    seq: number,
    event: SessionEvent,
    typeId: number,
    turn: number | undefined,
    step: number | undefined,
    role: SurfaceRole,
  ): void {
    this.count = seq + 1;
    const replaces = role === SurfaceRole.Replace;
    // The bracket check sees the turn state *before* the event (a turn/start inside a bracket).
    this.compaction.observe(typeId, seq, event, this.openTurn, replaces);
    this.visit(typeId, seq, turn, step, replaces, event);
  }

  /** The members of a packed row: chunks of one turn and step (a validated row's, numbers as turn() and step() give them). */
  observeRow(seq0: number, members: number, turn: number, step: number): void {
    this.count = seq0 + members;
    this.compaction.observe(TypeId.AssistantChunk, seq0, undefined, this.openTurn, false);
    this.needStep(seq0, 'assistant/chunk', turn, step, members);
  }

  /** The warnings so far, plus what the end of the log says (an open bracket, a price with no replacement). */
  diagnostics(): Diagnostic[] {
    if (this.settled?.count !== this.count) {
      const tail = new DiagnosticSink(this.log);
      if (this.count > 0) this.compaction.finish(this.count - 1, tail);
      this.settled = { count: this.count, diagnostics: [...this.sink.diagnostics, ...tail.diagnostics] };
    }
    return this.settled.diagnostics.slice();
  }

  private visit(
    typeId: number,
    seq: number,
    turn: number | undefined,
    step: number | undefined,
    replaces: boolean,
    event: SessionEvent,
  ): void {
    switch (typeId) {
      case TypeId.TurnStart:
        return this.turnStart(seq, turn);
      case TypeId.TurnEnd:
        return this.turnEnd(seq, turn);
      case TypeId.StepStart:
        return this.stepStart(seq, turn, step);
      case TypeId.StepEnd:
        return this.stepEnd(seq, turn, step);
      case TypeId.ToolResult:
        return replaces ? this.needTurn(seq, 'replacement tool/result') : this.toolResult(seq, turn, step, event);
      // Step-scoped
      case TypeId.AssistantChunk:
      case TypeId.AssistantMessage:
        return this.needStep(seq, KNOWN_EVENT_TYPE_NAMES[typeId], turn, step, 1);
      case TypeId.ToolCall:
        this.needStep(seq, 'tool/call', turn, step, 1);
        return this.toolCall(event);
      // Turn-scoped
      case TypeId.TodoWrite:
      case TypeId.RequestHeader:
      case TypeId.RequestContext:
        return this.needTurn(seq, KNOWN_EVENT_TYPE_NAMES[typeId]);
    }
  }

  private turnStart(seq: number, turn: number | undefined): void {
    if (this.openTurn !== null) {
      this.sink.report('warning', TURN, seq, say('turn/start (turn {0}) while turn {1} is still open', show(turn), this.openTurn), [
        { seq: this.openTurnSeq, message: say('turn {0} starts here', this.openTurn) },
      ]);
    }
    if (turn !== this.lastTurn + 1)
      this.sink.report('warning', TURN, seq, say('turn/start numbers turn {0}; the next turn is {1}', show(turn), this.lastTurn + 1));
    this.openTurn = turn ?? null;
    this.openTurnSeq = seq;
    if (turn !== undefined) this.lastTurn = turn;
    this.openStep = null;
    this.lastStep = 0;
    this.pending.clear();
  }

  private turnEnd(seq: number, turn: number | undefined): void {
    if (this.openTurn === null) this.sink.report('warning', TURN, seq, say('turn/end (turn {0}) with no open turn', show(turn)));
    else if (turn !== this.openTurn)
      this.sink.report('warning', TURN, seq, say('turn/end names turn {0} but turn {1} is open', show(turn), this.openTurn));
    if (this.openStep !== null) this.sink.report('warning', TURN, seq, say('turn/end while step {0} is still open', this.openStep));
    this.openTurn = null;
    this.openStep = null;
    this.pending.clear();
  }

  private stepStart(seq: number, turn: number | undefined, step: number | undefined): void {
    if (this.openTurn === null)
      this.sink.report('warning', STEP, seq, say('step/start (turn {0} step {1}) outside any turn', show(turn), show(step)));
    else if (turn !== this.openTurn)
      this.sink.report('warning', STEP, seq, say('step/start names turn {0} but turn {1} is open', show(turn), this.openTurn));
    if (this.openStep !== null) this.sink.report('warning', STEP, seq, say('step/start while step {0} is still open', this.openStep));
    if (step !== this.lastStep + 1)
      this.sink.report(
        'warning',
        STEP,
        seq,
        say('step/start numbers step {0}; the next step of the turn is {1}', show(step), this.lastStep + 1),
      );
    this.openStep = step ?? null;
    if (step !== undefined) this.lastStep = step;
    this.pending.clear();
  }

  private stepEnd(seq: number, turn: number | undefined, step: number | undefined): void {
    if (this.openStep === null)
      this.sink.report('warning', STEP, seq, say('step/end (turn {0} step {1}) with no open step', show(turn), show(step)));
    else if (turn !== this.openTurn || step !== this.openStep) {
      this.sink.report(
        'warning',
        STEP,
        seq,
        say('step/end names turn {0} step {1} but turn {2} step {3} is open', show(turn), show(step), show(this.openTurn), this.openStep),
      );
    }
    // Most steps end with every call answered: no snapshot of an empty table.
    if (this.pending.size > 0)
      for (const [callId, callSeq] of this.pending.entries()) {
        this.sink.report(
          'warning',
          PENDING,
          seq,
          say('step {0} ends with tool call {1} (tool/call seq {2}) unanswered', show(step), valueText(callId), callSeq),
          [{ seq: callSeq, message: say('the unanswered tool/call') }],
        );
      }
    this.openStep = null;
    this.pending.clear();
  }

  /** `events` stray events of one kind and step (a packed row is many) make one warning. */
  private needStep(seq: number, type: string, turn: number | undefined, step: number | undefined, events: number): void {
    let message: Said;
    if (this.openTurn === null || this.openStep === null)
      message = say('{0} (turn {1} step {2}) outside an open step', type, show(turn), show(step));
    else if (turn !== this.openTurn || step !== this.openStep)
      message = say(
        '{0} names turn {1} step {2} but turn {3} step {4} is open',
        type,
        show(turn),
        show(step),
        this.openTurn,
        this.openStep,
      );
    else return;
    const key = `${show(turn)}/${show(step)}/${show(this.openTurn)}/${show(this.openStep)}`;
    if (this.scopeRun?.key === key) {
      this.scopeRun.more += events;
      if (this.scopeRun.diagnostic)
        Object.assign(this.scopeRun.diagnostic, say('{0} (+{1} more events of that step)', this.scopeRun.first, this.scopeRun.more));
      return;
    }
    this.scopeRun = { key, first: message, diagnostic: this.sink.report('warning', STEP_SCOPE, seq, message), more: 0 };
    if (events > 1) this.needStep(seq, type, turn, step, events - 1);
  }

  private needTurn(seq: number, what: string): void {
    if (this.openTurn === null) this.sink.report('warning', TURN_SCOPE, seq, say('{0} outside any turn', what));
  }

  private toolCall(event: SessionEvent | undefined): void {
    const callId = event?.data?.callId;
    if (typeof callId === 'string') this.pending.set(callId, event!.seq);
  }

  private toolResult(seq: number, turn: number | undefined, step: number | undefined, event: SessionEvent): void {
    this.needStep(seq, 'tool/result', turn, step, 1);
    const data = event.data;
    const callId = data?.message?.source?.callId;
    if (typeof callId === 'string' && this.pending.delete(callId)) return;
    if (data?.error?.code === 'TOOL_NOT_STARTED') return;
    this.sink.report(
      'warning',
      PENDING,
      seq,
      say('tool/result answers call {0}, which has no pending tool/call in this step', valueText(callId)),
    );
  }
}

function show(value: unknown): string {
  return value === undefined ? '?' : stringText(value, 80);
}
