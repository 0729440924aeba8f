// From a file's bytes to its header value and its rows with their physical line numbers, following
// dsh's v3-era JSONL persistence rules.
import type { NativeZstd } from '../zstd/backend';
import type { ZstdLimits } from '../zstd/decode';

/** Where reading the container or the lines stopped, with dsh's error (a plain `Error` in dsh). */
export class PhysicalRefusal extends Error {
  override name = 'Error';
  constructor(
    readonly stage: 'bytes' | 'header' | 'jsonl',
    message: string,
    /** The physical line the problem is on (1-based), when there is one. */
    readonly line?: number,
    /** The later line whose `turn/end` made a recoverable problem fatal. */
    readonly throwLine?: number,
  ) {
    super(message);
  }
}

export interface PhysicalOptions {
  zstdCodec?: NativeZstd;
  zstdLimits?: Partial<ZstdLimits>;
}

/** A file opened: its header value and its body text (complete lines only are ever read). */
export interface PhysicalLog {
  compressed: boolean;
  headerValue: unknown;
  /** The header line's text. */
  headerText: string;
  /** The text after the header line; `rows` walks it. */
  body: string;
  /** True when bytes after the last newline were dropped (a torn tail; a strict read refuses it). */
  tornTail: boolean;
}

export function openPhysicalLog(file: Uint8Array, options: PhysicalOptions = {}): PhysicalLog {
  void file;
  void options;
  throw new Error('not implemented');
}
