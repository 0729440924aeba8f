// The restores of v0 and v1 artifacts as the catalog runs them. A v1 artifact (read natively or
// migrated from v0) is checked as dsh's v1 restore checks it: the logical header, then the
// envelopes, dense seqs, times and inherited cut against the vocabulary the reader knows (payloads
// and relationships are the next edge's to check). v0 is never a target of dsh's catalog: its own
// verdict is dsh 0.1.1's (the core's reader); here it is restored vocabulary-neutral.
import type { Artifact } from '../types';
import { RELEASED_EVENT_TYPES } from './dispositions';
import { assertArtifactCoordinates, assertReleasedHeader } from './validation';

/** The event vocabulary a v1 reader knows: the released inventory. */
export const V1_KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(RELEASED_EVENT_TYPES);

/** Validates a v1 artifact against the event vocabulary the reader knows. */
export function restoreV1Artifact(artifact: Artifact, knownEventTypes: ReadonlySet<string> = V1_KNOWN_EVENT_TYPES): Artifact {
  assertReleasedHeader(artifact.header, 1);
  assertArtifactCoordinates(artifact, { knownEventTypes });
  return artifact;
}

export function restoreV0Artifact(artifact: Artifact): Artifact {
  assertReleasedHeader(artifact.header, 0);
  assertArtifactCoordinates(artifact, { legacySource: true, vocabularyNeutral: true });
  return artifact;
}
