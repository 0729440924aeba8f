// The compact timed stream of one assistant attempt, as v2 stores it in `assistant/message.data.stream`
// and `assistant/attempt.data.stream` (dsh's AssistantStreamRecord list). Consecutive deltas of one kind
// and one block index become one run `{type, time0, index, dt, texts}` (tool-call deltas of one call:
// `{type, time0, index, dt, id, name?, args}`), each member's time being `time0` plus the gaps before
// it; every other chunk stays whole as `{type: 'chunk', time, chunk}`. Token boundaries are kept: a
// run holds the fragments, never their concatenation, so the original chunks can be rebuilt exactly.
import { SessionFormatError } from '../errors';
import { isJsonObject, isLosslessJson, jsonString, templateString, type JsonObject } from '../json';

export type StreamRecord = JsonObject;

interface OpenRecord {
  record: StreamRecord;
  /** The time of the record's last member, which the next member's gap is measured from. */
  lastTime: number;
}

const TEXT_RUNS: Readonly<Record<string, string>> = { 'text-delta': 'text-chunks', 'reasoning-delta': 'reasoning-chunks' };
const RAW_CHUNK_TYPES: ReadonlySet<string> = new Set(['block-start', 'block-end', 'usage', 'finish']);

/** Builds one attempt's records from its chunk events and packed chunk rows, in stream order. */
export class AttemptStreamBuilder {
  private readonly open: OpenRecord[] = [];

  /** One `assistant/chunk` event's chunk at its time. Throws with dsh's wording on a chunk dsh cannot pack. */
  addChunk(time: unknown, chunkValue: unknown): void {
    if (!Number.isSafeInteger(time))
      throw new SessionFormatError(`Assistant stream time must be a safe integer, got ${templateString(time)}`);
    const at = time as number;
    if (!isLosslessJson(chunkValue)) throw new SessionFormatError('Assistant stream chunk must be losslessly JSON-serializable');
    if (!isJsonObject(chunkValue)) throw new SessionFormatError(unreachableChunk(chunkValue));
    const chunk = chunkValue;
    const kind = chunk.type;
    if (kind === 'text-delta' || kind === 'reasoning-delta') {
      requireIndex(chunk.index, kind);
      if (typeof chunk.text !== 'string') throw new SessionFormatError(`${kind} text must be a string`);
      this.addTextMember(TEXT_RUNS[kind], chunk.index as number, at, chunk.text);
    } else if (kind === 'tool-call-delta') {
      requireIndex(chunk.index, kind);
      if (typeof chunk.id !== 'string') throw new SessionFormatError('tool-call-delta id must be a string');
      if (Object.hasOwn(chunk, 'name') && typeof chunk.name !== 'string')
        throw new SessionFormatError('tool-call-delta name must be a string');
      if (typeof chunk.argumentsDelta !== 'string') throw new SessionFormatError('tool-call-delta argumentsDelta must be a string');
      // A delta without a call id (or with an empty name) cannot key a run: it stays a raw chunk.
      if (chunk.id.length === 0 || chunk.name === '') this.addRaw(at, chunk);
      else this.addToolMember(chunk, at);
    } else if (typeof kind === 'string' && RAW_CHUNK_TYPES.has(kind)) {
      this.addRaw(at, chunk);
    } else {
      throw new SessionFormatError(unreachableChunk(chunk));
    }
  }

  /**
   * One packed chunk row's run (v0/v1 `text-chunks`, `reasoning-chunks`, `tool-call-chunks`), already
   * in record form. It continues the previous run when kind, index (and call) agree.
   */
  addPackedRun(run: StreamRecord, lastTime: number): void {
    const previous = this.open[this.open.length - 1];
    const members = run.type === 'tool-call-chunks' ? 'args' : 'texts';
    if (previous && previous.record.type === run.type && previous.record.index === run.index) {
      const gap = (run.time0 as number) - previous.lastTime;
      const sameCall = run.type !== 'tool-call-chunks' || (previous.record.id === run.id && previous.record.name === run.name);
      if (Number.isSafeInteger(gap) && sameCall) {
        const dt = previous.record.dt as number[];
        dt.push(gap);
        for (const value of run.dt as number[]) dt.push(value);
        const target = previous.record[members] as string[];
        for (const value of run[members] as string[]) target.push(value);
        previous.lastTime = lastTime;
        return;
      }
    }
    this.open.push({ record: { ...run, dt: [...(run.dt as number[])], [members]: [...(run[members] as string[])] }, lastTime });
  }

  /** The records so far (the builder keeps growing them; take them once the attempt is settled). */
  records(): StreamRecord[] {
    return this.open.map((entry) => entry.record);
  }

  private addRaw(time: number, chunk: JsonObject): void {
    this.open.push({ record: { type: 'chunk', time, chunk }, lastTime: time });
  }

  private addTextMember(type: string, index: number, time: number, text: string): void {
    const previous = this.open[this.open.length - 1];
    if (previous && previous.record.type === type && previous.record.index === index && isSafeGap(previous.lastTime, time)) {
      (previous.record.dt as number[]).push(time - previous.lastTime);
      (previous.record.texts as string[]).push(text);
      previous.lastTime = time;
      return;
    }
    this.open.push({ record: { type, time0: time, index, dt: [], texts: [text] }, lastTime: time });
  }

  private addToolMember(chunk: JsonObject, time: number): void {
    const previous = this.open[this.open.length - 1];
    const named = Object.hasOwn(chunk, 'name');
    if (
      previous &&
      previous.record.type === 'tool-call-chunks' &&
      previous.record.index === chunk.index &&
      previous.record.id === chunk.id &&
      Object.hasOwn(previous.record, 'name') === named &&
      previous.record.name === chunk.name &&
      isSafeGap(previous.lastTime, time)
    ) {
      (previous.record.dt as number[]).push(time - previous.lastTime);
      (previous.record.args as string[]).push(chunk.argumentsDelta as string);
      previous.lastTime = time;
      return;
    }
    const record: StreamRecord = { type: 'tool-call-chunks', time0: time, index: chunk.index, dt: [], id: chunk.id };
    if (named) record.name = chunk.name;
    record.args = [chunk.argumentsDelta];
    this.open.push({ record, lastTime: time });
  }
}

function requireIndex(value: unknown, kind: string): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0 || Object.is(value, -0))
    throw new SessionFormatError(`${kind} index must be a non-negative safe integer`);
}

function isSafeGap(previous: number, next: number): boolean {
  const gap = next - previous;
  return Number.isSafeInteger(gap) && previous + gap === next;
}

/** dsh's words for a chunk of no known type. */
function unreachableChunk(chunk: unknown): string {
  return `unreachable variant in AssistantStreamAccumulator.push: ${jsonString(chunk) ?? templateString(chunk)}`;
}
