// The compaction-bracket invariants of spec §3 (dsh's dev-time companion in
// packages/compaction/compaction/src/invariant.ts), as warnings: dsh loads logs that break them.
//   * compaction ids are non-empty strings; no compaction/start while a bracket is open;
//   * `turn: null` is a standalone bracket between turns; a numeric turn must be the open turn;
//   * no turn/start or turn/end inside an open bracket;
//   * compaction/summary at most once per bracket, shadowedSeqs non-empty with first/last equal to
//     shadowedRange.start/end, shadowedTokenCount a non-negative safe integer;
//   * compaction/end matches the bracket's id, sourceCommandId and owner turn; an end without `error`
//     needs a summary;
//   * a replacement user/message with the `compact` checkpoint source carries the open bracket's id;
//   * a session/end-seed after an unmatched start makes the start stale (its lifecycle ended).
// Plus one adjacency rule from §6.1/§6.4 ('invariant.compaction-adjacent'): a summary or prune is the
// price of the replacement that immediately follows it, so that next event must replace exactly the
// priced range.
import { replaceRangeOf } from '../vocabulary/surface-marker';
import type { SessionEvent } from '../types';
import { DiagnosticSink } from './diagnostic-sink';
import type { EventFacts } from '../read/event-index';
import { TypeId } from '../read/known-types';
import { isSeq } from '../read/json-values';
import { valueText } from '../value-text';
import { say } from '../words';

interface Bracket {
  id: unknown;
  sourceCommandId: unknown;
  turn: unknown;
  startSeq: number;
  summarySeq?: number;
}

/** What a summary or prune promised the next event would replace. */
interface PricedRange {
  seq: number;
  type: string;
  start: unknown;
  end: unknown;
}

const BRACKET = 'invariant.compaction-bracket';
const SUMMARY = 'invariant.compaction-summary';
const CHECKPOINT = 'invariant.compaction-checkpoint';
const ADJACENT = 'invariant.compaction-adjacent';

export class CompactionBracketCheck {
  private bracket: Bracket | undefined;
  private priced: PricedRange | undefined;

  /** `log`: where an event's type is read back for a message (the checks themselves go by TypeId). */
  constructor(
    private readonly sink: DiagnosticSink,
    private readonly log: Pick<EventFacts, 'eventType'>,
  ) {}

  /**
   * Every event passes through here, in seq order, with its type's number (TypeId). `openTurn` is the
   * turn open before it, `replaces` whether it is a surface replacement; `event` is the event itself
   * (undefined for packed chunks).
   */
  observe(typeId: number, seq: number, event: SessionEvent | undefined, openTurn: number | null, replaces: boolean): void {
    if (this.priced && !(typeId === TypeId.UserMessage || typeId === TypeId.ToolResult)) {
      this.sink.report(
        'warning',
        ADJACENT,
        seq,
        say(
          '{0} at seq {1} prices a replacement, but the next event is {2}',
          this.priced.type,
          this.priced.seq,
          this.log.eventType(seq) ?? '',
        ),
        [{ seq: this.priced.seq, message: this.priced.type }],
      );
      this.priced = undefined;
    }
    switch (typeId) {
      case TypeId.CompactionStart:
        return this.start(event, openTurn);
      case TypeId.CompactionSummary:
        return this.summary(event);
      case TypeId.CompactionPrune:
        return this.prune(event);
      case TypeId.CompactionEnd:
        return this.end(event);
      case TypeId.TurnStart:
      case TypeId.TurnEnd:
        if (this.bracket)
          this.sink.report(
            'warning',
            BRACKET,
            seq,
            say(
              '{0} inside the compaction bracket opened at seq {1}',
              typeId === TypeId.TurnStart ? 'turn/start' : 'turn/end',
              this.bracket.startSeq,
            ),
            [{ seq: this.bracket.startSeq, message: 'compaction/start' }],
          );
        return;
      case TypeId.SessionEndSeed:
        if (this.bracket)
          this.sink.report(
            'info',
            BRACKET,
            seq,
            say('session/end-seed makes the unmatched compaction/start at seq {0} stale (its lifecycle ended)', this.bracket.startSeq),
          );
        this.bracket = undefined;
        return;
      case TypeId.UserMessage:
        return this.replacement('user/message', seq, event, replaces);
      case TypeId.ToolResult:
        return this.replacement('tool/result', seq, event, replaces);
    }
  }

  /**
   * At the end of the log: a bracket still open is a compaction in progress, or one that crashed.
   * Reported to `sink` without changing the state, so a growing log can ask again.
   */
  finish(lastSeq: number, sink: DiagnosticSink): void {
    if (this.priced)
      sink.report(
        'warning',
        ADJACENT,
        this.priced.seq,
        say('{0} at seq {1} prices a replacement that never follows (the log ends)', this.priced.type, this.priced.seq),
      );
    if (this.bracket)
      sink.report(
        'info',
        BRACKET,
        this.bracket.startSeq,
        say(
          'compaction {0} opened at seq {1} is still open at the end of the log (seq {2})',
          valueText(this.bracket.id),
          this.bracket.startSeq,
          lastSeq,
        ),
      );
  }

  private start(event: SessionEvent | undefined, openTurn: number | null): void {
    if (!event) return;
    const data = event.data ?? {};
    if (typeof data.compactionId !== 'string' || data.compactionId === '')
      this.sink.report('warning', BRACKET, event.seq, say('compaction/start has no compactionId (a non-empty string)'));
    if (this.bracket) {
      this.sink.report(
        'warning',
        BRACKET,
        event.seq,
        say('compaction/start while the bracket opened at seq {0} is still open (nested compaction)', this.bracket.startSeq),
        [{ seq: this.bracket.startSeq, message: say('open compaction/start') }],
      );
    }
    if (data.turn === null) {
      if (openTurn !== null)
        this.sink.report('warning', BRACKET, event.seq, say('standalone compaction (turn: null) started while turn {0} is open', openTurn));
    } else if (data.turn !== openTurn) {
      this.sink.report(
        'warning',
        BRACKET,
        event.seq,
        openTurn === null
          ? say('compaction/start names turn {0} but no turn is open', valueText(data.turn))
          : say('compaction/start names turn {0} but turn {1} is open', valueText(data.turn), openTurn),
      );
    }
    this.bracket = { id: data.compactionId, sourceCommandId: data.sourceCommandId, turn: data.turn, startSeq: event.seq };
  }

  private summary(event: SessionEvent | undefined): void {
    if (!event) return;
    const data = event.data ?? {};
    const bracket = this.bracket;
    if (!bracket) this.sink.report('warning', SUMMARY, event.seq, say('compaction/summary outside a compaction bracket'));
    else {
      if (data.compactionId !== bracket.id)
        this.sink.report(
          'warning',
          SUMMARY,
          event.seq,
          say('compaction/summary id {0} does not match the open bracket {1}', valueText(data.compactionId), valueText(bracket.id)),
        );
      if (bracket.summarySeq !== undefined)
        this.sink.report(
          'warning',
          SUMMARY,
          event.seq,
          say('second compaction/summary in the bracket (the first is seq {0})', bracket.summarySeq),
        );
      bracket.summarySeq ??= event.seq;
    }
    this.checkPrice(event, 'compaction/summary');
  }

  private prune(event: SessionEvent | undefined): void {
    if (event) this.checkPrice(event, 'compaction/prune');
  }

  /** shadowedSeqs / shadowedRange / shadowedTokenCount, shared by summary and prune. */
  private checkPrice(event: SessionEvent, type: string): void {
    const data = event.data ?? {};
    const seqs = data.shadowedSeqs;
    const range = data.shadowedRange ?? {};
    if (!Array.isArray(seqs) || seqs.length === 0 || !seqs.every(isSeq)) {
      this.sink.report('warning', SUMMARY, event.seq, say('{0} shadowedSeqs must be a non-empty array of seqs', type));
    } else if (seqs[0] !== range.start || seqs[seqs.length - 1] !== range.end) {
      this.sink.report(
        'warning',
        SUMMARY,
        event.seq,
        say('{0} shadowedSeqs run {1}…{2} but shadowedRange is {3}', type, seqs[0], seqs[seqs.length - 1], valueText(data.shadowedRange)),
      );
    }
    if (!isSeq(data.shadowedTokenCount))
      this.sink.report('warning', SUMMARY, event.seq, say('{0} shadowedTokenCount must be a non-negative safe integer', type));
    this.priced = { seq: event.seq, type, start: range.start, end: range.end };
  }

  private end(event: SessionEvent | undefined): void {
    if (!event) return;
    const data = event.data ?? {};
    const bracket = this.bracket;
    this.bracket = undefined;
    if (!bracket) {
      this.sink.report('warning', BRACKET, event.seq, say('compaction/end without an open compaction/start'));
      return;
    }
    const related = [{ seq: bracket.startSeq, message: 'compaction/start' }];
    if (data.compactionId !== bracket.id)
      this.sink.report(
        'warning',
        BRACKET,
        event.seq,
        say('compaction/end id {0} does not match the open bracket {1}', valueText(data.compactionId), valueText(bracket.id)),
        related,
      );
    if (data.sourceCommandId !== bracket.sourceCommandId)
      this.sink.report(
        'warning',
        BRACKET,
        event.seq,
        say(
          "compaction/end sourceCommandId {0} differs from the start's {1}",
          valueText(data.sourceCommandId),
          valueText(bracket.sourceCommandId),
        ),
        related,
      );
    if (data.turn !== bracket.turn)
      this.sink.report(
        'warning',
        BRACKET,
        event.seq,
        say("compaction/end owner turn {0} differs from the start's {1}", valueText(data.turn), valueText(bracket.turn)),
        related,
      );
    if (data.error === undefined && bracket.summarySeq === undefined)
      this.sink.report(
        'warning',
        BRACKET,
        event.seq,
        say('compaction/end reports success (no error) but the bracket has no compaction/summary'),
        related,
      );
  }

  private replacement(type: string, seq: number, event: SessionEvent | undefined, replaces: boolean): void {
    const priced = this.priced;
    this.priced = undefined;
    // Plain appends after nothing priced cost no parse.
    if (!priced && !(replaces && type === 'user/message')) return;
    const op = event?.surfaceOp;
    if (priced) {
      const range = replaces ? replaceRangeOf(op) : undefined;
      const matches =
        range !== undefined &&
        range.start === priced.start &&
        range.end === priced.end &&
        (priced.type === 'compaction/prune') === (type === 'tool/result');
      if (!matches)
        this.sink.report(
          'warning',
          ADJACENT,
          seq,
          say(
            '{0} at seq {1} follows the {2} at seq {3} but does not replace its range {4}',
            type,
            seq,
            priced.type,
            priced.seq,
            valueText({ start: priced.start, end: priced.end }),
          ),
          [{ seq: priced.seq, message: priced.type }],
        );
    }
    if (type !== 'user/message' || !replaces) return;
    const source = event?.data?.source;
    if (source?.kind !== 'plugin' || source.plugin !== 'compact') return;
    if (!this.bracket)
      this.sink.report(
        'warning',
        CHECKPOINT,
        seq,
        say('compaction checkpoint {0} replaces the surface outside any compaction bracket', valueText(source.compactionId)),
      );
    else if (source.compactionId !== this.bracket.id)
      this.sink.report(
        'warning',
        CHECKPOINT,
        seq,
        say('compaction checkpoint {0} does not match the open bracket {1}', valueText(source.compactionId), valueText(this.bracket.id)),
        [{ seq: this.bracket.startSeq, message: 'compaction/start' }],
      );
  }
}
