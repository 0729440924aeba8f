// One assistant attempt whose chunks the v1→v2 migration has seen but not yet settled: it becomes the
// `stream` of the `assistant/message` that cites all its chunks in order, or else one log-only
// `assistant/attempt` at its last chunk's position. Events after its last chunk wait with it, because
// where they land depends on how it settles.
import type { FormatEvent } from '../types';
import { AttemptStreamBuilder } from './attempt-stream';

interface ChunkSpan {
  readonly firstSeq: number;
  count: number;
}

export class PendingAttempt {
  readonly stream = new AttemptStreamBuilder();
  /** Events that arrived after the attempt's last chunk so far, in source order. */
  readonly heldBack: FormatEvent[] = [];
  /** A `finish` chunk or a citing message ended it: another chunk starts a new attempt. */
  terminal = false;
  private readonly spans: ChunkSpan[] = [];
  private chunkCount = 0;
  private lastChunkSeq = 0;
  private lastChunkTime = 0;

  constructor(
    readonly turn: unknown,
    readonly step: unknown,
  ) {}

  /** Records `count` consecutive chunk seqs from `firstSeq`, the last at `lastTime`. */
  addChunkSeqs(firstSeq: number, count: number, lastTime: number): void {
    const previous = this.spans[this.spans.length - 1];
    if (previous && previous.firstSeq + previous.count === firstSeq) previous.count += count;
    else this.spans.push({ firstSeq, count });
    this.chunkCount += count;
    this.lastChunkSeq = firstSeq + count - 1;
    this.lastChunkTime = lastTime;
  }

  get firstChunkSeq(): number | undefined {
    return this.spans[0]?.firstSeq;
  }

  get lastSeq(): number {
    return this.lastChunkSeq;
  }

  /** Whether a message's `sourceEventSeqs` are exactly this attempt's chunks, in order. */
  isCitedExactlyBy(sources: readonly unknown[]): boolean {
    if (sources.length !== this.chunkCount) return false;
    let at = 0;
    for (const span of this.spans)
      for (let offset = 0; offset < span.count; offset++) if (sources[at++] !== span.firstSeq + offset) return false;
    return true;
  }

  /** The log-only event an unclaimed attempt becomes (failed, retried, cancelled or errored streams). */
  attemptEvent(): FormatEvent {
    return {
      type: 'assistant/attempt',
      seq: this.lastChunkSeq,
      time: this.lastChunkTime,
      data: { turn: this.turn, step: this.step, stream: this.stream.records() },
    };
  }
}
