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
import { AttemptTracker, type Attempt } from './stream-attempts';
import { StreamAssembly, compareAssembly, type AssemblyProblem } from './stream-assembly';
import { SeqMap } from './seq-map';
import { say, type Said } from '../words';

/** What provenance reads of the log besides each event. */
export interface ProvenanceSource extends EventFacts {
  replacements(): readonly Replacement[];
  readonly lastTurnOpen: boolean;
}

export interface ProvenanceScan {
  edges: EdgeIndex;
  tracker: AttemptTracker;
  /** The assistant/message that took each chunk (-1 when none). */
  messageOf: SeqMap;
  diagnostics: Diagnostic[];
}

export class ProvenanceBuilder {
  private readonly edges: EdgeIndex;
  private readonly tracker: AttemptTracker;
  private readonly messageOf: SeqMap;
  private readonly sink: DiagnosticSink;
  /** call id → the assistant/message whose tool-call block asked for it (latest wins). */
  private readonly callOwner = new Map<string, number>();
  /** call id → the tool/call event that recorded it (latest wins). */
  private readonly callEvent = new Map<string, number>();
  /** The derived seq each source was last linked from: edges are unique per pair, without a set per event. */
  private readonly linkedFrom: SeqMap;
  /** Events observed so far (edges may point at any of them). */
  private count = 0;
  private settled: { count: number; scan: ProvenanceScan } | undefined;

  /** `expectedEvents`: the reader's estimate of the log's size, so the columns rarely grow. */
  constructor(
    private readonly log: ProvenanceSource,
    expectedEvents = 1024,
  ) {
    this.sink = new DiagnosticSink(log);
    this.edges = new EdgeIndex(expectedEvents);
    this.tracker = new AttemptTracker(expectedEvents);
    this.messageOf = new SeqMap(expectedEvents);
    this.linkedFrom = new SeqMap(expectedEvents);
  }

  /** One kept event, after the reader indexed and folded it. */
  observeEvent(seq: number, event: SessionEvent): void {
    this.count = seq + 1;
    switch (event.type) {
      case 'assistant/chunk':
        this.tracker.chunk(event, this.log.turn(seq), this.log.step(seq));
        return;
      case 'assistant/message':
        this.message(event, this.log.turn(seq), this.log.step(seq));
        return;
      case 'tool/call':
        this.toolCall(event);
        return;
      case 'tool/result':
        this.toolResult(event);
        return;
      case 'compaction/summary':
      case 'compaction/prune':
        this.price(event);
        return;
      case 'llm/retry':
      case 'llm/retry-started':
        this.tracker.retry(seq, this.log.turn(seq), this.log.step(seq));
        return;
      case 'step/end':
        this.tracker.stepEnd(this.log.turn(seq), this.log.step(seq));
        return;
      case 'turn/end':
        this.tracker.turnEnd(this.log.turn(seq));
        return;
      case 'user/message':
        // A checkpoint cites its bracket and what it shadows; appended user messages may cite too.
        this.citations(event);
        return;
    }
  }

  /** The members of a packed row: chunks of one attempt, never a finish. */
  observeRow(seq0: number, row: Record<string, any>, members: number): void {
    this.count = seq0 + members;
    this.tracker.chunkRow(seq0, row, members, this.log.turn(seq0), this.log.step(seq0));
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
    if (source < 0 || source > derived || this.linkedFrom.get(source) === derived) return;
    this.linkedFrom.set(source, derived);
    this.edges.add(derived, source, kind, how);
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
    const cited: number[] = [];
    this.citations(event, cited);
    let chunks = cited;
    let by: 'cited' | 'turn-step' = 'cited';
    let assembly: StreamAssembly | undefined;
    if (cited.length === 0) {
      // No citations (older writers, hand-made logs, or an explicit []): take the step's open attempt.
      const attempt = this.tracker.claimableFor(turn, step);
      if (attempt && attempt.claimed === 0 && attempt.count > 0) {
        chunks = this.tracker.chunksOf(attempt);
        by = 'turn-step';
        assembly = attempt.assembly;
        for (const chunk of chunks) this.link(seq, chunk, 'stream', 'inferred');
      }
    } else {
      assembly = this.assemblyOfExactly(cited);
    }
    for (const chunk of chunks) this.claim(chunk, seq);
    this.tracker.message(turn, step);
    for (const block of contentOf(event)) {
      if (block?.type === 'tool-call' && typeof block.id === 'string') this.callOwner.set(block.id, seq);
    }
    this.checkReassembly(event, chunks, assembly, by);
  }

  /** The running assembly of the one attempt whose chunks are exactly `chunks`, if there is one. */
  private assemblyOfExactly(chunks: number[]): StreamAssembly | undefined {
    const id = this.tracker.attemptOf.get(chunks[0]);
    if (id < 0) return undefined;
    const attempt = this.tracker.attempts[id];
    if (attempt.count !== chunks.length) return undefined;
    const attemptOf = this.tracker.attemptOf;
    for (let i = 1; i < chunks.length; i++) if (attemptOf.get(chunks[i]) !== id) return undefined;
    return attempt.assembly;
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
    this.messageOf.set(chunk, message);
    const id = this.tracker.attemptOf.get(chunk);
    if (id >= 0) this.tracker.attempts[id].claimed += 1;
  }

  private checkReassembly(event: SessionEvent, chunks: number[], running: StreamAssembly | undefined, by: 'cited' | 'turn-step'): void {
    const data = event.data ?? {};
    const content = data.message?.content;
    const interrupted = data.interrupted === true;
    if (chunks.length === 0) {
      if (Array.isArray(content) && content.length > 0) {
        this.report(
          'info',
          'provenance.no-stream',
          event.seq,
          say(
            'assistant/message seq {0} has no stream chunks (none cited, none left in turn {1} step {2})',
            event.seq,
            String(data.turn),
            String(data.step),
          ),
        );
      }
      return;
    }
    const assembly = running ?? this.assemble(chunks);
    const verdict = compareAssembly(assembly, content, interrupted);
    if (verdict.mismatches.length > 0) {
      const first = verdict.mismatches[0].message;
      const more = verdict.mismatches.length - 1;
      const mismatch =
        by === 'cited'
          ? say('assistant/message seq {0} does not reassemble from its {1} cited chunks: {2}', event.seq, chunks.length, first)
          : say(
              'assistant/message seq {0} does not reassemble from its {1} found by turn/step chunks: {2}',
              event.seq,
              chunks.length,
              first,
            );
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
  private assemble(chunks: number[]): StreamAssembly {
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

  /** Chunks no message took: a failed or retried attempt (info), one still streaming (info), or orphans. */
  private classifyUnclaimed(sink: DiagnosticSink): void {
    const lastTurnOpen = this.log.lastTurnOpen;
    for (const attempt of this.tracker.attempts) {
      const unclaimed = attempt.count - attempt.claimed;
      if (unclaimed === 0) continue;
      const seqs = this.tracker.chunksOf(attempt).filter((s) => this.messageOf.get(s) < 0);
      const where = say('turn {0} step {1}', attempt.turn ?? '?', attempt.step ?? '?');
      const list = seqRanges(seqs);
      if (attempt.claimed === 0 && (attempt.finishKind === 'error' || attempt.finishKind === 'aborted')) {
        const retry = attempt.retrySeq !== undefined ? say(', retried by seq {0}', attempt.retrySeq) : '';
        sink.report(
          'info',
          'provenance.failed-attempt',
          seqs[0],
          say(
            'chunks {0} ({1}) are a failed model attempt (finish {2}{3}{4}); no message comes from them',
            list,
            where,
            attempt.finishKind,
            attempt.failureCode ? ` ${attempt.failureCode}` : '',
            retry,
          ),
        );
      } else if (attempt.claimed === 0 && attempt.retrySeq !== undefined) {
        sink.report(
          'info',
          'provenance.retried-attempt',
          seqs[0],
          say('chunks {0} ({1}) are an attempt abandoned by llm retry seq {2}', list, where, attempt.retrySeq),
        );
      } else if (attempt.claimed === 0 && lastTurnOpen && isStreaming(attempt)) {
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
function isStreaming(attempt: Attempt): boolean {
  return attempt.endedBy === undefined || attempt.endedBy === 'finish';
}

function contentOf(event: SessionEvent): any[] {
  const content = event.data?.message?.content;
  return Array.isArray(content) ? content : [];
}

function seqRanges(seqs: readonly number[]): string {
  return seqs.length > 0 ? `seq ${formatSeqRanges(seqs)}` : 'none';
}
