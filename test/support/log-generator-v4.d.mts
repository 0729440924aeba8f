// Types of the v4 mode of the shared log generator (log-generator-v4.mjs).
import type { ScaleParams, ScaleSize } from './log-generator.mjs';

export interface V4ScaleStats {
  turns: number;
  compactions: number;
  prunes: number;
  attempts: number;
  developer: number;
  systemReplacements: number;
  toolResults: number;
  forkClosers: number;
}

export class V4ScaleLogGenerator {
  constructor(name: string, params: ScaleParams, seed: number);
  readonly name: string;
  /** The next seq: after run(), the number of events. */
  readonly seq: number;
  /** Event lines, without the header. */
  readonly lines: string[];
  readonly header: Record<string, unknown>;
  readonly headerLine: string;
  readonly stats: V4ScaleStats;
  /** Surface nodes the generator tracked while writing. */
  readonly surface: { seq: number; turn: number }[];
  /** The seq of the inherited end-seed marker (the fork's cut). */
  readonly inheritedEventCount: number;
  run(): this;
}

export function scaleV4LogText(options?: { size?: ScaleSize; params?: Partial<ScaleParams>; seed?: number; name?: string }): {
  text: string;
  generator: V4ScaleLogGenerator;
};
