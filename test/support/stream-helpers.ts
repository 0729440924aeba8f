// Raw stream events for provenance and invariant tests: the chunk shapes dsh writes (spec §2.2), one
// event per line, in the open turn/step of a LogBuilder, plus an assistant/message with exactly the
// content and citations a test wants (the builder's own helper always writes matching content).
import { loadSession, type SessionLog } from '../../src/core';
import { LogBuilder, MODEL, PROVIDER, type Json, type Rec } from './build-log';

export function load(b: LogBuilder): SessionLog {
  return loadSession(b.bytes());
}

/** The file line of a seq the builder wrote (its lineOf is 0-based with the header at 0). */
export function lineOf(b: LogBuilder, seq: number): number {
  return b.lineOf[seq] + 1;
}

export function chunk(b: LogBuilder, chunkData: Rec): number {
  return b.event('assistant/chunk', { turn: b.openTurn, step: b.openStep, chunk: chunkData });
}

export function blockStart(b: LogBuilder, index: number, blockType: string): number {
  return chunk(b, { type: 'block-start', index, blockType });
}

export function textDelta(b: LogBuilder, index: number, text: string, kind: 'text' | 'reasoning' = 'text'): number {
  return chunk(b, { type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index, text });
}

export function toolDelta(b: LogBuilder, index: number, id: string, argumentsDelta: string, name = 'read'): number {
  return chunk(b, { type: 'tool-call-delta', index, id, name, argumentsDelta });
}

export function blockEnd(b: LogBuilder, index: number, block: Rec): number {
  return chunk(b, { type: 'block-end', index, block });
}

export function finish(b: LogBuilder, reason: Rec): number {
  return chunk(b, { type: 'finish', reason });
}

/** An assistant/message with the given content, citing `sources` (omitted when undefined). */
export function assistantWith(b: LogBuilder, content: Json[], sources: number[] | undefined, extraData: Rec = {}): number {
  const message: Rec = {
    role: 'assistant',
    content,
    source: { kind: 'model', provider: PROVIDER, model: MODEL },
    id: b.newId('assistant'),
  };
  const envelope: Rec = {};
  if (sources !== undefined) envelope.sourceEventSeqs = sources;
  envelope.surfaceOp = 'append';
  return b.event('assistant/message', { turn: b.openTurn, step: b.openStep, message, ...extraData }, envelope);
}

/** Opens turn + step with a prompt, ready for stream events. */
export function openStep(b: LogBuilder, prompt = 'go'): void {
  b.turnStart();
  b.user(prompt);
  b.stepStart();
}

export function closeStep(b: LogBuilder): void {
  b.stepEnd();
  b.turnEnd();
}
