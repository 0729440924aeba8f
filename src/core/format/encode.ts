// An artifact written as dsh's encoder writes a generation: the header line, then one event per line,
// each the `JSON.stringify` of the codec's physical value (members in the order the value holds them,
// JSON.stringify's escaping), every line ending in LF. Its sha256 and UTF-8 length are what the
// corpus compares with dsh's. The text is hashed in slices, never held whole unless asked for.
import { sha256Stream, type Sha256Stream } from '../sha256';
import { SessionFormatError } from './errors';
import { jsonString } from './json';
import type { Artifact, FormatCodec } from './types';

export interface EncodedGeneration {
  /** sha256 of the UTF-8 bytes, lowercase hex. */
  sha256: string;
  /** UTF-8 byte length. */
  bytes: number;
  /** The text itself, when asked for. */
  text?: string;
}

const SLICE_CHARS = 1 << 20;

export interface EncodeOptions {
  keepText?: boolean;
  /** A faster SHA-256 a host may hand in (Node's crypto); the core's own pure-JS one otherwise. */
  sha256?: () => Sha256Stream;
}

export function encodeArtifact(artifact: Artifact, codec: FormatCodec, options: EncodeOptions = {}): EncodedGeneration {
  const hash = (options.sha256 ?? sha256Stream)();
  const encoder = new TextEncoder();
  const kept: string[] = [];
  let bytes = 0;
  let pending: string[] = [];
  let pendingChars = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    const slice = pending.join('');
    const encoded = encoder.encode(slice);
    hash.update(encoded);
    bytes += encoded.length;
    if (options.keepText) kept.push(slice);
    pending = [];
    pendingChars = 0;
  };
  const line = (value: unknown, subject: string): void => {
    const text = jsonString(value);
    if (typeof text !== 'string') throw new SessionFormatError(`${subject} is not lossless JSON`);
    pending.push(text, '\n');
    pendingChars += text.length + 1;
    if (pendingChars >= SLICE_CHARS) flush();
  };
  line(codec.encodeHeader(artifact.header, artifact.inheritedEventCount), 'migrated session header');
  for (const event of artifact.events) line(codec.encodeEvent(event), `migrated Session event ${event.seq}`);
  flush();
  return { sha256: hash.hex(), bytes, ...(options.keepText ? { text: kept.join('') } : {}) };
}
