// A growable map from event seq to a non-negative integer (an attempt, a message seq), -1 when unset:
// one Int32 per event instead of a Map entry, and it grows with a followed log. Values are stored
// plus one so that a fresh (zeroed) array already reads as unset: no fill pass, and the pages of a
// generously sized array are only touched where seqs are set.
export class SeqMap {
  private data: Int32Array;
  /** One past the highest seq ever set. */
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(1024, capacity));
  }

  get(seq: number): number {
    return seq >= 0 && seq < this.length ? this.data[seq] - 1 : -1;
  }

  set(seq: number, value: number): void {
    if (seq < this.length) this.data[seq] = value + 1;
    else this.setRange(seq, 1, value);
  }

  /** seq, seq + 1, … (count seqs) all map to `value`. */
  setRange(seq: number, count: number, value: number): void {
    const end = seq + count;
    if (end > this.data.length) {
      const grown = new Int32Array(Math.max(end, Math.ceil(this.data.length * 1.5)));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    const data = this.data;
    const stored = value + 1;
    for (let i = seq; i < end; i++) data[i] = stored;
    if (end > this.length) this.length = end;
  }
}
