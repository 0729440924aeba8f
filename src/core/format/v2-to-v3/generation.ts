// Generation v3 as the catalog sees it.
import type { FormatGeneration } from '../types';
import { holdingArtifact } from '../restore-visit';
import { v2ToV3Migration } from './v2-to-v3-migration';
import { v3Codec } from './v3-codec';
import { restoreV3Artifact } from './v3-restore';

export const generationV3: FormatGeneration = {
  version: 3,
  codec: v3Codec,
  migrationFrom: v2ToV3Migration,
  restore: holdingArtifact(restoreV3Artifact),
};
