// A compact two-way index of "derived came from source" edges between event seqs, for logs of
// hundreds of thousands of events: edges live in typed arrays (CSR layout) instead of one object or
// array per event. Edges must be added grouped by derived seq in ascending order, which is the order
// a single forward pass over the log produces; the reverse direction is built by a counting sort.
import { Column } from '../read/columns';

export type EdgeKind = 'stream' | 'call' | 'result' | 'replace' | 'cite' | 'price';

/** How an edge is known: recorded in the log (`sourceEventSeqs`, `shadowedSeqs`), or inferred (by call id or turn/step). */
export type EdgeHow = 'recorded' | 'inferred';

export interface Edge {
  seq: number;
  kind: EdgeKind;
  how: EdgeHow;
}

const KINDS: EdgeKind[] = ['stream', 'call', 'result', 'replace', 'cite', 'price'];
const KIND_CODE = new Map(KINDS.map((k, i) => [k, i]));

export class EdgeIndex {
  private readonly from = new Column(Int32Array);
  private readonly to = new Column(Int32Array);
  /** kind code * 2 + (inferred ? 1 : 0) */
  private readonly code = new Column(Uint8Array);
  private forwardStart: Int32Array | undefined;
  private reverseStart: Int32Array | undefined;
  private reverseEdge: Int32Array | undefined;
  private lastFrom = -1;

  add(derived: number, source: number, kind: EdgeKind, how: EdgeHow): void {
    if (derived < this.lastFrom) throw new Error(`edges must be added in derived-seq order (${derived} after ${this.lastFrom})`);
    this.lastFrom = derived;
    this.from.push(derived);
    this.to.push(source);
    this.code.push(KIND_CODE.get(kind)! * 2 + (how === 'inferred' ? 1 : 0));
  }

  get size(): number {
    return this.from.length;
  }

  /** Builds both directions for seqs 0..count-1. */
  seal(count: number): void {
    const n = this.from.length;
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
  }

  private edge(e: number, end: 'from' | 'to'): Edge {
    const code = this.code.get(e);
    return { seq: (end === 'to' ? this.to : this.from).get(e), kind: KINDS[code >> 1], how: code & 1 ? 'inferred' : 'recorded' };
  }

  /** What `seq` came from. */
  sources(seq: number): Edge[] {
    const start = this.forwardStart;
    if (!start || seq < 0 || seq + 1 >= start.length) return [];
    const out: Edge[] = [];
    for (let e = start[seq]; e < start[seq + 1]; e++) out.push(this.edge(e, 'to'));
    return out;
  }

  /** What came from `seq`. */
  derived(seq: number): Edge[] {
    const start = this.reverseStart;
    if (!start || !this.reverseEdge || seq < 0 || seq + 1 >= start.length) return [];
    const out: Edge[] = [];
    for (let i = start[seq]; i < start[seq + 1]; i++) out.push(this.edge(this.reverseEdge[i], 'from'));
    return out;
  }

  /** Edge counts per kind (for summaries). */
  countByKind(): Record<EdgeKind, number> {
    const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<EdgeKind, number>;
    for (let e = 0; e < this.from.length; e++) counts[KINDS[this.code.get(e) >> 1]] += 1;
    return counts;
  }
}
