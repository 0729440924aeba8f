// The provenance facts of a log, gathered in the load's single pass: the reader hands every kept
// event (already parsed) and every packed row (never expanded) to `observeEvent`/`observeRow`, so
// nothing is parsed twice. What only the end of the log settles (chunks no message took, the
// reverse edge index) is computed when asked for and again only after the log grew.
//
// Edges ("derived came from source"):
//   stream   assistant/message ← assistant/chunk   (its sourceEventSeqs; by turn/step when it cites none)
//   call     tool/call ← assistant/message          (the message's tool-call block with that call id)
//   result   tool/result ← tool/call                (sourceEventSeqs, else by call id; ← the assistant
//                                                  message when no tool/call was recorded)
//   replace  replacement ← shadowed surface node    (replacements())
//   cite     any other sourceEventSeqs entry        (e.g. a checkpoint citing compaction/start, /summary)
//   price    compaction/summary|prune ← shadowedSeqs
// Closers (seqs ≥ eventCount) exist in memory only and are not indexed.
//
// This file follows the streams: which chunks each assistant/message took (claims, by citation or by
// turn and step) and whether they reassemble into it. The edges themselves are recorded by
// ProvenanceEdges (provenance-edges.ts); the words about streams are in stream-findings.ts.
import type { Diagnostic, Replacement, SessionEvent } from '../types';
import { DiagnosticSink } from '../check/diagnostic-sink';
import type { EventFacts } from '../read/event-index';
import { EdgeIndex } from './edge-index';
import { AttemptTracker } from './stream-attempts';
import { StreamAssembly, type AssemblyProblem } from './stream-assembly';
import { SeqMap } from './seq-map';
import { TypeId } from '../read/known-types';
import { say, type Said } from '../words';
import { ProvenanceEdges } from './provenance-edges';
import { checkReassembly, classifyUnclaimed, type SeqLookup } from './stream-findings';

/** What provenance reads of the log besides each event. */
export interface ProvenanceSource extends EventFacts {
  replacements(): readonly Replacement[];
  readonly lastTurnOpen: boolean;
}

export interface ProvenanceScan {
  edges: EdgeIndex;
  tracker: AttemptTracker;
  /** The assistant/message that took each chunk (-1 when none). */
  messageOf: SeqLookup;
  diagnostics: Diagnostic[];
}

export class ProvenanceBuilder {
  private readonly edges: ProvenanceEdges;
  private readonly tracker: AttemptTracker;
  /** Chunks claimed one by one; an attempt taken whole is recorded on the attempt (see messageOf). */
  private readonly claimedBy: SeqMap;
  /** The message that took a chunk, one by one or with its whole attempt (-1: none). */
  private readonly messageOf: SeqLookup = {
    get: (seq) => {
      const message = this.claimedBy.get(seq);
      if (message >= 0) return message;
      const attempt = this.tracker.attemptOf.get(seq);
      return attempt >= 0 ? this.tracker.takenBy(attempt) : -1;
    },
  };
  private readonly sink: DiagnosticSink;
  /** Events observed so far (edges may point at any of them). */
  private count = 0;
  private settled: { count: number; scan: ProvenanceScan } | undefined;

  /**
   * `expectedEvents`: the reader's estimate of the log's size, so the columns rarely grow.
   * `withEdges`: false when only the diagnostics are wanted. Then no edge is recorded, and nothing
   * is done for the events that only add edges (tool calls and results, citations outside a
   * message's stream, prices); claims, attempts and the reassembly check are the same.
   */
  constructor(
    private readonly log: ProvenanceSource,
    expectedEvents = 1024,
    private readonly withEdges = true,
  ) {
    this.sink = new DiagnosticSink(log);
    // A message's stream is one edge entry, so most events add none: an eighth of the events is room
    // enough for most logs, and the columns grow if not.
    this.edges = new ProvenanceEdges(log, new EdgeIndex(expectedEvents >> 3), withEdges);
    this.tracker = new AttemptTracker(expectedEvents);
    // Written only for chunks claimed one by one (a message taking a whole attempt is noted on the
    // attempt): it grows when first needed.
    this.claimedBy = new SeqMap();
  }

  /**
   * One kept event, after the reader indexed and folded it: `typeId` is its type's number (TypeId),
   * `turn` and `step` are what the log's turn() and step() give for it.
   */
  observeEvent(seq: number, event: SessionEvent, typeId: number, turn: number | undefined, step: number | undefined): void {
    this.count = seq + 1;
    switch (typeId) {
      case TypeId.AssistantChunk:
        this.tracker.chunk(event, turn, step);
        return;
      case TypeId.AssistantMessage:
        this.message(event, turn, step);
        return;
      case TypeId.ToolCall:
        if (this.withEdges) this.edges.toolCall(event);
        return;
      case TypeId.ToolResult:
        if (this.withEdges) this.edges.toolResult(event);
        return;
      case TypeId.CompactionSummary:
      case TypeId.CompactionPrune:
        if (this.withEdges) this.edges.price(event);
        return;
      case TypeId.LlmRetry:
      case TypeId.LlmRetryStarted:
        this.tracker.retry(seq, turn, step);
        return;
      case TypeId.StepEnd:
        this.tracker.stepEnd(turn, step);
        return;
      case TypeId.TurnEnd:
        this.tracker.turnEnd(turn);
        return;
      case TypeId.UserMessage:
        // A checkpoint cites its bracket and what it shadows; appended user messages may cite too.
        if (this.withEdges) this.edges.citations(event);
        return;
      case TypeId.SessionTitle:
      case TypeId.SessionTitleLlmRequest:
        if (this.withEdges) this.edges.titleSources(event);
        return;
    }
  }

  /** The members of a packed row: chunks of one attempt, never a finish. */
  observeRow(seq0: number, row: Record<string, any>, members: number): void {
    this.count = seq0 + members;
    // A validated row's turn and step are numbers (never NaN): what the log's turn() and step() give.
    const data = row.data;
    this.tracker.chunkRow(seq0, row, members, data.turn, data.step);
  }

  get eventCount(): number {
    return this.count;
  }

  /** The index as of now: the end-of-log classification, redone only after growth (edges sort themselves when looked up). */
  get scan(): ProvenanceScan {
    if (this.settled?.count !== this.count) {
      const tail = new DiagnosticSink(this.log);
      classifyUnclaimed(tail, this.tracker, this.messageOf, this.log.lastTurnOpen);
      this.settled = {
        count: this.count,
        scan: {
          edges: this.edges.index,
          tracker: this.tracker,
          messageOf: this.messageOf,
          diagnostics: [...this.sink.diagnostics, ...tail.diagnostics],
        },
      };
    }
    return this.settled.scan;
  }

  private message(event: SessionEvent, turn: number | undefined, step: number | undefined): void {
    const seq = event.seq;
    const whole = this.citedAttempt(event);
    if (whole >= 0) {
      const assembly = this.tracker.assemblyOf(whole);
      const count = this.takeAttempt(seq, whole);
      this.messageDone(event, turn, step);
      checkReassembly(this.report, event, count, assembly, 'cited');
      return;
    }
    const cited: number[] = [];
    this.edges.citations(event, cited);
    let chunks = cited;
    let by: 'cited' | 'turn-step' = 'cited';
    let assembly: StreamAssembly | undefined;
    if (cited.length === 0) {
      // No citations (older writers, hand-made logs, or an explicit []): take the step's open attempt.
      const tracker = this.tracker;
      const attempt = tracker.claimableFor(turn, step);
      if (attempt >= 0 && tracker.claimed(attempt) === 0 && tracker.chunkCount(attempt) > 0) {
        chunks = tracker.chunksOf(attempt);
        by = 'turn-step';
        assembly = tracker.assemblyOf(attempt);
        for (const chunk of chunks) this.edges.link(seq, chunk, 'stream', 'inferred');
      }
    } else {
      assembly = this.assemblyOfExactly(cited);
    }
    for (const chunk of chunks) this.claim(chunk, seq);
    this.messageDone(event, turn, step);
    checkReassembly(this.report, event, chunks.length, assembly ?? this.assemble(chunks), by);
  }

  /** What every message does once its chunks are claimed: close the step's stream, note the calls it asks for. */
  private messageDone(event: SessionEvent, turn: number | undefined, step: number | undefined): void {
    this.tracker.message(turn, step);
    this.edges.noteCallOwner(event);
  }

  /**
   * The attempt a message cites exactly and whole, as writers record it: its sourceEventSeqs are the
   * attempt's chunks (a contiguous run nothing interleaves), none claimed yet, and the message
   * replaces nothing. Then every citation is a new stream edge and every chunk a fresh claim, which
   * `takeAttempt` records as runs instead of looking each chunk up. -1 sends the message through the
   * general path.
   */
  private citedAttempt(event: SessionEvent): number {
    const sources = event.sourceEventSeqs;
    if (!Array.isArray(sources) || sources.length === 0) return -1;
    const first = sources[0];
    if (typeof first !== 'number') return -1;
    const tracker = this.tracker;
    const id = tracker.attemptOf.get(first);
    if (id < 0) return -1;
    const n = sources.length;
    const last = first + n - 1;
    if (tracker.first(id) !== first || tracker.chunkCount(id) !== n || tracker.last(id) !== last) return -1;
    if (tracker.claimed(id) !== 0 || last >= event.seq || tracker.assemblyOf(id) === undefined) return -1;
    for (let i = 1; i < n; i++) if (sources[i] !== first + i) return -1;
    if (this.edges.replacementOf(event.seq) !== undefined) return -1;
    return id;
  }

  /** The general path's edges and claims for a whole cited attempt, written as runs; returns its chunk count. */
  private takeAttempt(message: number, attempt: number): number {
    const first = this.tracker.first(attempt);
    const count = this.tracker.chunkCount(attempt);
    this.edges.linkRun(message, first, count);
    this.tracker.takeWhole(attempt, message);
    return count;
  }

  /** The running assembly of the one attempt whose chunks are exactly `chunks`, if there is one. */
  private assemblyOfExactly(chunks: number[]): StreamAssembly | undefined {
    const id = this.tracker.attemptOf.get(chunks[0]);
    if (id < 0) return undefined;
    if (this.tracker.chunkCount(id) !== chunks.length) return undefined;
    const attemptOf = this.tracker.attemptOf;
    for (let i = 1; i < chunks.length; i++) if (attemptOf.get(chunks[i]) !== id) return undefined;
    return this.tracker.assemblyOf(id);
  }

  private claim(chunk: number, message: number): void {
    const previous = this.messageOf.get(chunk);
    if (previous >= 0 && previous !== message) {
      this.report(
        'warning',
        'provenance.shared-chunk',
        chunk,
        say('chunk seq {0} is taken by assistant/message seq {1} and again by seq {2}', chunk, previous, message),
      );
      return;
    }
    this.claimedBy.set(chunk, message);
    const id = this.tracker.attemptOf.get(chunk);
    if (id >= 0) this.tracker.addClaimed(id, 1);
  }

  /** Reassembles chunks that are not one attempt's exact run (re-read with a reader of their own). */
  private assemble(chunks: number[]): StreamAssembly | undefined {
    if (chunks.length === 0) return undefined;
    const reader = this.log;
    const assembly = new StreamAssembly();
    for (const seq of [...chunks].sort((a, b) => a - b)) {
      const event = reader.event(seq);
      if (event) assembly.add(event);
    }
    return assembly;
  }

  /** A finding about one event, into the pass's sink (bound: the stream findings call it). */
  private readonly report = (
    severity: Diagnostic['severity'],
    rule: string,
    seq: number,
    message: string | Said,
    related: AssemblyProblem[] = [],
  ): void => {
    this.sink.report(severity, rule, seq, message, related);
  };
}
