// A map for the handful of entries a step or a turn holds at once (pending tool calls, open stream
// attempts), emptied and refilled thousands of times while a large log loads. A Map would do, but
// V8 gives a Map a new hash table on every clear() and on a delete that leaves it sparse, and links
// the obsolete table to the new one: once the Map lives in the old generation, each such table
// survives the next scavenge and is promoted, so the young generation grows and every scavenge
// copies more. Here the entries live in two arrays that are reused in place (no allocation once they
// have grown), and only a map that outgrows SMALL entries moves into a real Map until it is cleared.
// Keys compare as a Map's do (SameValueZero); iteration follows insertion order.

const SMALL = 16;

export class SmallMap<K, V> {
  private readonly keys: (K | undefined)[] = [];
  private readonly values: (V | undefined)[] = [];
  private n = 0;
  private spill: Map<K, V> | undefined;

  get size(): number {
    return this.spill !== undefined ? this.spill.size : this.n;
  }

  private find(key: K): number {
    const keys = this.keys;
    for (let i = 0; i < this.n; i++) {
      const k = keys[i];
      if (k === key || (k !== k && key !== key)) return i;
    }
    return -1;
  }

  get(key: K): V | undefined {
    if (this.spill !== undefined) return this.spill.get(key);
    const i = this.find(key);
    return i < 0 ? undefined : this.values[i];
  }

  has(key: K): boolean {
    return this.spill !== undefined ? this.spill.has(key) : this.find(key) >= 0;
  }

  /** Adds or updates; an updated key keeps its place in the order, as in a Map. */
  set(key: K, value: V): void {
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

  delete(key: K): boolean {
    if (this.spill !== undefined) return this.spill.delete(key);
    const i = this.find(key);
    if (i < 0) return false;
    const keys = this.keys;
    const values = this.values;
    const last = this.n - 1;
    for (let j = i; j < last; j++) {
      keys[j] = keys[j + 1];
      values[j] = values[j + 1];
    }
    keys[last] = undefined;
    values[last] = undefined;
    this.n = last;
    return true;
  }

  clear(): void {
    this.spill = undefined;
    this.forget();
  }

  /** A snapshot of the entries in insertion order (the caller may change the map while walking it). */
  entries(): [K, V][] {
    if (this.spill !== undefined) return [...this.spill];
    const out: [K, V][] = [];
    for (let i = 0; i < this.n; i++) out.push([this.keys[i] as K, this.values[i] as V]);
    return out;
  }

  /** Empties the arrays in place, dropping their references so nothing stale stays reachable. */
  private forget(): void {
    for (let i = 0; i < this.n; i++) {
      this.keys[i] = undefined;
      this.values[i] = undefined;
    }
    this.n = 0;
  }
}
