// A compact two-way index of "derived came from source" edges between event seqs, for logs of
// hundreds of thousands of events: edges live in typed arrays (CSR layout) instead of one object or
// array per event. Edges must be added grouped by derived seq in ascending order, which is the order
// a single forward pass over the log produces; the reverse direction is built by a counting sort.
// Edges added after the last sort (a followed log growing) are searched directly until they are
// numerous enough to be worth sorting in, so one appended event never costs a whole-index rebuild.
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

export class EdgeIndex {
  private readonly from: Int32Column;
  private readonly to: Int32Column;
  /** kind code * 2 + (inferred ? 1 : 0) */
  private readonly code: Int32Column;
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
  }

  /** Edges from `derived` to `count` consecutive sources starting at `source` (a message's whole stream). */
  addRun(derived: number, source: number, count: number, kind: EdgeKind, how: EdgeHow): void {
    if (derived < this.lastFrom) throw new Error(`edges must be added in derived-seq order (${derived} after ${this.lastFrom})`);
    this.lastFrom = derived;
    this.from.pushRepeated(derived, count);
    this.to.pushSequence(source, count);
    this.code.pushRepeated(KIND_CODE[kind] * 2 + (how === 'inferred' ? 1 : 0), count);
  }

  get size(): number {
    return this.from.length;
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

  private sort(): void {
    const n = this.from.length;
    let count = this.lastFrom + 1;
    for (let e = 0; e < n; e++) if (this.to.get(e) >= count) count = this.to.get(e) + 1;
    const forward = new Int32Array(count + 1);
    const reverse = new Int32Array(count + 1);
    for (let e = 0; e < n; e++) {
      forward[this.from.get(e) + 1] += 1;
      reverse[this.to.get(e) + 1] += 1;
    }
    for (let i = 0; i < count; i++) {
      forward[i + 1] += forward[i];
      reverse[i + 1] += reverse[i];
    }
    const fill = reverse.slice(0, count);
    const reverseEdge = new Int32Array(n);
    for (let e = 0; e < n; e++) reverseEdge[fill[this.to.get(e)]++] = e;
    this.forwardStart = forward;
    this.reverseStart = reverse;
    this.reverseEdge = reverseEdge;
    this.sortedEdges = n;
    this.sortedCount = count;
  }

  private edge(e: number, end: 'from' | 'to'): Edge {
    const code = this.code.get(e);
    return { seq: (end === 'to' ? this.to : this.from).get(e), kind: KINDS[code >> 1], how: code & 1 ? 'inferred' : 'recorded' };
  }

  /** What `seq` came from. */
  sources(seq: number): Edge[] {
    this.seal();
    const start = this.forwardStart;
    const out: Edge[] = [];
    if (start && seq >= 0 && seq < this.sortedCount) for (let e = start[seq]; e < start[seq + 1]; e++) out.push(this.edge(e, 'to'));
    for (let e = this.sortedEdges; e < this.from.length; e++) if (this.from.get(e) === seq) out.push(this.edge(e, 'to'));
    return out;
  }

  /** What came from `seq`. */
  derived(seq: number): Edge[] {
    this.seal();
    const start = this.reverseStart;
    const out: Edge[] = [];
    if (start && this.reverseEdge && seq >= 0 && seq < this.sortedCount)
      for (let i = start[seq]; i < start[seq + 1]; i++) out.push(this.edge(this.reverseEdge[i], 'from'));
    for (let e = this.sortedEdges; e < this.from.length; e++) if (this.to.get(e) === seq) out.push(this.edge(e, 'from'));
    return out;
  }

  /** Edge counts per kind (for summaries). */
  countByKind(): Record<EdgeKind, number> {
    const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<EdgeKind, number>;
    for (let e = 0; e < this.from.length; e++) counts[KINDS[this.code.get(e) >> 1]] += 1;
    return counts;
  }
}
