// The physical codecs of released v0 and v1 (one layout, two version numbers).
import type { EventRun, FormatCodec } from '../types';

/** A packed assistant-chunk record as a v1→v2 stream keeps it (same members as the packed row). */
export type ChunkStreamRecord =
  | { type: 'text-chunks' | 'reasoning-chunks'; time0: number; index: number; dt: number[]; texts: string[] }
  | { type: 'tool-call-chunks'; time0: number; index: number; dt: number[]; id: string; name?: string; args: string[] };

/** The run a packed `text-chunks` / `reasoning-chunks` / `tool-call-chunks` row decodes to. */
export interface AssistantChunkRun extends EventRun {
  readonly runType: 'released-assistant-chunks';
  readonly turn: number;
  readonly step: number;
  readonly lastSeq: number;
  readonly lastTime: number;
  readonly stream: ChunkStreamRecord;
}

export function isAssistantChunkRun(run: EventRun): run is AssistantChunkRun {
  return run.runType === 'released-assistant-chunks';
}

export const releasedV0Codec: FormatCodec = undefined as unknown as FormatCodec;
export const releasedV1Codec: FormatCodec = undefined as unknown as FormatCodec;
