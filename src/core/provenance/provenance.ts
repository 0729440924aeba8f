// The provenance index of a session log: for any seq, what it came from and what came from it
// (chunks → assistant/message, assistant/message → tool/call → tool/result, replacement → shadowed
// nodes, compaction prices → the nodes they price), plus the stream attempts and the warnings the
// scan found. The facts are gathered while the log loads (and as it grows); see provenance-scan.ts
// for the rules.
import type { Diagnostic } from '../types';
import type { Edge, EdgeKind } from './edge-index';
import type { ProvenanceBuilder, ProvenanceScan } from './provenance-scan';
import type { AttemptEnd } from './stream-attempts';
import { asSeq } from '../api-guard';

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
  constructor(private readonly builder: ProvenanceBuilder) {}

  private get scan(): ProvenanceScan {
    return this.builder.scan;
  }

  /** What `seq` came from (nothing for what is not a seq of the log). */
  sourcesOf(seq: number): Edge[] {
    return this.isSeq(seq) ? this.scan.edges.sources(seq) : [];
  }

  /** What came from `seq`. */
  derivativesOf(seq: number): Edge[] {
    return this.isSeq(seq) ? this.scan.edges.derived(seq) : [];
  }

  /** The assistant/message a chunk went into (undefined for failed attempts and orphans). */
  messageOfChunk(seq: number): number | undefined {
    const message = this.isSeq(seq) ? this.scan.messageOf.get(seq) : -1;
    return message >= 0 ? message : undefined;
  }

  private isSeq(seq: unknown): seq is number {
    return asSeq(seq) !== undefined && (seq as number) < this.builder.eventCount;
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
    if (!this.isSeq(seq)) return undefined;
    const id = this.scan.tracker.attemptOf.get(seq);
    return id >= 0 ? this.info(id) : undefined;
  }

  attempts(): AttemptInfo[] {
    const count = this.scan.tracker.attemptCount;
    return Array.from({ length: count }, (_, id) => this.info(id));
  }

  /** Warnings (orphans, reassembly mismatches, shared chunks) and notes (failed, retried, interrupted). */
  get diagnostics(): readonly Diagnostic[] {
    return this.scan.diagnostics;
  }

  summary(): ProvenanceSummary {
    const { edges, tracker, messageOf, diagnostics } = this.scan;
    let chunks = 0;
    let claimed = 0;
    const events = this.builder.eventCount;
    for (let seq = 0; seq < events; seq++) {
      if (tracker.attemptOf.get(seq) >= 0) chunks += 1;
      if (messageOf.get(seq) >= 0) claimed += 1;
    }
    return {
      events,
      edges: edges.countByKind(),
      attempts: tracker.attemptCount,
      chunks,
      claimedChunks: claimed,
      warnings: diagnostics.filter((d) => d.severity === 'warning').length,
      infos: diagnostics.filter((d) => d.severity === 'info').length,
    };
  }

  private info(id: number): AttemptInfo {
    const { tracker, messageOf } = this.scan;
    const chunks = tracker.chunksOf(id);
    const message = chunks.map((c) => messageOf.get(c)).find((m) => m >= 0);
    return {
      turn: tracker.turn(id),
      step: tracker.step(id),
      chunks,
      message,
      finishKind: tracker.finishKind(id),
      failureCode: tracker.failureCode(id),
      retrySeq: tracker.retrySeq(id),
      endedBy: tracker.endedBy(id),
    };
  }
}

function pick(edges: Edge[], kind: EdgeKind): number[] {
  return edges.filter((e) => e.kind === kind).map((e) => e.seq);
}

/**
 * The provenance index of a log (its facts were gathered while it loaded; growth extends them). The log
 * is named by the one field read here, so this module need not know the reader that holds it.
 */
export function provenanceIndex(log: { readonly facts: { readonly provenance: ProvenanceIndex } }): ProvenanceIndex {
  return log.facts.provenance;
}
