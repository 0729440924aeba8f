// Exact validation of released v0/v1 artifacts: logical header, event envelopes, surface metadata,
// and each known payload against its disposition.
import type { Artifact, FormatEvent, LogicalHeader } from '../types';

/** The logical header rules shared by v0 and v1 (`format vN header …` messages). */
export function assertReleasedHeader(header: LogicalHeader, version: number): void {
  void header;
  void version;
  throw new Error('not implemented');
}

/** What the envelope walk of a whole artifact admits. */
export interface CoordinatePolicy {
  /** v0 sources: retired names are still present (and an unknown type is a historical refusal). */
  legacySource?: boolean;
  /** Event types the reader knows; an unknown type not marked ignorable is refused. */
  knownEventTypes?: ReadonlySet<string>;
  /** Unknown types stay opaque. */
  vocabularyNeutral?: boolean;
  /** Log-only events may not carry surface metadata, and surface metadata is checked. */
  frozenEnvelope?: boolean;
}

/** Inherited cut, dense seqs, safe-integer times, envelope members (dsh's `Session event N …` messages). */
export function assertArtifactCoordinates(artifact: Artifact, policy: CoordinatePolicy = {}): void {
  void artifact;
  void policy;
  throw new Error('not implemented');
}

/** `sourceEventSeqs` and `surfaceOp` of one surface event (v0–v2 spelling). */
export function assertSurfaceMetadata(
  record: Record<string, unknown>,
  seq: number,
  type: string,
  assistantSources: 'allow-empty-assistant' | 'forbid-assistant',
): void {
  void record;
  void seq;
  void type;
  void assistantSources;
  throw new Error('not implemented');
}

/** One known event's payload: exact members of its disposition, then its semantics at `version`. */
export function assertEventPayload(event: FormatEvent, version: number): void {
  void event;
  void version;
  throw new Error('not implemented');
}
