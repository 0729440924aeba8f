// The generations this build reads, oldest first. Each later generation appends its entry here
// (a codec, the migration from the previous one, its restore); nothing else needs to change.
import type { FormatGeneration } from './types';
import { generationV0, generationV1 } from './v0-to-v1';
import { generationV2 } from './v1-to-v2';
import { generationV3 } from './v2-to-v3';

/** The format today's dsh writes (0.1.7 / 0.2.x: v4). */
export const CURRENT_FORMAT_VERSION = 4;

export const FORMAT_GENERATIONS: readonly FormatGeneration[] = [generationV0, generationV1, generationV2, generationV3];

/** The registered generation `version`, if this build has it. */
export function findGeneration(
  version: number,
  generations: readonly FormatGeneration[] = FORMAT_GENERATIONS,
): FormatGeneration | undefined {
  return generations.find((generation) => generation.version === version);
}

/** The newest registered generation's version. */
export function newestRegisteredVersion(generations: readonly FormatGeneration[] = FORMAT_GENERATIONS): number {
  return generations.reduce((newest, generation) => Math.max(newest, generation.version), -1);
}
