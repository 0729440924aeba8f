// Growable typed-array columns: per-event facts for logs of any size without one object per event.

type TypedArray = Int32Array | Float64Array | Uint8Array | Uint16Array;
type TypedArrayCtor<T extends TypedArray> = { new (length: number): T };

export class Column<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(private readonly ctor: TypedArrayCtor<T>, capacity = 1024) {
    this.data = new ctor(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = value;
  }

  /**
   * Room for `extra` more values. Growth is by half (not doubling): loads size their columns up front
   * from the text length, so growing is the exception and should not overshoot by a whole column.
   */
  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const grown = new this.ctor(Math.max(Math.ceil(this.data.length * 1.5), this.length + extra, 1024));
    (grown as any).set(this.data.subarray(0, this.length));
    this.data = grown;
  }

  /** `count` copies of one value (the members of a packed row share most facts). */
  pushRepeated(value: number, count: number): void {
    this.reserve(count);
    this.data.fill(value, this.length, this.length + count);
    this.length += count;
  }

  /** from, from + 1, … (count values). */
  pushSequence(from: number, count: number): void {
    this.reserve(count);
    for (let i = 0; i < count; i++) this.data[this.length + i] = from + i;
    this.length += count;
  }

  get(index: number): number {
    return this.data[index];
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }
}

/** A byte buffer that grows by doubling, so a followed log can be extended without copying per append. */
export class ByteStore {
  private data: Uint8Array;
  length: number;

  constructor(initial: Uint8Array) {
    this.data = initial;
    this.length = initial.length;
  }

  append(bytes: Uint8Array): void {
    const needed = this.length + bytes.length;
    if (needed > this.data.length) {
      const grown = new Uint8Array(Math.max(needed, this.data.length * 2, 4096));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data.set(bytes, this.length);
    this.length = needed;
  }

  view(start = 0, end = this.length): Uint8Array {
    return this.data.subarray(start, Math.min(end, this.length));
  }

  /** Searches the used bytes only: the spare capacity after them can be megabytes of zeros. */
  indexOf(byte: number, from: number): number {
    if (from >= this.length) return -1;
    return this.data.length === this.length ? this.data.indexOf(byte, from) : this.data.subarray(0, this.length).indexOf(byte, from);
  }

  /** Like indexOf, but looks at no byte at or after `before` (a bounded search for a line's end). */
  indexOfBefore(byte: number, from: number, before: number): number {
    const end = Math.min(before, this.length);
    if (from >= end) return -1;
    if (end === this.data.length) return this.data.indexOf(byte, from);
    const found = this.data.subarray(from, end).indexOf(byte);
    return found === -1 ? -1 : from + found;
  }

  at(index: number): number {
    return this.data[index];
  }
}
