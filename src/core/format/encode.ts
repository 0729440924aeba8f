// An artifact written as dsh's encoder writes a generation: the header line, then one event per
// line, each `JSON.stringify` of the codec's physical value (key order as the value holds it), every
// line ending in `\n`. Its sha256 and byte length are what the corpus compares.
import type { Artifact, FormatCodec } from './types';

export interface EncodedGeneration {
  /** sha256 of the UTF-8 bytes, lowercase hex. */
  sha256: string;
  /** UTF-8 byte length. */
  bytes: number;
  /** The text itself, when asked for. */
  text?: string;
}

export function encodeArtifact(artifact: Artifact, codec: FormatCodec, options: { keepText?: boolean } = {}): EncodedGeneration {
  void artifact;
  void codec;
  void options;
  throw new Error('not implemented');
}
