// Generations v0 and v1 as the catalog sees them.
import type { FormatGeneration } from '../types';

export const generationV0: FormatGeneration = undefined as unknown as FormatGeneration;
export const generationV1: FormatGeneration = undefined as unknown as FormatGeneration;
