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

/**
 * Decodes bytes as UTF-8 the way dsh reads a line: invalid sequences replaced; ignoreBOM keeps a
 * byte-order mark in the text, as dsh's reader does (a BOM before the header is damage).
 */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Makes a decoder of one buffer's bytes start..end, decoding exactly as `utf8` does. Node callers hand
 * in one built on Buffer, which decodes a line faster than TextDecoder (see LoadOptions.utf8Slicer).
 */
export type Utf8Slicer = (bytes: Uint8Array) => (start: number, end: number) => string;

/** The core's own decoder, used when no caller hands one in (and where a caller's fails). */
export const textDecoderSlicer: Utf8Slicer = (bytes) => (start, end) => utf8.decode(bytes.subarray(start, end));

/** A byte buffer that grows by doubling, so a followed log can be extended without copying per append. */
export class ByteStore {
  /** The bytes as handed in: a Node Buffer keeps its own indexOf, several times faster than Uint8Array's. */
  private data: Uint8Array;
  /** The same bytes as a plain Uint8Array: its subarray builds no Buffer object per line. */
  private plain: Uint8Array;
  length: number;
  private readonly slicer: Utf8Slicer;
  private slice: (start: number, end: number) => string;

  constructor(initial: Uint8Array, slicer: Utf8Slicer = textDecoderSlicer) {
    this.data = initial;
    this.plain =
      Object.getPrototypeOf(initial) === Uint8Array.prototype
        ? initial
        : new Uint8Array(initial.buffer, initial.byteOffset, initial.length);
    this.length = initial.length;
    this.slicer = slicer;
    this.slice = slicer(this.plain);
  }

  /** Bytes start..end (clamped to the used bytes) decoded as UTF-8. */
  text(start: number, end: number): string {
    return this.slice(start, Math.min(end, this.length));
  }

  append(bytes: Uint8Array): void {
    const needed = this.length + bytes.length;
    if (needed > this.data.length) {
      const grown = new Uint8Array(Math.max(needed, this.data.length * 2, 4096));
      grown.set(this.plain.subarray(0, this.length));
      this.data = grown;
      this.plain = grown;
      this.slice = this.slicer(grown);
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
