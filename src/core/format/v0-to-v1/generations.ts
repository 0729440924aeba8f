// Generations v0 and v1 as the catalog sees them.
import type { Artifact, FormatGeneration } from '../types';
import { holdingArtifact } from '../restore-visit';
import { releasedV0Codec, releasedV1Codec } from './codec';
import { migrationV0ToV1 } from './migration';
import { restoreV0Artifact, restoreV1Artifact } from './restore';

export const generationV0: FormatGeneration = Object.freeze({
  version: 0,
  codec: releasedV0Codec,
  restore: holdingArtifact(restoreV0Artifact),
});

export const generationV1: FormatGeneration = Object.freeze({
  version: 1,
  codec: releasedV1Codec,
  migrationFrom: migrationV0ToV1,
  restore: holdingArtifact((artifact: Artifact) => restoreV1Artifact(artifact)),
});
