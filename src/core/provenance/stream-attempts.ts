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

/** Codes of AttemptEnd in the endedBy column (0: not ended). */
const END_NAMES: readonly (AttemptEnd | undefined)[] = [undefined, 'finish', 'message', 'retry', 'step-end', 'turn-end'];
const END_CODE: Record<AttemptEnd, number> = { finish: 1, message: 2, retry: 3, 'step-end': 4, 'turn-end': 5 };

/** No step: the stream key while no attempt is streaming (below every key keyOf gives). */
const NO_KEY = -0x40000000;

/**
 * The attempts of a log, as numbered rows of typed columns: a large log has thousands, and an object
 * per attempt would live as long as the log (promoted, scanned by every full collection). Only the
 * attempts a message may still take keep a running reassembly, in `claimable`.
 */
export class AttemptTracker {
  private size = 0;
  private capacity: number;
  private firstOf: Int32Array;
  private lastOf: Int32Array;
  private countOf: Int32Array;
  private claimedOf: Int32Array;
  /** -1: no retry abandoned the attempt. */
  private retryOf: Int32Array;
  /** The message that took every chunk of the attempt at once (-1: none did). */
  private takenOf: Int32Array;
  private endOf: Uint8Array;
  /** Turn and step as numbers, NaN where the chunk had none. */
  private turnOf: Float64Array;
  private stepOf: Float64Array;
  /** Finish kinds as indexes into `finishNames` (0: none); the few failure codes aside. */
  private finishOf: Uint32Array;
  private readonly finishNames: (string | undefined)[] = [undefined];
  private readonly finishCodes = new Map<string, number>();
  private readonly failureCodes = new Map<number, string>();
  /** Attempt id per chunk seq (-1 for other events). */
  readonly attemptOf: SeqMap;
  /** Attempts still receiving chunks, by step key (keyOf). */
  private readonly open = new SmallMap<number, number>();
  /** The latest attempt of a step that a message may still take, with its running reassembly. */
  private readonly claimable = new SmallMap<number, StreamAssembly>();
  /** The most recent attempt of each step, whatever ended it (an llm/retry names the attempt it abandons). */
  private readonly latest = new SmallMap<number, number>();
  /** Keys of the steps whose turn or step is not a small non-negative integer (rare): -1, -2, … */
  private readonly otherKeys = new Map<string, number>();
  /**
   * The attempt the last chunk went to, while it is open, with its reassembly: a step's chunks come
   * in a run, so most chunks find their attempt here without a lookup in `open` and `claimable`.
   */
  private streamKey = NO_KEY;
  private streamId = -1;
  private streamAssembly: StreamAssembly | undefined;

  constructor(expectedEvents = 1024) {
    this.attemptOf = new SeqMap(expectedEvents);
    // Real logs stream tens of chunks per attempt; the columns grow if a log has more.
    this.capacity = Math.max(64, expectedEvents >> 5);
    this.firstOf = new Int32Array(this.capacity);
    this.lastOf = new Int32Array(this.capacity);
    this.countOf = new Int32Array(this.capacity);
    this.claimedOf = new Int32Array(this.capacity);
    this.retryOf = new Int32Array(this.capacity);
    this.takenOf = new Int32Array(this.capacity);
    this.endOf = new Uint8Array(this.capacity);
    this.turnOf = new Float64Array(this.capacity);
    this.stepOf = new Float64Array(this.capacity);
    this.finishOf = new Uint32Array(this.capacity);
  }

  /** Attempts so far; ids run from 0. */
  get attemptCount(): number {
    return this.size;
  }

  first(id: number): number {
    return this.firstOf[id];
  }

  last(id: number): number {
    return this.lastOf[id];
  }

  /** Chunks of the attempt. */
  chunkCount(id: number): number {
    return this.countOf[id];
  }

  /** Chunks a message took (by citation or by turn/step). */
  claimed(id: number): number {
    return this.claimedOf[id];
  }

  addClaimed(id: number, chunks: number): void {
    this.claimedOf[id] += chunks;
  }

  /** A message took all the attempt's chunks at once: recorded here instead of per chunk. */
  takeWhole(id: number, message: number): void {
    this.takenOf[id] = message;
    this.claimedOf[id] += this.countOf[id];
  }

  /** The message that took the whole attempt at once (-1: none). */
  takenBy(id: number): number {
    return this.takenOf[id];
  }

  turn(id: number): number | undefined {
    const turn = this.turnOf[id];
    return turn === turn ? turn : undefined;
  }

  step(id: number): number | undefined {
    const step = this.stepOf[id];
    return step === step ? step : undefined;
  }

  /** `reason.kind` of the attempt's finish chunk. */
  finishKind(id: number): string | undefined {
    return this.finishNames[this.finishOf[id]];
  }

  /** Failure code of an error/aborted finish. */
  failureCode(id: number): string | undefined {
    return this.failureCodes.get(id);
  }

  /** The llm/retry (or llm/retry-started) that abandoned the attempt. */
  retrySeq(id: number): number | undefined {
    const seq = this.retryOf[id];
    return seq >= 0 ? seq : undefined;
  }

  /**
   * What settled the attempt: its finish chunk, then (replacing 'finish') the message, retry, step/end
   * or turn/end that closed it. Undefined while it is still streaming at the end of the log.
   */
  endedBy(id: number): AttemptEnd | undefined {
    return END_NAMES[this.endOf[id]];
  }

  /**
   * A step's key: for the usual small integer turn and step a number below 2^30, which the engine
   * keeps unboxed (no string or heap number per chunk); any other turn and step get a negative number
   * of their own, so every key is a small integer and equal keys are equal steps.
   */
  private keyOf(turn: number | undefined, step: number | undefined): number {
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
    return this.otherKey(turn, step);
  }

  private otherKey(turn: number | undefined, step: number | undefined): number {
    const text = `${turn}/${step}`;
    let key = this.otherKeys.get(text);
    if (key === undefined) {
      key = -1 - this.otherKeys.size;
      this.otherKeys.set(text, key);
    }
    return key;
  }

  /** The running reassembly of an attempt a message may still take (undefined once nothing can). */
  assemblyOf(id: number): StreamAssembly | undefined {
    const assembly = this.claimable.get(this.keyOf(this.turn(id), this.step(id)));
    return assembly?.attempt === id ? assembly : undefined;
  }

  private grow(): void {
    const capacity = Math.ceil(this.capacity * 1.5);
    const n = this.size;
    this.firstOf = grown(this.firstOf, n, new Int32Array(capacity));
    this.lastOf = grown(this.lastOf, n, new Int32Array(capacity));
    this.countOf = grown(this.countOf, n, new Int32Array(capacity));
    this.claimedOf = grown(this.claimedOf, n, new Int32Array(capacity));
    this.retryOf = grown(this.retryOf, n, new Int32Array(capacity));
    this.takenOf = grown(this.takenOf, n, new Int32Array(capacity));
    this.endOf = grown(this.endOf, n, new Uint8Array(capacity));
    this.turnOf = grown(this.turnOf, n, new Float64Array(capacity));
    this.stepOf = grown(this.stepOf, n, new Float64Array(capacity));
    this.finishOf = grown(this.finishOf, n, new Uint32Array(capacity));
    this.capacity = capacity;
  }

  /** The open attempt of the step `key` (made for `seq` when there is none); streamAssembly is then its reassembly. */
  private attemptFor(key: number, seq: number, turn: number | undefined, step: number | undefined): number {
    if (key === this.streamKey) return this.streamId;
    const open = this.open.get(key);
    if (open !== undefined) {
      this.stream(key, open, this.claimable.get(key)!);
      return open;
    }
    if (this.size === this.capacity) this.grow();
    const id = this.size++;
    this.firstOf[id] = seq;
    this.lastOf[id] = seq;
    this.retryOf[id] = -1;
    this.takenOf[id] = -1;
    this.turnOf[id] = turn ?? NaN;
    this.stepOf[id] = step ?? NaN;
    this.open.set(key, id);
    // The step's previous attempt can no longer be taken: its reassembly goes.
    const assembly = new StreamAssembly(id);
    this.claimable.set(key, assembly);
    this.latest.set(key, id);
    this.stream(key, id, assembly);
    return id;
  }

  private stream(key: number, id: number, assembly: StreamAssembly | undefined): void {
    this.streamKey = key;
    this.streamId = id;
    this.streamAssembly = assembly;
  }

  /** The members of a packed row: deltas of one block, never a finish. */
  chunkRow(seq0: number, row: Record<string, any>, members: number, turn: number | undefined, step: number | undefined): void {
    const key = this.keyOf(turn, step);
    const id = this.attemptFor(key, seq0, turn, step);
    this.attemptOf.setRange(seq0, members, id);
    this.countOf[id] += members;
    this.lastOf[id] = seq0 + members - 1;
    this.streamAssembly!.addRow(row, seq0, members);
  }

  chunk(event: SessionEvent, turn: number | undefined, step: number | undefined): void {
    const key = this.keyOf(turn, step);
    const seq = event.seq;
    const id = this.attemptFor(key, seq, turn, step);
    this.attemptOf.set(seq, id);
    this.countOf[id] += 1;
    this.lastOf[id] = seq;
    const assembly = this.streamAssembly!;
    if (assembly.add(event)) {
      this.finishOf[id] = this.finishCode(assembly.finishKind);
      if (assembly.failureCode !== undefined) this.failureCodes.set(id, assembly.failureCode);
      this.endOf[id] = END_CODE.finish;
      this.open.delete(key);
      this.stream(NO_KEY, -1, undefined);
      // A failed attempt produces no message; anything after it in the step is a new call.
      if (assembly.failed) this.claimable.delete(key);
    }
  }

  private finishCode(kind: string | undefined): number {
    if (kind === undefined) return 0;
    let code = this.finishCodes.get(kind);
    if (code === undefined) {
      code = this.finishNames.length;
      this.finishNames.push(kind);
      this.finishCodes.set(kind, code);
    }
    return code;
  }

  /** The attempt a message of (turn, step) without citations takes (-1 when none). */
  claimableFor(turn: number | undefined, step: number | undefined): number {
    return this.claimable.get(this.keyOf(turn, step))?.attempt ?? -1;
  }

  /** A message of (turn, step) ends the step's stream. */
  message(turn: number | undefined, step: number | undefined): void {
    this.end(this.keyOf(turn, step), 'message');
  }

  retry(seq: number, turn: number | undefined, step: number | undefined): void {
    const key = this.keyOf(turn, step);
    const id = this.latest.get(key);
    if (id !== undefined && this.claimedOf[id] === 0 && this.retryOf[id] < 0) this.retryOf[id] = seq;
    this.end(key, 'retry');
  }

  stepEnd(turn: number | undefined, step: number | undefined): void {
    const key = this.keyOf(turn, step);
    this.end(key, 'step-end');
    this.latest.delete(key);
  }

  turnEnd(turn: number | undefined): void {
    if (this.open.size + this.claimable.size > 0) {
      const keys = [
        ...this.open.entries().map(([key, id]) => [key, id] as const),
        ...this.claimable.entries().map(([key, a]) => [key, a.attempt] as const),
      ];
      for (const [key, id] of keys) if (this.turn(id) === turn) this.end(key, 'turn-end');
    }
    if (this.latest.size > 0) for (const [key, id] of this.latest.entries()) if (this.turn(id) === turn) this.latest.delete(key);
  }

  /** Chunk seqs of an attempt, ascending. */
  chunksOf(id: number): number[] {
    const out: number[] = [];
    const last = this.lastOf[id];
    for (let seq = this.firstOf[id]; seq <= last; seq++) if (this.attemptOf.get(seq) === id) out.push(seq);
    return out;
  }

  private end(key: number, why: AttemptEnd): void {
    // A finished stream still waits for its message; whatever closes the step settles it for good.
    const id = this.open.get(key) ?? this.claimable.get(key)?.attempt;
    if (id !== undefined && (this.endOf[id] === 0 || this.endOf[id] === END_CODE.finish)) this.endOf[id] = END_CODE[why];
    this.open.delete(key);
    this.claimable.delete(key);
    if (key === this.streamKey) this.stream(NO_KEY, -1, undefined);
  }
}

/** `old`'s first `used` values copied into `into`. */
function grown<T extends Int32Array | Float64Array | Uint32Array | Uint8Array>(old: T, used: number, into: T): T {
  into.set(old.subarray(0, used) as any);
  return into;
}
