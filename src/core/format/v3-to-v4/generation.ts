// Generation v4 as the catalog sees it. A log read as v4 meets the whole restore; one migrated from
// v3 meets the rules of the generation itself (dsh's restoreTransformedCurrent skips the installed
// session's checks, spec §2 step 3–4).
import type { FormatGeneration } from '../types';
import { v4Codec } from './codec';
import { v3ToV4Migration } from './migration';
import { v4GenerationRestore, v4Restore } from './restore';

export const generationV4: FormatGeneration = {
  version: 4,
  codec: v4Codec,
  migrationFrom: v3ToV4Migration,
  restore: v4Restore,
  restoreTransformed: v4GenerationRestore(),
};
