// Generation v2 as the catalog sees it.
import type { FormatGeneration } from '../types';
import { holdingArtifact } from '../restore-visit';
import { v1ToV2Migration } from './v1-to-v2-migration';
import { v2Codec } from './v2-codec';
import { restoreV2Artifact } from './v2-restore';

export const generationV2: FormatGeneration = {
  version: 2,
  codec: v2Codec,
  migrationFrom: v1ToV2Migration,
  restore: holdingArtifact((artifact) => restoreV2Artifact(artifact)),
};
