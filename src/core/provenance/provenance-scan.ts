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
import type { Diagnostic, Replacement, SessionEvent } from '../types';
import { DiagnosticSink } from '../check/diagnostic-sink';
import { formatSeqRanges } from './seq-ranges';
import { SurfaceRole, type EventFacts } from '../read/event-index';
import { EdgeIndex, type EdgeHow, type EdgeKind } from './edge-index';
import { AttemptTracker, type AttemptEnd } from './stream-attempts';
import { StreamAssembly, compareAssembly, type AssemblyProblem } from './stream-assembly';
import { SeqMap } from './seq-map';
import { TypeId } from '../read/known-types';
import { say, type Said } from '../words';
import { stringText } from '../value-text';

/** What provenance reads of the log besides each event. */
export interface ProvenanceSource extends EventFacts {
  replacements(): readonly Replacement[];
  readonly lastTurnOpen: boolean;
}

/** A lookup by seq (-1: none). */
export interface SeqLookup {
  get(seq: number): number;
}

export interface ProvenanceScan {
  edges: EdgeIndex;
  tracker: AttemptTracker;
  /** The assistant/message that took each chunk (-1 when none). */
  messageOf: SeqLookup;
  diagnostics: Diagnostic[];
}

export class ProvenanceBuilder {
  private readonly edges: EdgeIndex;
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
  /** call id → the assistant/message whose tool-call block asked for it (latest wins). */
  private readonly callOwner = new Map<string, number>();
  /** call id → the tool/call event that recorded it (latest wins). */
  private readonly callEvent = new Map<string, number>();
  /**
   * Edges are unique per pair, and all of an event's edges are added while it is observed, as the
   * last entries of the edge index: `linkedFor` is the event being linked and `linkedFrom` its first
   * entry, so a new edge looks at the event's few entries only. An event that links many sources (a
   * compaction pricing what it shadows) keeps them in a set instead.
   */
  private linkedFor = -1;
  private linkedFrom = 0;
  private linkedMany: Set<number> | undefined;
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
    this.edges = new EdgeIndex(expectedEvents >> 3);
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
        if (this.withEdges) this.toolCall(event);
        return;
      case TypeId.ToolResult:
        if (this.withEdges) this.toolResult(event);
        return;
      case TypeId.CompactionSummary:
      case TypeId.CompactionPrune:
        if (this.withEdges) this.price(event);
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
        if (this.withEdges) this.citations(event);
        return;
      case TypeId.SessionTitle:
      case TypeId.SessionTitleLlmRequest:
        if (this.withEdges) this.titleSources(event);
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
      this.classifyUnclaimed(tail);
      this.settled = {
        count: this.count,
        scan: {
          edges: this.edges,
          tracker: this.tracker,
          messageOf: this.messageOf,
          diagnostics: [...this.sink.diagnostics, ...tail.diagnostics],
        },
      };
    }
    return this.settled.scan;
  }

  /** The replacement the event being observed made (the fold has just applied it), if any. */
  private replacementOf(seq: number): Replacement | undefined {
    const all = this.log.replacements();
    const last = all[all.length - 1];
    return last?.seq === seq ? last : undefined;
  }

  private link(derived: number, source: number, kind: EdgeKind, how: EdgeHow): void {
    if (!this.withEdges || source < 0 || source > derived) return;
    const edges = this.edges;
    if (derived !== this.linkedFor) {
      this.linkedFor = derived;
      this.linkedFrom = edges.entryCount;
      this.linkedMany = undefined;
    } else if (this.linkedMany !== undefined) {
      if (this.linkedMany.has(source)) return;
      this.linkedMany.add(source);
    } else {
      if (edges.reachesSince(this.linkedFrom, source)) return;
      if (edges.entryCount - this.linkedFrom >= 16) {
        this.linkedMany = edges.sourcesSince(this.linkedFrom);
        this.linkedMany.add(source);
      }
    }
    edges.add(derived, source, kind, how);
  }

  /**
   * sourceEventSeqs edges: shadowed nodes are `replace`, tool/calls cited by results are `result`,
   * chunks cited by a message are `stream` (and collected into `chunksOut`). Returns the cited seqs
   * into `citedOut` when given: most events need only the edges, and a message's citations are mostly
   * chunks, so no array is filled per event that nothing reads.
   */
  private citations(event: SessionEvent, chunksOut?: number[], citedOut?: number[]): void {
    const sources = event.sourceEventSeqs;
    const replaced = this.replacementOf(event.seq)?.shadowedSeqs;
    if (!Array.isArray(sources) || sources.length === 0) {
      if (replaced !== undefined) this.inferredReplaces(event.seq, new Set(replaced));
      return;
    }
    const shadowed = replaced !== undefined ? new Set(replaced) : undefined;
    const derived = event.seq;
    const type = event.type;
    const message = type === 'assistant/message';
    const result = type === 'tool/result';
    for (let i = 0; i < sources.length; i++) {
      const source = sources[i];
      if (typeof source !== 'number') continue;
      citedOut?.push(source);
      let kind: EdgeKind = 'cite';
      if (shadowed !== undefined && shadowed.has(source)) kind = 'replace';
      else if (message) {
        if (this.log.eventType(source) === 'assistant/chunk') {
          kind = 'stream';
          chunksOut?.push(source);
        }
      } else if (result && this.log.eventType(source) === 'tool/call') kind = 'result';
      this.link(derived, source, kind, 'recorded');
    }
    if (shadowed !== undefined) this.inferredReplaces(derived, shadowed);
  }

  /** A log dsh refuses can carry a replace that does not cite what it shadows: still show the shadowing. */
  private inferredReplaces(derived: number, shadowed: ReadonlySet<number>): void {
    for (const seq of shadowed) this.link(derived, seq, 'replace', 'inferred');
  }

  private message(event: SessionEvent, turn: number | undefined, step: number | undefined): void {
    const seq = event.seq;
    const whole = this.citedAttempt(event);
    if (whole >= 0) {
      const assembly = this.tracker.assemblyOf(whole);
      const count = this.takeAttempt(seq, whole);
      this.messageDone(event, turn, step);
      this.checkReassembly(event, count, assembly, 'cited');
      return;
    }
    const cited: number[] = [];
    this.citations(event, cited);
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
        for (const chunk of chunks) this.link(seq, chunk, 'stream', 'inferred');
      }
    } else {
      assembly = this.assemblyOfExactly(cited);
    }
    for (const chunk of chunks) this.claim(chunk, seq);
    this.messageDone(event, turn, step);
    this.checkReassembly(event, chunks.length, assembly ?? this.assemble(chunks), by);
  }

  /** What every message does once its chunks are claimed: close the step's stream, note the calls it asks for. */
  private messageDone(event: SessionEvent, turn: number | undefined, step: number | undefined): void {
    this.tracker.message(turn, step);
    // The call owners only serve the call and result edges.
    if (!this.withEdges) return;
    for (const block of contentOf(event)) {
      if (block?.type === 'tool-call' && typeof block.id === 'string') this.callOwner.set(block.id, event.seq);
    }
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
    if (this.replacementOf(event.seq) !== undefined) return -1;
    return id;
  }

  /** The general path's edges and claims for a whole cited attempt, written as runs; returns its chunk count. */
  private takeAttempt(message: number, attempt: number): number {
    const first = this.tracker.first(attempt);
    const count = this.tracker.chunkCount(attempt);
    // Not noted in `linked`: it only keeps one event's edges unique, and this message links nothing else.
    if (this.withEdges) this.edges.addRun(message, first, count, 'stream', 'recorded');
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

  private checkReassembly(event: SessionEvent, chunkCount: number, assembly: StreamAssembly | undefined, by: 'cited' | 'turn-step'): void {
    const data = event.data ?? {};
    const content = data.message?.content;
    const interrupted = data.interrupted === true;
    if (chunkCount === 0 || assembly === undefined) {
      if (Array.isArray(content) && content.length > 0) {
        this.report(
          'info',
          'provenance.no-stream',
          event.seq,
          say(
            'assistant/message seq {0} has no stream chunks (none cited, none left in turn {1} step {2})',
            event.seq,
            stringText(data.turn),
            stringText(data.step),
          ),
        );
      }
      return;
    }
    const verdict = compareAssembly(assembly, content, interrupted);
    if (verdict.mismatches.length > 0) {
      const first = verdict.mismatches[0].message;
      const more = verdict.mismatches.length - 1;
      const mismatch =
        by === 'cited'
          ? say('assistant/message seq {0} does not reassemble from its {1} cited chunks: {2}', event.seq, chunkCount, first)
          : say('assistant/message seq {0} does not reassemble from its {1} found by turn/step chunks: {2}', event.seq, chunkCount, first);
      this.report(
        'warning',
        'provenance.reassembly-mismatch',
        event.seq,
        more > 0 ? say('{0} (+{1} more)', mismatch, more) : mismatch,
        verdict.mismatches,
      );
    }
    if (interrupted) {
      this.report(
        'info',
        'provenance.interrupted',
        event.seq,
        say('assistant/message seq {0} is interrupted: the delivered prefix of a cancelled stream', event.seq),
        verdict.notes,
      );
    } else if (verdict.notes.length > 0) {
      this.report(
        'info',
        'provenance.stream-note',
        event.seq,
        verdict.notes.length > 1
          ? say('{0} (+{1} more)', say('assistant/message seq {0}: {1}', event.seq, verdict.notes[0].message), verdict.notes.length - 1)
          : say('assistant/message seq {0}: {1}', event.seq, verdict.notes[0].message),
        verdict.notes,
      );
    }
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

  private toolCall(event: SessionEvent): void {
    const callId = event.data?.callId;
    if (typeof callId !== 'string') return;
    const owner = this.callOwner.get(callId);
    if (owner !== undefined) this.link(event.seq, owner, 'call', 'inferred');
    this.callEvent.set(callId, event.seq);
  }

  private toolResult(event: SessionEvent): void {
    const cited: number[] = [];
    this.citations(event, undefined, cited);
    // A replacement (a prune) derives from the result it rewrites, which already names the call.
    if (this.log.surfaceRole(event.seq) === SurfaceRole.Replace) return;
    const callId = event.data?.message?.source?.callId;
    if (typeof callId !== 'string') return;
    const call = this.callEvent.get(callId);
    if (call !== undefined) {
      if (!cited.includes(call)) this.link(event.seq, call, 'result', 'inferred');
      return;
    }
    // No tool/call recorded (a TOOL_NOT_STARTED closer, or a policy rejection): answer the asking message.
    const owner = this.callOwner.get(callId);
    if (owner !== undefined) this.link(event.seq, owner, 'result', 'inferred');
  }

  private price(event: SessionEvent): void {
    const shadowed = event.data?.shadowedSeqs;
    if (!Array.isArray(shadowed)) return;
    for (const seq of shadowed) if (typeof seq === 'number' && seq < event.seq) this.link(event.seq, seq, 'price', 'recorded');
  }

  /** A session title, and the request that asked for it, name the messages the title was made from. */
  private titleSources(event: SessionEvent): void {
    const seqs = event.data?.messageSeqs;
    if (!Array.isArray(seqs)) return;
    for (const seq of seqs) if (Number.isSafeInteger(seq) && seq < event.seq) this.link(event.seq, seq, 'cite', 'recorded');
  }

  /** Chunks no message took: a failed or retried attempt (info), one still streaming (info), or orphans. */
  private classifyUnclaimed(sink: DiagnosticSink): void {
    const lastTurnOpen = this.log.lastTurnOpen;
    const tracker = this.tracker;
    for (let attempt = 0; attempt < tracker.attemptCount; attempt++) {
      const claimed = tracker.claimed(attempt);
      const unclaimed = tracker.chunkCount(attempt) - claimed;
      if (unclaimed === 0) continue;
      const seqs = this.tracker.chunksOf(attempt).filter((s) => this.messageOf.get(s) < 0);
      const where = say('turn {0} step {1}', tracker.turn(attempt) ?? '?', tracker.step(attempt) ?? '?');
      const finishKind = tracker.finishKind(attempt);
      const retrySeq = tracker.retrySeq(attempt);
      const failureCode = tracker.failureCode(attempt);
      const list = seqRanges(seqs);
      if (claimed === 0 && (finishKind === 'error' || finishKind === 'aborted')) {
        const retry = retrySeq !== undefined ? say(', retried by seq {0}', retrySeq) : '';
        sink.report(
          'info',
          'provenance.failed-attempt',
          seqs[0],
          say(
            'chunks {0} ({1}) are a failed model attempt (finish {2}{3}{4}); no message comes from them',
            list,
            where,
            finishKind,
            failureCode ? ` ${failureCode}` : '',
            retry,
          ),
        );
      } else if (claimed === 0 && retrySeq !== undefined) {
        sink.report(
          'info',
          'provenance.retried-attempt',
          seqs[0],
          say('chunks {0} ({1}) are an attempt abandoned by llm retry seq {2}', list, where, retrySeq),
        );
      } else if (claimed === 0 && lastTurnOpen && isStreaming(tracker.endedBy(attempt))) {
        sink.report(
          'info',
          'provenance.in-flight',
          seqs[0],
          say('chunks {0} ({1}) are still streaming: the last turn is open and no message has been written yet', list, where),
        );
      } else {
        sink.report(
          'warning',
          'provenance.orphan-chunk',
          seqs[0],
          seqs.length === 1
            ? say('{0} chunk {1} ({2}) belong to no assistant/message', seqs.length, list, where)
            : say('{0} chunks {1} ({2}) belong to no assistant/message', seqs.length, list, where),
          seqs.slice(0, 20).map((seq) => ({ seq, message: say('orphan chunk') })),
        );
      }
    }
  }

  private report(
    severity: Diagnostic['severity'],
    rule: string,
    seq: number,
    message: string | Said,
    related: AssemblyProblem[] = [],
  ): void {
    this.sink.report(severity, rule, seq, message, related);
  }
}

/** An attempt that nothing has ended yet, or that finished streaming but whose message is not written. */
function isStreaming(endedBy: AttemptEnd | undefined): boolean {
  return endedBy === undefined || endedBy === 'finish';
}

function contentOf(event: SessionEvent): any[] {
  const content = event.data?.message?.content;
  return Array.isArray(content) ? content : [];
}

function seqRanges(seqs: readonly number[]): string {
  return seqs.length > 0 ? `seq ${formatSeqRanges(seqs)}` : 'none';
}
