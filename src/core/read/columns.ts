// A growable column of 32-bit integers, and the byte store a loaded log reads from. The column is
// one concrete class over one array type so that its reads and writes stay monomorphic (a generic
// column over several typed-array kinds measured several times slower on the load path).

export class Int32Column {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = value;
  }

  /** Room for `extra` more values (grows by half: most columns are sized close to what they hold). */
  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const grown = new Int32Array(Math.max(Math.ceil(this.data.length * 1.5), this.length + extra, 1024));
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
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
  /** The bytes as handed in: a Node Buffer keeps its own indexOf, several times faster than Uint8Array's. */
  private data: Uint8Array;
  /** The same bytes as a plain Uint8Array: its subarray builds no Buffer object per line. */
  private plain: Uint8Array;
  length: number;

  constructor(initial: Uint8Array) {
    this.data = initial;
    this.plain =
      Object.getPrototypeOf(initial) === Uint8Array.prototype
        ? initial
        : new Uint8Array(initial.buffer, initial.byteOffset, initial.length);
    this.length = initial.length;
  }

  append(bytes: Uint8Array): void {
    const needed = this.length + bytes.length;
    if (needed > this.data.length) {
      const grown = new Uint8Array(Math.max(needed, this.data.length * 2, 4096));
      grown.set(this.plain.subarray(0, this.length));
      this.data = grown;
      this.plain = grown;
    }
    this.plain.set(bytes, this.length);
    this.length = needed;
  }

  view(start = 0, end = this.length): Uint8Array {
    return this.plain.subarray(start, Math.min(end, this.length));
  }

  /** Searches the used bytes only: the spare capacity after them can be megabytes of zeros. */
  indexOf(byte: number, from: number): number {
    if (from >= this.length) return -1;
    return this.data.length === this.length ? this.data.indexOf(byte, from) : this.plain.subarray(0, this.length).indexOf(byte, from);
  }

  /** Like indexOf, but looks at no byte at or after `before` (a bounded search for a line's end). */
  indexOfBefore(byte: number, from: number, before: number): number {
    const end = Math.min(before, this.length);
    if (from >= end) return -1;
    if (end === this.data.length) return this.data.indexOf(byte, from);
    const found = this.plain.subarray(from, end).indexOf(byte);
    return found === -1 ? -1 : from + found;
  }

  at(index: number): number {
    return this.plain[index];
  }
}
