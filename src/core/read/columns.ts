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

/** A byte buffer that grows by doubling, so a followed log can be extended without copying per append. */
export class ByteStore {
  /**
   * The bytes as handed in, when they are a subclass with its own search (a Node Buffer's indexOf is
   * several times faster than a Uint8Array's). Trusted only as far as checked: a search that throws or
   * answers a position that does not hold the byte is dropped for good, and the plain view searches.
   */
  private fast: Uint8Array | undefined;
  /** Whether `fast` also finds byte sequences (see searchesSequences). */
  private sequenceSearch: boolean | undefined;
  /** The same bytes as a plain Uint8Array made by the engine's own getters (see plainView). */
  private plain: Uint8Array;
  length: number;
  private readonly slicer: Utf8Slicer;
  private slice: (start: number, end: number) => string;

  constructor(initial: Uint8Array, slicer: Utf8Slicer = textDecoderSlicer) {
    this.plain = plainView(initial);
    this.fast = Object.getPrototypeOf(initial) === Uint8Array.prototype ? undefined : initial;
    this.length = this.plain.length;
    this.slicer = slicer;
    this.slice = slicer(this.plain);
  }

  /** Bytes start..end (clamped to the used bytes) decoded as UTF-8. */
  text(start: number, end: number): string {
    return this.slice(start, Math.min(end, this.length));
  }

  append(bytes: Uint8Array): void {
    const added = plainView(bytes);
    const needed = this.length + added.length;
    if (needed > this.plain.length) {
      const grown = new Uint8Array(Math.max(needed, this.plain.length * 2, 4096));
      grown.set(this.plain.subarray(0, this.length));
      this.fast = undefined;
      this.plain = grown;
      this.slice = this.slicer(grown);
    }
    this.plain.set(added, this.length);
    this.length = needed;
  }

  view(start = 0, end = this.length): Uint8Array {
    return this.plain.subarray(start, Math.min(end, this.length));
  }

  /** Searches the used bytes only: the spare capacity after them can be megabytes of zeros. */
  indexOf(byte: number, from: number): number {
    return this.indexOfBefore(byte, from, this.length);
  }

  /** Like indexOf, but looks at no byte at or after `before` (a bounded search for a line's end). */
  indexOfBefore(byte: number, from: number, before: number): number {
    const end = Math.min(before, this.length);
    if (from >= end) return -1;
    // Only before the first append: the bytes then are exactly the caller's.
    if (end === this.length && this.fast !== undefined) {
      const found = this.fastIndexOf(byte, from);
      if (found !== undefined) return found < end ? found : -1;
    }
    if (end === this.plain.length) return this.plain.indexOf(byte, from);
    const found = this.plain.subarray(from, end).indexOf(byte);
    return found === -1 ? -1 : from + found;
  }

  /** The caller's own search, checked; undefined (and never again) when it cannot be trusted. */
  private fastIndexOf(byte: number, from: number): number | undefined {
    try {
      const found: unknown = this.fast!.indexOf(byte, from);
      if (found === -1 || (typeof found === 'number' && found >= from && found < this.length && this.plain[found] === byte)) return found;
    } catch {
      // a subclass whose search throws
    }
    this.fast = undefined;
    return undefined;
  }

  /** The first place in from..before where `needle` starts (all of it before `before`), or -1. */
  indexOfSequence(needle: Uint8Array, from: number, before: number): number {
    const last = Math.min(before, this.length) - needle.length;
    const bytes = this.plain;
    if (this.fast !== undefined && from <= last && this.searchesSequences()) {
      const found = this.fastIndexOfSequence(needle, from);
      if (found !== undefined) return found <= last ? found : -1;
    }
    const first = needle[0];
    for (let p = bytes.indexOf(first, from); p !== -1 && p <= last; p = bytes.indexOf(first, p + 1)) {
      let i = 1;
      while (i < needle.length && bytes[p + i] === needle[i]) i++;
      if (i === needle.length) return p;
    }
    return -1;
  }

  /**
   * Whether the caller's search finds byte sequences (a Buffer's does; a Uint8Array's looks for one value
   * and would answer -1): asked once, of the first bytes, which it must find at 0.
   */
  private searchesSequences(): boolean {
    if (this.sequenceSearch === undefined) {
      const probe = this.plain.subarray(0, Math.min(2, this.length));
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
      if (typeof found === 'number' && found >= from && found + needle.length <= this.length) {
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
    const found = this.plain.subarray(start, end).lastIndexOf(byte);
    return found === -1 ? -1 : start + found;
  }

  /** How many times `byte` occurs in from..before. */
  count(byte: number, from: number, before: number): number {
    const bytes = this.plain;
    const end = Math.min(before, this.length);
    let n = 0;
    for (let p = from; p < end; p++) if (bytes[p] === byte) n++;
    return n;
  }

  at(index: number): number {
    return this.plain[index];
  }
}
