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

import { plainView } from '../bytes';

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
  /**
   * The bytes as handed in, when they are a subclass with its own search (a Node Buffer's indexOf is
   * several times faster than a Uint8Array's). Trusted only as far as checked: a search that throws or
   * answers a position that does not hold the byte is dropped for good, and the plain view searches.
   */
  private fast: Uint8Array | undefined;
  /** Whether `fast` also finds byte sequences (see searchesSequences). */
  private sequenceSearch: boolean | undefined;
  /** The store's own bytes as a plain Uint8Array made by the engine's own getters (see plainView). */
  private plain: Uint8Array;
  length: number;
  private readonly slicer: Utf8Slicer;
  private slice: (start: number, end: number) => string;
  /** A fork's first `sharedLength` bytes, read in place (they never change: a store only appends). */
  private readonly shared: ByteStore | undefined;
  /** Bytes before the own buffer: offset 0 of `plain` is byte `sharedLength` of the store. */
  private readonly sharedLength: number;

  constructor(initial: Uint8Array, slicer: Utf8Slicer = textDecoderSlicer, shared?: ByteStore) {
    this.plain = plainView(initial);
    this.fast = Object.getPrototypeOf(initial) === Uint8Array.prototype ? undefined : initial;
    this.shared = shared;
    this.sharedLength = shared ? shared.length : 0;
    this.length = this.sharedLength + this.plain.length;
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
    const added = plainView(bytes);
    const used = this.length - this.sharedLength;
    const needed = used + added.length;
    if (needed > this.plain.length) {
      const grown = new Uint8Array(Math.max(needed, this.plain.length * 2, 4096));
      grown.set(this.plain.subarray(0, used));
      this.fast = undefined;
      this.plain = grown;
      this.slice = this.slicer(grown);
    }
    this.plain.set(added, used);
    this.length += added.length;
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
    // Only before the first append: the bytes then are exactly the caller's (a fork's are never).
    if (end === this.length - own && this.fast !== undefined) {
      const found = this.fastIndexOf(byte, start);
      if (found !== undefined) return found === -1 || found >= end ? -1 : own + found;
    }
    if (end === this.plain.length) {
      const found = this.plain.indexOf(byte, start);
      return found === -1 ? -1 : own + found;
    }
    const found = this.plain.subarray(start, end).indexOf(byte);
    return found === -1 ? -1 : own + start + found;
  }

  /** The caller's own search, checked; undefined (and never again) when it cannot be trusted. */
  private fastIndexOf(byte: number, from: number): number | undefined {
    try {
      const found: unknown = this.fast!.indexOf(byte, from);
      const length = this.length - this.sharedLength;
      if (found === -1 || (typeof found === 'number' && found >= from && found < length && this.plain[found] === byte)) return found;
    } catch {
      // a subclass whose search throws
    }
    this.fast = undefined;
    return undefined;
  }

  /** The first place in from..before where `needle` starts (all of it before `before`), or -1. */
  indexOfSequence(needle: Uint8Array, from: number, before: number): number {
    if (from < this.sharedLength && this.shared !== undefined) return this.joinedIndexOfSequence(needle, from, before);
    const own = this.sharedLength;
    const last = Math.min(before, this.length) - needle.length - own;
    const start = from - own;
    const bytes = this.plain;
    if (this.fast !== undefined && start <= last && this.searchesSequences()) {
      const found = this.fastIndexOfSequence(needle, start);
      if (found !== undefined) return found !== -1 && found <= last ? own + found : -1;
    }
    const first = needle[0];
    for (let p = bytes.indexOf(first, start); p !== -1 && p <= last; p = bytes.indexOf(first, p + 1)) {
      let i = 1;
      while (i < needle.length && bytes[p + i] === needle[i]) i++;
      if (i === needle.length) return own + p;
    }
    return -1;
  }

  /** A fork's search over bytes it shares: on a joined copy of the range (a rare, short path). */
  private joinedIndexOfSequence(needle: Uint8Array, from: number, before: number): number {
    const range = this.view(from, Math.min(before, this.length));
    const last = range.length - needle.length;
    for (let p = range.indexOf(needle[0]); p !== -1 && p <= last; p = range.indexOf(needle[0], p + 1)) {
      let i = 1;
      while (i < needle.length && range[p + i] === needle[i]) i++;
      if (i === needle.length) return from + p;
    }
    return -1;
  }

  /**
   * Whether the caller's search finds byte sequences (a Buffer's does; a Uint8Array's looks for one value
   * and would answer -1): asked once, of the first bytes, which it must find at 0.
   */
  private searchesSequences(): boolean {
    if (this.sequenceSearch === undefined) {
      const probe = this.plain.subarray(0, Math.min(2, this.length - this.sharedLength));
      try {
        this.sequenceSearch = probe.length > 0 && this.fast!.indexOf(probe as unknown as number, 0) === 0;
      } catch {
        this.sequenceSearch = false;
      }
    }
    return this.sequenceSearch;
  }

  /** The caller's own sequence search (a Buffer's is a native memmem), checked like fastIndexOf. */
  private fastIndexOfSequence(needle: Uint8Array, from: number): number | undefined {
    try {
      const found: unknown = this.fast!.indexOf(needle as unknown as number, from);
      if (found === -1) return -1;
      if (typeof found === 'number' && found >= from && found + needle.length <= this.length - this.sharedLength) {
        let i = 0;
        while (i < needle.length && this.plain[found + i] === needle[i]) i++;
        if (i === needle.length) return found;
      }
    } catch {
      // a subclass whose search throws, or a Uint8Array's own indexOf, which looks for one value
    }
    this.fast = undefined;
    return undefined;
  }

  /** The last place before `before` (and at or after `floor`) that holds `byte`, or -1. */
  lastIndexOf(byte: number, before: number, floor = 0): number {
    const start = Math.max(0, floor);
    const end = Math.min(before, this.length);
    if (end <= start) return -1;
    const found = this.view(start, end).lastIndexOf(byte);
    return found === -1 ? -1 : start + found;
  }

  /** How many times `byte` occurs in from..before. */
  count(byte: number, from: number, before: number): number {
    const bytes = this.view(from, Math.min(before, this.length));
    let n = 0;
    for (let p = 0; p < bytes.length; p++) if (bytes[p] === byte) n++;
    return n;
  }

  at(index: number): number {
    const own = this.sharedLength;
    return index < own && this.shared !== undefined ? this.shared.at(index) : this.plain[index - own];
  }
}
