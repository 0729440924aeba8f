// The provenance index of a session log: for any seq, what it came from and what came from it
// (chunks → assistant/message, assistant/message → tool/call → tool/result, replacement → shadowed
// nodes, compaction prices → the nodes they price), plus the stream attempts and the warnings the
// scan found. Built lazily on first use; `provenanceIndex(log)` caches one index per log size, so a
// followed (growing) log gets a fresh index after it grows. See provenance-scan.ts for the rules.
import type { Diagnostic } from '../types';
import type { SessionLog } from '../read/session-log';
import type { Edge, EdgeKind } from './edge-index';
import { scanProvenance, type ProvenanceScan } from './provenance-scan';
import type { AttemptEnd } from './stream-attempts';

export type { Edge, EdgeKind, EdgeHow } from './edge-index';

/** One model attempt of a step, as the index reports it. */
export interface AttemptInfo {
  turn: number | undefined;
  step: number | undefined;
  chunks: number[];
  /** The assistant/message that took the attempt's chunks (the first, if several did). */
  message: number | undefined;
  finishKind: string | undefined;
  failureCode: string | undefined;
  retrySeq: number | undefined;
  endedBy: AttemptEnd | undefined;
}

export interface ProvenanceSummary {
  events: number;
  edges: Record<EdgeKind, number>;
  attempts: number;
  chunks: number;
  claimedChunks: number;
  warnings: number;
  infos: number;
}

export class ProvenanceIndex {
  private built: ProvenanceScan | undefined;

  constructor(private readonly log: SessionLog) {}

  private get scan(): ProvenanceScan {
    this.built ??= scanProvenance(this.log);
    return this.built;
  }

  /** What `seq` came from. */
  sourcesOf(seq: number): Edge[] {
    return this.scan.edges.sources(seq);
  }

  /** What came from `seq`. */
  derivativesOf(seq: number): Edge[] {
    return this.scan.edges.derived(seq);
  }

  /** The assistant/message a chunk went into (undefined for failed attempts and orphans). */
  messageOfChunk(seq: number): number | undefined {
    const message = seq >= 0 && seq < this.scan.messageOf.length ? this.scan.messageOf[seq] : -1;
    return message >= 0 ? message : undefined;
  }

  /** The chunks an assistant/message was streamed from, ascending. */
  chunksOfMessage(seq: number): number[] {
    return pick(this.sourcesOf(seq), 'stream').sort((a, b) => a - b);
  }

  /** The assistant/message that asked for a tool/call. */
  requestOfCall(callSeq: number): number | undefined {
    return pick(this.sourcesOf(callSeq), 'call')[0];
  }

  /** The tool/call a tool/result answers (or the asking assistant/message when no call was recorded). */
  callOfResult(resultSeq: number): number | undefined {
    return pick(this.sourcesOf(resultSeq), 'result')[0];
  }

  /** The tool/results answering a tool/call. */
  resultsOfCall(callSeq: number): number[] {
    return pick(this.derivativesOf(callSeq), 'result');
  }

  /** The surface nodes a replacement shadowed. */
  shadowedBy(replacementSeq: number): number[] {
    return pick(this.sourcesOf(replacementSeq), 'replace');
  }

  /** The replacement that shadowed a node, if any. */
  replacementOf(seq: number): number | undefined {
    return pick(this.derivativesOf(seq), 'replace')[0];
  }

  /** The attempt a chunk belongs to. */
  attemptOfChunk(seq: number): AttemptInfo | undefined {
    const id = seq >= 0 && seq < this.scan.tracker.attemptOf.length ? this.scan.tracker.attemptOf[seq] : -1;
    return id >= 0 ? this.info(id) : undefined;
  }

  attempts(): AttemptInfo[] {
    return this.scan.tracker.attempts.map((a) => this.info(a.id));
  }

  /** Warnings (orphans, reassembly mismatches, shared chunks) and notes (failed, retried, interrupted). */
  get diagnostics(): readonly Diagnostic[] {
    return this.scan.diagnostics;
  }

  summary(): ProvenanceSummary {
    const { edges, tracker, messageOf, diagnostics } = this.scan;
    let chunks = 0;
    let claimed = 0;
    for (let seq = 0; seq < messageOf.length; seq++) {
      if (tracker.attemptOf[seq] >= 0) chunks += 1;
      if (messageOf[seq] >= 0) claimed += 1;
    }
    return {
      events: messageOf.length,
      edges: edges.countByKind(),
      attempts: tracker.attempts.length,
      chunks,
      claimedChunks: claimed,
      warnings: diagnostics.filter((d) => d.severity === 'warning').length,
      infos: diagnostics.filter((d) => d.severity === 'info').length,
    };
  }

  private info(id: number): AttemptInfo {
    const { tracker, messageOf } = this.scan;
    const attempt = tracker.attempts[id];
    const chunks = tracker.chunksOf(attempt);
    const message = chunks.map((c) => messageOf[c]).find((m) => m >= 0);
    return {
      turn: attempt.turn,
      step: attempt.step,
      chunks,
      message,
      finishKind: attempt.finishKind,
      failureCode: attempt.failureCode,
      retrySeq: attempt.retrySeq,
      endedBy: attempt.endedBy,
    };
  }
}

function pick(edges: Edge[], kind: EdgeKind): number[] {
  return edges.filter((e) => e.kind === kind).map((e) => e.seq);
}

const cache = new WeakMap<SessionLog, { count: number; index: ProvenanceIndex }>();

/** The (lazily built) provenance index of a log; rebuilt when the log has grown since the last call. */
export function provenanceIndex(log: SessionLog): ProvenanceIndex {
  const hit = cache.get(log);
  if (hit && hit.count === log.eventCount) return hit.index;
  const index = new ProvenanceIndex(log);
  cache.set(log, { count: log.eventCount, index });
  return index;
}
