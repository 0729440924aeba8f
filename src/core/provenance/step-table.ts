// The open streams of a log's steps, keyed by a step's number (AttemptTracker's step keys, always
// small integers): a handful of entries at a time, emptied and refilled for every step of a large log.
// The same idea as SmallMap (entries in reused arrays, a real Map only past SMALL entries), but for
// integer keys only: SmallMap also serves string and arbitrary keys elsewhere, and sharing its code
// makes every lookup compare keys of mixed kinds, which the stream path runs for every chunk.

const SMALL = 16;

export class StepTable<V> {
  private readonly keys: number[] = [];
  private readonly values: (V | undefined)[] = [];
  private n = 0;
  private spill: Map<number, V> | undefined;

  get size(): number {
    return this.spill !== undefined ? this.spill.size : this.n;
  }

  private find(key: number): number {
    const keys = this.keys;
    for (let i = 0; i < this.n; i++) if (keys[i] === key) return i;
    return -1;
  }

  get(key: number): V | undefined {
    if (this.spill !== undefined) return this.spill.get(key);
    const i = this.find(key);
    return i < 0 ? undefined : this.values[i];
  }

  /** Adds or updates; an updated key keeps its place in the order, as in a Map. */
  set(key: number, value: V): void {
    if (this.spill !== undefined) {
      this.spill.set(key, value);
      return;
    }
    const i = this.find(key);
    if (i >= 0) {
      this.values[i] = value;
      return;
    }
    if (this.n === SMALL) {
      this.spill = new Map(this.entries());
      this.spill.set(key, value);
      this.forget();
      return;
    }
    this.keys[this.n] = key;
    this.values[this.n] = value;
    this.n += 1;
  }

  delete(key: number): void {
    if (this.spill !== undefined) {
      this.spill.delete(key);
      return;
    }
    const i = this.find(key);
    if (i < 0) return;
    const keys = this.keys;
    const values = this.values;
    const last = this.n - 1;
    for (let j = i; j < last; j++) {
      keys[j] = keys[j + 1];
      values[j] = values[j + 1];
    }
    values[last] = undefined;
    this.n = last;
  }

  /** A snapshot of the entries in insertion order (the caller may change the table while walking it). */
  entries(): [number, V][] {
    if (this.spill !== undefined) return [...this.spill];
    const out: [number, V][] = [];
    for (let i = 0; i < this.n; i++) out.push([this.keys[i], this.values[i] as V]);
    return out;
  }

  /** Empties the arrays in place, dropping the values so nothing stale stays reachable. */
  private forget(): void {
    for (let i = 0; i < this.n; i++) this.values[i] = undefined;
    this.n = 0;
  }
}
