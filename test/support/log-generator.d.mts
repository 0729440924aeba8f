// Types of the project's one log generator (log-generator.mjs and the parts under log-generator/, plain
// JavaScript so that node scripts, the end-to-end tests and the benchmarks run it without a build step).
import type { SessionHeader } from '../../src/core/types';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Rec = { [key: string]: Json };

/** Header fields to write; any may be left out, to build headers dsh refuses. */
export type HeaderFields = Partial<SessionHeader>;

/** The header line in the writer's key order (spec §1.3); `undefined` fields are omitted. */
export function headerLine(fields?: HeaderFields): string;

// ------------------------------------------------------------------------------------------ the writer
export interface PackedRun {
  turn: number;
  step: number;
  index: number;
  dt: number[];
  /** text-chunks and reasoning-chunks */
  texts?: string[];
  /** tool-call-chunks */
  id?: string;
  name?: string;
  args?: string[];
}

export interface WrittenEvent {
  type: string;
  seq: number;
  time: number;
  data: any;
  sourceEventSeqs?: number[];
  surfaceOp?: 'append' | Rec;
  [key: string]: any;
}

export interface PackedRow {
  type: string;
  seq0: number;
  time0: number;
  data: any;
}

export class EventWriter {
  constructor(options?: {
    generation?: number;
    seq?: number;
    time?: number;
    advance?: () => number;
    lines?: string[];
    onEvent?: (event: WrittenEvent, line: number) => void;
    onRow?: (row: PackedRow, line: number) => void;
  });
  readonly generation: number;
  /** The time of the last event written (or the start). */
  time: number;
  /** The seq of the next event. */
  readonly seq: number;
  readonly lines: string[];
  event(type: string, data: unknown, envelope?: Record<string, unknown>): number;
  eventAt(time: number, type: string, data: unknown, envelope?: Record<string, unknown>): number;
  closerAt(time: number, type: string, data: unknown, sources?: number[]): number;
  append(type: string, data: unknown, sources?: number[]): number;
  replace(type: string, data: unknown, start: number, end: number, sources: number[]): number;
  packedRow(tag: 'text-chunks' | 'reasoning-chunks' | 'tool-call-chunks', run: PackedRun): number[];
  rawLine(text: string): void;
  take(): string[];
}

export function expandRow(row: PackedRow): WrittenEvent[];
export function rangeEncoded(seqs: readonly number[]): (number | [number, number])[];
/** Re-reads written event lines (no header); returns the event count. */
export function verifyWritten(name: string, lines: readonly string[]): number;

// ------------------------------------------------------------------------------------ the unit tests'
export interface ToolCallSpec {
  id: string;
  name?: string;
  arguments?: string;
}

export interface ReplacementModel {
  seq: number;
  start: number;
  end: number;
  shadowedSeqs: number[];
}

/** The route of the hand-built logs. */
export const PROVIDER: string;
export const MODEL: string;

export class LogBuilder {
  constructor(header?: HeaderFields);
  /** Every line of the file without its newline; index 0 is the header. Tests may edit them. */
  readonly lines: string[];
  /** The next event's time; each event advances it by one millisecond unless set explicitly. */
  time: number;
  /** Expanded events by seq (packed rows expanded the way spec §1.4 describes). */
  readonly events: Rec[];
  /** Surface nodes in model-visible order. */
  readonly surface: number[];
  readonly replacements: ReplacementModel[];
  /** Append-origin surface events in log order (the human transcript). */
  readonly transcript: number[];
  /** Line index (0 = header) of each seq. */
  readonly lineOf: number[];
  readonly nextSeq: number;
  readonly openTurn: number | null;
  readonly openStep: number | null;
  readonly lastTime: number;
  /** The messages the model sees, in surface order (spec §4 projection). */
  derivedMessages(): Rec[];
  /** Cuts where the tool-call/result count is zero (spec §6.3), or the first tool/result that drives it negative. */
  balancedCuts(): { cuts: number[] } | { negativeAt: number };
  newId(prefix?: string): string;
  /** Appends one line verbatim; the model does not learn from it and seqs are not advanced. */
  rawLine(text: string): this;
  /** Appends an event with the next seq; `extra` holds envelope keys after `data` (sourceEventSeqs, surfaceOp…). */
  event(type: string, data: Json, extra?: Rec): number;
  turnStart(): number;
  turnEnd(reason?: Rec): number;
  stepStart(): number;
  stepEnd(): number;
  requestHeader(reason?: string): number;
  user(text: string, options?: { id?: string; source?: Rec }): number;
  assistant(options?: { text?: string; toolCalls?: ToolCallSpec[]; chunks?: string[]; id?: string; empty?: boolean }): number;
  toolCall(callId: string, name?: string, args?: string): number;
  toolResultData(callId: string, text: string, options?: { isError?: boolean; id?: string }): Rec;
  toolResult(callId: string, text: string, options?: { isError?: boolean }): number;
  textChunks(texts: string[], options?: { dt?: number[]; kind?: 'text' | 'reasoning'; index?: number }): number[];
  toolCallChunks(id: string, args: string[], options?: { name?: string; dt?: number[]; index?: number }): number[];
  compact(options?: { start?: number; end?: number; summary?: string }): { replaceSeq: number; shadowed: number[] };
  prune(resultSeq: number, text?: string): number;
  chatTurn(prompt: string, answer?: string[]): void;
  toolTurn(prompt: string, calls: string[], answer?: string): number[];
  text(options?: { eol?: string; tornTail?: string }): string;
  bytes(options?: { eol?: string; tornTail?: string }): Uint8Array;
}

export function richLog(options?: { openTail?: 'none' | 'recorded-call' | 'unrecorded-call' | 'open-step' }): LogBuilder;

/** What the model sees of one event (spec §4), or null. */
export function deriveMessage(event: Rec): Rec | null;

// ------------------------------------------------------------------------------------ uniform turns
export const SAMPLE_HEADER: { createdAt: number; cwd: string; delegationDepth: number };

export class TurnLogBuilder {
  constructor(options?: { startTime?: number; payloadBytes?: number; firstPrompt?: string });
  readonly writer: EventWriter;
  turn: number;
  readonly seq: number;
  event(type: string, data: unknown, extra?: Record<string, unknown>): string;
  turnLines(options?: { open?: boolean }): string[];
  closeOpenTurnLines(): string[];
}

export function writeGeneratedLog(
  file: string,
  options: { sessionId: string; events?: number; bytes?: number; payloadBytes?: number; openLastTurn?: boolean },
): Promise<{ file: string; events: number; turns: number; bytes: number }>;

// ------------------------------------------------------------------------------------ realistic logs
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

export function scaleLogText(options?: { size?: ScaleSize; params?: Partial<ScaleParams>; seed?: number; name?: string }): {
  text: string;
  generator: ScaleLogGenerator;
};

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

// ------------------------------------------------------------------------ for scripts writing their own
export interface Route {
  provider: string;
  model: string;
}
export const TEST_ROUTE: Route;
export const DSH_ROUTE: Route;
export const CHECKPOINT_OPENING: string;

/** The event payloads, in dsh's writer key order (log-generator/shapes.mjs). */
export namespace shape {
  function turnStart(turn: number): Rec;
  function turnEnd(turn: number, reason?: Rec): Rec;
  function stepBoundary(turn: number, step: number): Rec;
  function chunkData(turn: number, step: number, chunk: Rec): Rec;
  function requestHeader(header: Rec, reason: string): Rec;
  function userMessage(text: string, source: Rec, id: string): Rec;
  function modelSource(route: Route): Rec;
  function assistantMessage(content: Rec[], source: Rec, id: string): Rec;
  function assistantData(turn: number, step: number, message: Rec, usage?: Rec, stream?: Rec[]): Rec;
  function toolCallBlock(id: string, name: string, args: string): Rec;
  function toolCallData(turn: number, step: number, callId: string, name: string, args: string): Rec;
  function toolResultMessage(callId: string, text: string, isError: boolean, id: string): Rec;
  function toolRoleMessage(callId: string, text: string, isError: boolean, id: string): Rec;
  function toolResultData(turn: number, step: number, message: Rec, extra?: Rec): Rec;
  function compactionBoundary(compactionId: string): Rec;
  function compactionSummary(fields: {
    compactionId: string;
    summary: Rec[];
    start: number;
    end: number;
    shadowedSeqs: number[];
    shadowedTokenCount: number;
    route: Route;
    usage?: Rec;
  }): Rec;
  function checkpointMessage(fields: { summary: Rec[]; source: Rec; id: string; guidance?: boolean }): Rec;
  function pruneData(seq: number, shadowedTokenCount: number): Rec;
  function prunedResult(data: Rec, text: string): Rec;
  function prunedToolRoleResult(data: Rec, text: string): Rec;
}
