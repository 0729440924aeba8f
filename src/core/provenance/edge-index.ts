// A compact two-way index of "derived came from source" edges between event seqs, for logs of
// hundreds of thousands of events: edges live in typed arrays (CSR layout) instead of one object or
// array per event. Edges must be added grouped by derived seq in ascending order, which is the order
// a single forward pass over the log produces; the reverse direction is built by a counting sort.
// Edges added after the last sort (a followed log growing) are searched directly until they are
// numerous enough to be worth sorting in, so one appended event never costs a whole-index rebuild.
// A run of edges from one derived seq to consecutive sources (a message and the chunks it was streamed
// from) is one entry with a span: most of a log's edges are such runs, and they cost a few cells, not
// a few cells per chunk.
import { Int32Column } from '../read/columns';

export type EdgeKind = 'stream' | 'call' | 'result' | 'replace' | 'cite' | 'price';

/** How an edge is known: recorded in the log (`sourceEventSeqs`, `shadowedSeqs`), or inferred (by call id or turn/step). */
export type EdgeHow = 'recorded' | 'inferred';

export interface Edge {
  seq: number;
  kind: EdgeKind;
  how: EdgeHow;
}

const KINDS: EdgeKind[] = ['stream', 'call', 'result', 'replace', 'cite', 'price'];
const KIND_CODE: Record<EdgeKind, number> = { stream: 0, call: 1, result: 2, replace: 3, cite: 4, price: 5 };
/** The code's low bits hold kind and how; the span above them. */
const SPAN = 16;

export class EdgeIndex {
  private readonly from: Int32Column;
  private readonly to: Int32Column;
  /** (span - 1) * SPAN + kind code * 2 + (inferred ? 1 : 0): an entry stands for `span` edges to to, to + 1, … */
  private readonly code: Int32Column;
  /** Edges, counting each entry's span. */
  private edgeCount = 0;
  private forwardStart: Int32Array | undefined;
  private reverseStart: Int32Array | undefined;
  private reverseEdge: Int32Array | undefined;
  /** Edges [0, sortedEdges) and seqs [0, sortedCount) are in the sorted arrays; later edges are searched directly. */
  private sortedEdges = 0;
  private sortedCount = 0;
  private lastFrom = -1;

  /** `capacity`: the edges expected (a log's event count is a good guess); only the used part is touched. */
  constructor(capacity = 1024) {
    this.from = new Int32Column(capacity);
    this.to = new Int32Column(capacity);
    this.code = new Int32Column(capacity);
  }

  add(derived: number, source: number, kind: EdgeKind, how: EdgeHow): void {
    if (derived < this.lastFrom) throw new Error(`edges must be added in derived-seq order (${derived} after ${this.lastFrom})`);
    this.lastFrom = derived;
    this.from.push(derived);
    this.to.push(source);
    this.code.push(KIND_CODE[kind] * 2 + (how === 'inferred' ? 1 : 0));
    this.edgeCount += 1;
  }

  /** Entries so far (a run is one entry). */
  get entryCount(): number {
    return this.from.length;
  }

  /** Whether an entry from `first` on reaches `source` (entries of one derived seq are added together, so they are the last ones). */
  reachesSince(first: number, source: number): boolean {
    for (let e = first; e < this.to.length; e++) {
      const to = this.to.get(e);
      if (to <= source && source < to + this.span(e)) return true;
    }
    return false;
  }

  /** The sources the entries from `first` on reach. */
  sourcesSince(first: number): Set<number> {
    const out = new Set<number>();
    for (let e = first; e < this.to.length; e++) {
      const to = this.to.get(e);
      for (let k = this.span(e) - 1; k >= 0; k--) out.add(to + k);
    }
    return out;
  }

  /** Edges from `derived` to `count` consecutive sources starting at `source` (a message's whole stream), as one entry. */
  addRun(derived: number, source: number, count: number, kind: EdgeKind, how: EdgeHow): void {
    if (count <= 0) return;
    if (count > 0x7ffffff) throw new Error(`an edge run of ${count} sources is longer than an entry holds`);
    if (derived < this.lastFrom) throw new Error(`edges must be added in derived-seq order (${derived} after ${this.lastFrom})`);
    this.lastFrom = derived;
    this.from.push(derived);
    this.to.push(source);
    this.code.push((count - 1) * SPAN + KIND_CODE[kind] * 2 + (how === 'inferred' ? 1 : 0));
    this.edgeCount += count;
  }

  /** Edges held (a run counts each of its sources). */
  get size(): number {
    return this.edgeCount;
  }

  private span(e: number): number {
    return Math.floor(this.code.get(e) / SPAN) + 1;
  }

  /**
   * Makes every edge findable, when a lookup first needs it (a check that only reports warnings never
   * sorts): sorts the edges in when the unsorted tail has grown past an eighth of the sorted ones
   * (amortised linear), else leaves the few new ones to a direct search.
   */
  private seal(): void {
    const unsorted = this.from.length - this.sortedEdges;
    if (unsorted === 0 || (this.forwardStart !== undefined && unsorted <= Math.max(256, this.sortedEdges >> 3))) return;
    this.sort();
  }

  /** Forward: entries by derived seq. Reverse: for each source seq, the entries whose run covers it. */
  private sort(): void {
    const n = this.from.length;
    let count = this.lastFrom + 1;
    let covered = 0;
    for (let e = 0; e < n; e++) {
      const span = this.span(e);
      covered += span;
      if (this.to.get(e) + span > count) count = this.to.get(e) + span;
    }
    const forward = new Int32Array(count + 1);
    const reverse = new Int32Array(count + 1);
    for (let e = 0; e < n; e++) {
      forward[this.from.get(e) + 1] += 1;
      const to = this.to.get(e);
      for (let k = this.span(e) - 1; k >= 0; k--) reverse[to + k + 1] += 1;
    }
    for (let i = 0; i < count; i++) {
      forward[i + 1] += forward[i];
      reverse[i + 1] += reverse[i];
    }
    const fill = reverse.slice(0, count);
    const reverseEdge = new Int32Array(covered);
    for (let e = 0; e < n; e++) {
      const to = this.to.get(e);
      const span = this.span(e);
      for (let k = 0; k < span; k++) reverseEdge[fill[to + k]++] = e;
    }
    this.forwardStart = forward;
    this.reverseStart = reverse;
    this.reverseEdge = reverseEdge;
    this.sortedEdges = n;
    this.sortedCount = count;
  }

  /** Edge `k` of entry `e`, seen from its derived end (`to`: the source seq) or its source end (`from`). */
  private edge(e: number, k: number, end: 'from' | 'to'): Edge {
    const code = this.code.get(e) % SPAN;
    const seq = end === 'to' ? this.to.get(e) + k : this.from.get(e);
    return { seq, kind: KINDS[code >> 1], how: code & 1 ? 'inferred' : 'recorded' };
  }

  /** Every edge of entry `e`, from its derived end. */
  private pushSources(e: number, out: Edge[]): void {
    const span = this.span(e);
    for (let k = 0; k < span; k++) out.push(this.edge(e, k, 'to'));
  }

  /** What `seq` came from. */
  sources(seq: number): Edge[] {
    this.seal();
    const start = this.forwardStart;
    const out: Edge[] = [];
    if (start && seq >= 0 && seq < this.sortedCount) for (let e = start[seq]; e < start[seq + 1]; e++) this.pushSources(e, out);
    for (let e = this.sortedEdges; e < this.from.length; e++) if (this.from.get(e) === seq) this.pushSources(e, out);
    return out;
  }

  /** What came from `seq`. */
  derived(seq: number): Edge[] {
    this.seal();
    const start = this.reverseStart;
    const out: Edge[] = [];
    if (start && this.reverseEdge && seq >= 0 && seq < this.sortedCount)
      for (let i = start[seq]; i < start[seq + 1]; i++) out.push(this.edge(this.reverseEdge[i], 0, 'from'));
    for (let e = this.sortedEdges; e < this.from.length; e++) {
      const to = this.to.get(e);
      if (to <= seq && seq < to + this.span(e)) out.push(this.edge(e, 0, 'from'));
    }
    return out;
  }

  /** Edge counts per kind (for summaries). */
  countByKind(): Record<EdgeKind, number> {
    const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<EdgeKind, number>;
    for (let e = 0; e < this.from.length; e++) counts[KINDS[(this.code.get(e) % SPAN) >> 1]] += this.span(e);
    return counts;
  }
}
