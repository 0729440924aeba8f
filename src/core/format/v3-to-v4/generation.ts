// Generation v4 as the catalog sees it. A log read as v4 meets the whole restore; one migrated from
// v3 meets the rules of the generation itself (dsh's restoreTransformedCurrent skips the installed
// session's checks, spec §2 step 3–4).
import type { FormatGeneration } from '../types';
import { v4Codec } from './codec';
import { v3ToV4Migration } from './migration';
import { restoreV4, restoreV4Generation } from './restore';

export const generationV4: FormatGeneration = {
  version: 4,
  codec: v4Codec,
  migrationFrom: v3ToV4Migration,
  restore: restoreV4,
  restoreTransformed: (artifact) => restoreV4Generation(artifact),
};
