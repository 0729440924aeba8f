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

/**
 * A byte buffer that grows by doubling, so a followed log can be extended without copying per append.
 * A fork (`fork()`) reads the first bytes in place from the store it was made from and keeps only what
 * is appended to it in a buffer of its own: the stores it shares bytes with never see those appends.
 */
export class ByteStore {
  /** The bytes as handed in: a Node Buffer keeps its own indexOf, several times faster than Uint8Array's. */
  private data: Uint8Array;
  /** The same bytes as a plain Uint8Array: its subarray builds no Buffer object per line. */
  private plain: Uint8Array;
  length: number;
  private readonly slicer: Utf8Slicer;
  private slice: (start: number, end: number) => string;
  /** A fork's first `sharedLength` bytes, read in place (they never change: a store only appends). */
  private readonly shared: ByteStore | undefined;
  /** Bytes before the own buffer: offset 0 of `data` is byte `sharedLength` of the store. */
  private readonly sharedLength: number;

  constructor(initial: Uint8Array, slicer: Utf8Slicer = textDecoderSlicer, shared?: ByteStore) {
    this.data = initial;
    this.plain =
      Object.getPrototypeOf(initial) === Uint8Array.prototype
        ? initial
        : new Uint8Array(initial.buffer, initial.byteOffset, initial.length);
    this.shared = shared;
    this.sharedLength = shared ? shared.length : 0;
    this.length = this.sharedLength + initial.length;
    this.slicer = slicer;
    this.slice = slicer(this.plain);
  }

  /** A store that starts with these bytes (shared, not copied) and appends to a buffer of its own. */
  fork(): ByteStore {
    return new ByteStore(new Uint8Array(0), this.slicer, this);
  }

  /** Bytes start..end (clamped to the used bytes) decoded as UTF-8. */
  text(start: number, end: number): string {
    const until = Math.min(end, this.length);
    const own = this.sharedLength;
    if (start >= own || this.shared === undefined) return this.slice(start - own, until - own);
    if (until <= own) return this.shared.text(start, until);
    // A line across the two parts (a fork that went on with a line its origin had not finished).
    return this.slicer(this.view(start, until))(0, until - start);
  }

  append(bytes: Uint8Array): void {
    const used = this.length - this.sharedLength;
    const needed = used + bytes.length;
    if (needed > this.data.length) {
      const grown = new Uint8Array(Math.max(needed, this.data.length * 2, 4096));
      grown.set(this.plain.subarray(0, used));
      this.data = grown;
      this.plain = grown;
      this.slice = this.slicer(grown);
    }
    this.plain.set(bytes, used);
    this.length += bytes.length;
  }

  view(start = 0, end = this.length): Uint8Array {
    const until = Math.min(end, this.length);
    const own = this.sharedLength;
    if (start >= own || this.shared === undefined) return this.plain.subarray(start - own, until - own);
    if (until <= own) return this.shared.view(start, until);
    const joined = new Uint8Array(until - start);
    joined.set(this.shared.view(start, own), 0);
    joined.set(this.plain.subarray(0, until - own), own - start);
    return joined;
  }

  /** Searches the used bytes only: the spare capacity after them can be megabytes of zeros. */
  indexOf(byte: number, from: number): number {
    return this.indexOfBefore(byte, from, this.length);
  }

  /** Like indexOf, but looks at no byte at or after `before` (a bounded search for a line's end). */
  indexOfBefore(byte: number, from: number, before: number): number {
    const own = this.sharedLength;
    if (from < own && this.shared !== undefined) {
      const found = this.shared.indexOfBefore(byte, from, Math.min(before, own));
      if (found !== -1 || before <= own) return found;
      from = own;
    }
    const end = Math.min(before, this.length) - own;
    const start = from - own;
    if (start >= end) return -1;
    if (end === this.data.length) {
      const found = this.data.indexOf(byte, start);
      return found === -1 ? -1 : own + found;
    }
    const found = this.plain.subarray(start, end).indexOf(byte);
    return found === -1 ? -1 : own + start + found;
  }

  at(index: number): number {
    const own = this.sharedLength;
    return index < own && this.shared !== undefined ? this.shared.at(index) : this.plain[index - own];
  }
}
