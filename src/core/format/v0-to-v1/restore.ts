// The restore of a v1 artifact (native or migrated): header and envelope coordinates.
import type { Artifact } from '../types';

/** Validates a v1 artifact against the event vocabulary the reader knows. */
export function restoreV1Artifact(artifact: Artifact, knownEventTypes: ReadonlySet<string>): Artifact {
  void artifact;
  void knownEventTypes;
  throw new Error('not implemented');
}
