// Types of the shared log generator (log-generator.mjs, plain JavaScript so that the benchmarks and the
// end-to-end scripts run it without a build step).
import type { SessionHeader } from '../../src/core/types';

export function headerLine(fields?: Partial<SessionHeader>): string;

export interface Prng {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
  hex(n: number): string;
}
export function prng(seed: number): Prng;

export interface ScaleParams {
  targetEvents: number;
  compactEvery: number;
  keepTurns: number;
  pruneEvery: number;
}
export type ScaleSize = '10k' | '100k' | '300k';
export const SCALE_PARAMS: Record<ScaleSize, ScaleParams>;

export interface ScaleStats {
  turns: number;
  compactions: number;
  prunes: number;
  packedRows: number;
  replaces: number;
  steps: number;
  toolCalls: number;
}

export class ScaleLogGenerator {
  constructor(name: string, params: ScaleParams, seed: number);
  readonly name: string;
  /** The next seq: after run(), the number of events. */
  readonly seq: number;
  /** Event lines (packed rows count as one line), without the header. */
  readonly lines: string[];
  readonly header: SessionHeader;
  readonly headerLine: string;
  readonly stats: ScaleStats;
  /** Surface nodes the generator tracked while writing. */
  readonly surface: { seq: number; type: string }[];
  run(): this;
}

export function verifyWritten(name: string, lines: readonly string[]): number;

export function scaleLogText(options?: { size?: ScaleSize; params?: Partial<ScaleParams>; seed?: number; name?: string }): {
  text: string;
  generator: ScaleLogGenerator;
};

export const SAMPLE_HEADER: { createdAt: number; cwd: string; delegationDepth: number };

export class TurnLogBuilder {
  constructor(options?: { startTime?: number; payloadBytes?: number });
  readonly seq: number;
  readonly turn: number;
  turnLines(options?: { open?: boolean }): string[];
  closeOpenTurnLines(): string[];
}

export function writeGeneratedLog(
  file: string,
  options: { sessionId: string; events?: number; bytes?: number; payloadBytes?: number; openLastTurn?: boolean },
): Promise<{ file: string; events: number; turns: number; bytes: number }>;
