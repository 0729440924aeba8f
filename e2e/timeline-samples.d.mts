// Types of timeline-samples.mjs (the timeline tests' samples; the compaction one is committed).
export const COMPACTION_ID: string;
export const COMPACTION_PREAMBLE: string;
export const STREAMED_MARKER: string;
export const HUGE_LENGTH: number;
export function compactionSample(): string[];
export function longSample(): string[];
export function hostileSample(): string[];
export function writeTimelineSamples(dir: string, names?: string[]): string[];
