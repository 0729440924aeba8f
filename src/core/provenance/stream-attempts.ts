// Splits a log's assistant/chunk events into model *attempts*: the chunks one model call streamed.
// A step can hold several attempts: an empty response retried through llm/retry, or a context-window
// failure recovered by a compaction and a fresh call (fixtures v0-empty-response-llm-retry and
// v0-compaction-replace-recovery). Chunks of a failed attempt never reach a message, and provenance
// must tell them apart from chunks that lost their message.
//
// An attempt is the run of chunks of one (turn, step) that ends at the first of: a `finish` chunk,
// the step's assistant/message, an llm/retry or llm/retry-started of that step, its step/end or its
// turn/end. The next chunk of the same step opens a new attempt.
import { StreamAssembly } from './stream-assembly';
import type { SessionEvent } from '../types';
import { SeqMap } from './seq-map';
import { SmallMap } from '../small-map';

export type AttemptEnd = 'finish' | 'message' | 'retry' | 'step-end' | 'turn-end';

export interface Attempt {
  id: number;
  turn: number | undefined;
  step: number | undefined;
  first: number;
  last: number;
  count: number;
  /** Chunks a message took (by citation or by turn/step). */
  claimed: number;
  /** The running reassembly; dropped once nothing can claim the attempt any more. */
  assembly: StreamAssembly | undefined;
  finishKind?: string;
  failureCode?: string;
  /** The llm/retry (or llm/retry-started) that abandoned this attempt. */
  retrySeq?: number;
  /**
   * What settled the attempt: its finish chunk, then (replacing 'finish') the message, retry, step/end
   * or turn/end that closed it. Undefined while it is still streaming at the end of the log.
   */
  endedBy?: AttemptEnd;
}

/**
 * A step's key: for the usual small integer turn and step a number below 2^30, which the engine keeps
 * unboxed (no string or heap number per chunk); else text.
 */
function keyOf(turn: number | undefined, step: number | undefined): number | string {
  if (
    turn !== undefined &&
    step !== undefined &&
    turn >= 0 &&
    step >= 0 &&
    step < 1024 &&
    turn < 1048576 &&
    Number.isInteger(turn) &&
    Number.isInteger(step)
  )
    return turn * 1024 + step;
  return `${turn}/${step}`;
}

export class AttemptTracker {
  readonly attempts: Attempt[] = [];
  /** Attempt id per chunk seq (-1 for other events). */
  readonly attemptOf: SeqMap;
  /** Attempts still receiving chunks, by turn/step. */
  private readonly open = new SmallMap<number | string, Attempt>();
  /** The latest attempt of a step that a message without citations may still take (turn/step attribution). */
  private readonly claimable = new SmallMap<number | string, Attempt>();
  /** The most recent attempt of each step, whatever ended it (an llm/retry names the attempt it abandons). */
  private readonly latest = new SmallMap<number | string, Attempt>();

  constructor(expectedEvents = 1024) {
    this.attemptOf = new SeqMap(expectedEvents);
  }

  private attemptFor(key: number | string, seq: number, turn: number | undefined, step: number | undefined): Attempt {
    let attempt = this.open.get(key);
    if (!attempt) {
      this.release(this.claimable.get(key));
      attempt = { id: this.attempts.length, turn, step, first: seq, last: seq, count: 0, claimed: 0, assembly: new StreamAssembly() };
      this.attempts.push(attempt);
      this.open.set(key, attempt);
      this.claimable.set(key, attempt);
      this.latest.set(key, attempt);
    }
    return attempt;
  }

  /** The members of a packed row: deltas of one block, never a finish. */
  chunkRow(seq0: number, row: Record<string, any>, members: number, turn: number | undefined, step: number | undefined): void {
    const attempt = this.attemptFor(keyOf(turn, step), seq0, turn, step);
    this.attemptOf.setRange(seq0, members, attempt.id);
    attempt.count += members;
    attempt.last = seq0 + members - 1;
    attempt.assembly!.addRow(row, seq0, members);
  }

  chunk(event: SessionEvent, turn: number | undefined, step: number | undefined): void {
    const key = keyOf(turn, step);
    const attempt = this.attemptFor(key, event.seq, turn, step);
    this.attemptOf.set(event.seq, attempt.id);
    attempt.count += 1;
    attempt.last = event.seq;
    attempt.assembly!.add(event);
    if (event.data?.chunk?.type === 'finish') {
      const assembly = attempt.assembly!;
      attempt.finishKind = assembly.finishKind;
      attempt.failureCode = assembly.failureCode;
      attempt.endedBy = 'finish';
      this.open.delete(key);
      // A failed attempt produces no message; anything after it in the step is a new call.
      if (assembly.failed) this.drop(key);
    }
  }

  /** The attempt a message of (turn, step) without citations takes, if any. */
  claimableFor(turn: number | undefined, step: number | undefined): Attempt | undefined {
    return this.claimable.get(keyOf(turn, step));
  }

  /** A message of (turn, step) ends the step's stream. */
  message(turn: number | undefined, step: number | undefined): void {
    this.end(keyOf(turn, step), 'message');
  }

  retry(seq: number, turn: number | undefined, step: number | undefined): void {
    const key = keyOf(turn, step);
    const attempt = this.latest.get(key);
    if (attempt && attempt.claimed === 0) attempt.retrySeq ??= seq;
    this.end(key, 'retry');
  }

  stepEnd(turn: number | undefined, step: number | undefined): void {
    const key = keyOf(turn, step);
    this.end(key, 'step-end');
    this.latest.delete(key);
  }

  turnEnd(turn: number | undefined): void {
    if (this.open.size + this.claimable.size > 0) {
      for (const [, attempt] of [...this.open.entries(), ...this.claimable.entries()]) {
        if (attempt.turn === turn) this.end(keyOf(attempt.turn, attempt.step), 'turn-end');
      }
    }
    if (this.latest.size > 0) for (const [key, attempt] of this.latest.entries()) if (attempt.turn === turn) this.latest.delete(key);
  }

  /** Chunk seqs of an attempt, ascending. */
  chunksOf(attempt: Attempt): number[] {
    const out: number[] = [];
    for (let seq = attempt.first; seq <= attempt.last; seq++) if (this.attemptOf.get(seq) === attempt.id) out.push(seq);
    return out;
  }

  private end(key: number | string, why: AttemptEnd): void {
    // A finished stream still waits for its message; whatever closes the step settles it for good.
    const attempt = this.open.get(key) ?? this.claimable.get(key);
    if (attempt && (attempt.endedBy === undefined || attempt.endedBy === 'finish')) attempt.endedBy = why;
    this.open.delete(key);
    this.drop(key);
  }

  private drop(key: number | string): void {
    this.release(this.claimable.get(key));
    this.claimable.delete(key);
  }

  /** Frees the reassembly of an attempt nothing can claim any more (large logs stay small). */
  private release(attempt: Attempt | undefined): void {
    if (attempt) attempt.assembly = undefined;
  }
}
