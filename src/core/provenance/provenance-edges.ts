// The edges the provenance pass records between events, as the events are observed: what a
// `sourceEventSeqs` list cites (a stream, a result's call, a shadowed node, any other citation), a tool
// call's asking message, a tool result's call (or, when no call was recorded, the asking message), what a
// compaction prices and what a session title was made from. Each edge is recorded once per pair. The
// stream claims and the reassembly check that use these edges stay with ProvenanceBuilder
// (provenance-scan.ts).
import type { Replacement, SessionEvent } from '../types';
import { SurfaceRole } from '../read/event-index';
import { EdgeIndex, type EdgeHow, type EdgeKind } from './edge-index';

/** What the edges read of the log besides each event. */
export interface EdgeSource {
  eventType(seq: number): string | undefined;
  surfaceRole(seq: number): SurfaceRole;
  replacements(): readonly Replacement[];
}

export class ProvenanceEdges {
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

  /** `withEdges` false: nothing is recorded (only the diagnostics of the pass are wanted). */
  constructor(
    private readonly log: EdgeSource,
    readonly index: EdgeIndex,
    readonly withEdges: boolean,
  ) {}

  /** The replacement the event being observed made (the fold has just applied it), if any. */
  replacementOf(seq: number): Replacement | undefined {
    const all = this.log.replacements();
    const last = all[all.length - 1];
    return last?.seq === seq ? last : undefined;
  }

  link(derived: number, source: number, kind: EdgeKind, how: EdgeHow): void {
    if (!this.withEdges || source < 0 || source > derived) return;
    const edges = this.index;
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
   * A message's whole cited attempt as one run of stream edges. Not noted in `linked`: that only keeps
   * one event's edges unique, and this message links nothing else.
   */
  linkRun(message: number, first: number, count: number): void {
    if (this.withEdges) this.index.addRun(message, first, count, 'stream', 'recorded');
  }

  /**
   * sourceEventSeqs edges: shadowed nodes are `replace`, tool/calls cited by results are `result`,
   * chunks cited by a message are `stream` (and collected into `chunksOut`). Returns the cited seqs
   * into `citedOut` when given: most events need only the edges, and a message's citations are mostly
   * chunks, so no array is filled per event that nothing reads.
   */
  citations(event: SessionEvent, chunksOut?: number[], citedOut?: number[]): void {
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

  /** The calls an assistant/message asks for (its tool-call blocks): later calls and results link to it. */
  noteCallOwner(event: SessionEvent): void {
    // The call owners only serve the call and result edges.
    if (!this.withEdges) return;
    for (const block of contentOf(event)) {
      if (block?.type === 'tool-call' && typeof block.id === 'string') this.callOwner.set(block.id, event.seq);
    }
  }

  toolCall(event: SessionEvent): void {
    const callId = event.data?.callId;
    if (typeof callId !== 'string') return;
    const owner = this.callOwner.get(callId);
    if (owner !== undefined) this.link(event.seq, owner, 'call', 'inferred');
    this.callEvent.set(callId, event.seq);
  }

  toolResult(event: SessionEvent): void {
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

  /** What a compaction summary or prune shadowed, priced. */
  price(event: SessionEvent): void {
    const shadowed = event.data?.shadowedSeqs;
    if (!Array.isArray(shadowed)) return;
    for (const seq of shadowed) if (typeof seq === 'number' && seq < event.seq) this.link(event.seq, seq, 'price', 'recorded');
  }

  /** A session title, and the request that asked for it, name the messages the title was made from. */
  titleSources(event: SessionEvent): void {
    const seqs = event.data?.messageSeqs;
    if (!Array.isArray(seqs)) return;
    for (const seq of seqs) if (Number.isSafeInteger(seq) && seq < event.seq) this.link(event.seq, seq, 'cite', 'recorded');
  }
}

function contentOf(event: SessionEvent): any[] {
  const content = event.data?.message?.content;
  return Array.isArray(content) ? content : [];
}
