// A small builder of valid dsh v0 session logs, written in code so the project's own tests need no
// external corpus. It builds hand-shaped logs event by event on the shared generator's header line
// (log-generator.mjs, which also writes the realistic and uniform logs of the benchmarks and e2e tests).
// It writes the shapes dsh's writer emits (spec §1.3–§2.4, §5, §6): header, turns with user/message,
// assistant/message with tool-call blocks, tool/call, tool/result citing its call, packed chunk rows,
// manual compactions and pruner rewrites.
//
// Alongside the lines it keeps its OWN model of what the log means (surface, replacements,
// transcript, derived messages, expanded events). That model is written from the spec, not from the
// core, so tests can compare the core against an independent account instead of against itself.
import type { SessionHeader } from '../../src/core/types';
import { headerLine as writerHeaderLine } from './log-generator.mjs';

/** Header fields to write; any may be left out, to build headers dsh refuses. */
export type HeaderFields = Partial<SessionHeader>;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Rec = { [key: string]: Json };

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

export const PROVIDER = 'test-provider';
export const MODEL = 'test-model';

/** The header line in the writer's key order (spec §1.3); `undefined` fields are omitted. */
export function headerLine(fields: HeaderFields = {}): string {
  return writerHeaderLine(fields);
}

export class LogBuilder {
  /** Every line of the file without its newline; index 0 is the header. Tests may edit them. */
  readonly lines: string[];
  /** Current event time; each event advances it by one millisecond unless set explicitly. */
  time = 1_786_000_000_000;

  // --- the builder's own model of the log ---
  /** Expanded events by seq (packed rows expanded the way spec §1.4 describes). */
  readonly events: Rec[] = [];
  /** Surface nodes in model-visible order. */
  readonly surface: number[] = [];
  readonly replacements: ReplacementModel[] = [];
  /** Append-origin surface events in log order (the human transcript). */
  readonly transcript: number[] = [];
  /** Line index (0 = header) of each seq. */
  readonly lineOf: number[] = [];

  private turnNo = 0;
  private openTurnNo: number | null = null;
  private stepNo = 0;
  private openStepNo: number | null = null;
  private ids = 0;
  /** Tool calls opened by an assistant message and not yet answered: callId → tool/call seq. */
  private readonly callSeqs = new Map<string, number | undefined>();

  constructor(header: HeaderFields = { cwd: '/work/project' }) {
    this.lines = [headerLine(header)];
  }

  get nextSeq(): number {
    return this.events.length;
  }

  get openTurn(): number | null {
    return this.openTurnNo;
  }

  get openStep(): number | null {
    return this.openStepNo;
  }

  get lastTime(): number {
    return (this.events[this.events.length - 1]?.time as number) ?? this.time;
  }

  /** The messages the model sees, in surface order (spec §4 projection). */
  derivedMessages(): Rec[] {
    const out: Rec[] = [];
    for (const seq of this.surface) {
      const message = deriveMessage(this.events[seq]);
      if (message) out.push(message);
    }
    return out;
  }

  /**
   * Cuts 0..surface.length where the tool-call/result count is zero (spec §6.3), or the surface seq
   * of the first tool/result that drives the count negative (a compaction split a pair).
   */
  balancedCuts(): { cuts: number[] } | { negativeAt: number } {
    const cuts = [0];
    let open = 0;
    for (const [k, seq] of this.surface.entries()) {
      const event = this.events[seq];
      if (event.type === 'tool/result') open -= 1;
      if (event.type === 'assistant/message') {
        const content = ((event.data as Rec).message as Rec).content as Rec[];
        open += content.filter((b) => b.type === 'tool-call').length;
      }
      if (open < 0) return { negativeAt: seq };
      if (open === 0) cuts.push(k + 1);
    }
    return { cuts };
  }

  /** A fresh message id, deterministic so tests can name it. */
  newId(prefix = 'msg'): string {
    this.ids += 1;
    return `${prefix}-${this.ids}`;
  }

  // ------------------------------------------------------------------ raw lines

  /**
   * Appends one line verbatim (any shape: tests use it for damage). The model does not learn from
   * it and seqs are not advanced, so later builder events keep their own numbering.
   */
  rawLine(text: string): this {
    this.lines.push(text);
    return this;
  }

  /** Appends an event with the next seq; `extra` holds envelope keys after `data` (sourceEventSeqs, surfaceOp…). */
  event(type: string, data: Json, extra: Rec = {}): number {
    const seq = this.nextSeq;
    const event: Rec = { type, seq, time: this.tick(), data, ...extra };
    this.lines.push(JSON.stringify(event));
    this.record(event, this.lines.length - 1);
    return seq;
  }

  private tick(): number {
    const now = this.time;
    this.time += 1;
    return now;
  }

  /** Teaches the model one event that is now in the log. */
  private record(event: Rec, line: number): void {
    this.events.push(event);
    this.lineOf.push(line);
    const op = event.surfaceOp as Json | undefined;
    if (op === 'append') {
      this.surface.push(event.seq as number);
      this.transcript.push(event.seq as number);
    } else if (op && typeof op === 'object' && !Array.isArray(op)) {
      const startIdx = this.surface.indexOf(op.start as number);
      const endIdx = this.surface.indexOf(op.end as number);
      if (startIdx < 0 || endIdx < startIdx) throw new Error(`builder: replace [${op.start}..${op.end}] is not a surface range`);
      const shadowedSeqs = this.surface.splice(startIdx, endIdx - startIdx + 1, event.seq as number);
      this.replacements.push({ seq: event.seq as number, start: op.start as number, end: op.end as number, shadowedSeqs });
    }
    const data = event.data as Rec;
    if (event.type === 'assistant/message') {
      for (const block of (data.message as Rec).content as Rec[])
        if (block.type === 'tool-call') this.callSeqs.set(block.id as string, undefined);
    } else if (event.type === 'tool/call') {
      if (this.callSeqs.has(data.callId as string)) this.callSeqs.set(data.callId as string, event.seq as number);
    } else if (event.type === 'tool/result' && event.surfaceOp === 'append') {
      this.callSeqs.delete(((data.message as Rec).source as Rec).callId as string);
    }
  }

  // ------------------------------------------------------------------ turns and steps

  turnStart(): number {
    this.turnNo += 1;
    this.openTurnNo = this.turnNo;
    this.stepNo = 0;
    this.openStepNo = null;
    this.callSeqs.clear();
    return this.event('turn/start', { turn: this.turnNo });
  }

  turnEnd(reason: Rec = { kind: 'completed' }): number {
    const seq = this.event('turn/end', { turn: this.turnNo, reason });
    this.openTurnNo = null;
    this.openStepNo = null;
    this.callSeqs.clear();
    return seq;
  }

  stepStart(): number {
    this.stepNo += 1;
    this.openStepNo = this.stepNo;
    return this.event('step/start', { turn: this.turnNo, step: this.stepNo });
  }

  stepEnd(): number {
    const seq = this.event('step/end', { turn: this.turnNo, step: this.stepNo });
    this.openStepNo = null;
    this.callSeqs.clear();
    return seq;
  }

  requestHeader(reason = 'initial'): number {
    return this.event('request/header', { header: { config: { provider: PROVIDER, model: MODEL } }, reason });
  }

  // ------------------------------------------------------------------ messages

  /** A user/message appended to the surface (writer key order: content, source, role, id). */
  user(text: string, options: { id?: string; source?: Rec } = {}): number {
    const data: Rec = {
      content: [{ type: 'text', text }],
      source: options.source ?? { kind: 'user' },
      role: 'user',
      id: options.id ?? this.newId('user'),
    };
    return this.event('user/message', data, { surfaceOp: 'append' });
  }

  /**
   * An assistant/message for the open step. With `chunks`, its text is first streamed as a packed
   * text-chunks row and the message cites the row's seqs, as the real writer does.
   */
  assistant(options: { text?: string; toolCalls?: ToolCallSpec[]; chunks?: string[]; id?: string; empty?: boolean } = {}): number {
    const content: Json[] = [];
    let sources: number[] | undefined;
    if (options.chunks) {
      sources = this.textChunks(options.chunks);
      content.push({ type: 'text', text: options.chunks.join('') });
    } else if (options.text !== undefined) {
      content.push({ type: 'text', text: options.text });
    }
    for (const call of options.toolCalls ?? []) {
      content.push({ type: 'tool-call', id: call.id, name: call.name ?? 'read', arguments: call.arguments ?? '{}' });
    }
    if (options.empty) content.length = 0;
    const message: Rec = {
      role: 'assistant',
      content,
      source: { kind: 'model', provider: PROVIDER, model: MODEL },
      id: options.id ?? this.newId('assistant'),
    };
    const extra: Rec = {};
    if (sources) extra.sourceEventSeqs = sources;
    extra.surfaceOp = 'append';
    return this.event(
      'assistant/message',
      { turn: this.turnNo, step: this.stepNo, message, usage: { inputTokens: 10, outputTokens: 5 } },
      extra,
    );
  }

  /** The tool/call that records a call as started. */
  toolCall(callId: string, name = 'read', args = '{}'): number {
    return this.event('tool/call', { turn: this.turnNo, step: this.stepNo, callId, name, arguments: args });
  }

  /** Builds tool/result data; `content` is the inner result content (the part a pruner may change). */
  toolResultData(callId: string, text: string, options: { isError?: boolean; id?: string } = {}): Rec {
    const message: Rec = {
      source: { kind: 'tool', callId },
      content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }], isError: options.isError ?? false }],
      role: 'user',
      id: options.id ?? this.newId('result'),
    };
    return { turn: this.turnNo, step: this.stepNo, message };
  }

  /** A tool/result appended for `callId`, citing its tool/call when one was recorded. */
  toolResult(callId: string, text: string, options: { isError?: boolean } = {}): number {
    const callSeq = this.callSeqs.get(callId);
    const extra: Rec = {};
    if (callSeq !== undefined) extra.sourceEventSeqs = [callSeq];
    extra.surfaceOp = 'append';
    return this.event('tool/result', this.toolResultData(callId, text, options), extra);
  }

  // ------------------------------------------------------------------ packed chunk rows

  /**
   * A packed text-chunks (or reasoning-chunks) row: one line standing for texts.length
   * assistant/chunk events. Returns the member seqs.
   */
  textChunks(texts: string[], options: { dt?: number[]; kind?: 'text' | 'reasoning'; index?: number } = {}): number[] {
    const dt = options.dt ?? texts.slice(1).map(() => 1);
    const tag = options.kind === 'reasoning' ? 'reasoning-chunks' : 'text-chunks';
    const index = options.index ?? 0;
    return this.packedRow(tag, { turn: this.turnNo, step: this.stepNo, index, dt, texts }, texts.length, (k) => ({
      type: options.kind === 'reasoning' ? 'reasoning-delta' : 'text-delta',
      index,
      text: texts[k],
    }));
  }

  /** A packed tool-call-chunks row (with `name` on every member iff given). Returns the member seqs. */
  toolCallChunks(id: string, args: string[], options: { name?: string; dt?: number[]; index?: number } = {}): number[] {
    const dt = options.dt ?? args.slice(1).map(() => 1);
    const index = options.index ?? 0;
    const data: Rec = { turn: this.turnNo, step: this.stepNo, index, id };
    if (options.name !== undefined) data.name = options.name;
    data.dt = dt;
    data.args = args;
    return this.packedRow('tool-call-chunks', data, args.length, (k) => {
      const chunk: Rec = { type: 'tool-call-delta', index, id };
      if (options.name !== undefined) chunk.name = options.name;
      chunk.argumentsDelta = args[k];
      return chunk;
    });
  }

  private packedRow(tag: string, data: Rec, members: number, chunk: (k: number) => Rec): number[] {
    const seq0 = this.nextSeq;
    const time0 = this.tick();
    this.lines.push(JSON.stringify({ type: tag, seq0, time0, data }));
    const line = this.lines.length - 1;
    const dt = data.dt as number[];
    const seqs: number[] = [];
    let time = time0;
    for (let k = 0; k < members; k++) {
      if (k > 0) time += dt[k - 1];
      const event: Rec = { type: 'assistant/chunk', seq: seq0 + k, time, data: { turn: data.turn, step: data.step, chunk: chunk(k) } };
      this.record(event, line);
      seqs.push(seq0 + k);
    }
    // Later events carry on from the last member's time, as a live writer would.
    this.time = Math.max(this.time, time + 1);
    return seqs;
  }

  // ------------------------------------------------------------------ compaction

  /**
   * A manual compaction between turns (spec §6.2): compaction/start, compaction/summary, the
   * replacing user/message over surface nodes [start..end] citing the start, the summary and every
   * shadowed node, then compaction/end. Defaults to the whole current surface.
   */
  compact(options: { start?: number; end?: number; summary?: string } = {}): { replaceSeq: number; shadowed: number[] } {
    const start = options.start ?? this.surface[0];
    const end = options.end ?? this.surface[this.surface.length - 1];
    const shadowed = this.surface.slice(this.surface.indexOf(start), this.surface.indexOf(end) + 1);
    const compactionId = this.newId('compaction');
    const startSeq = this.event('compaction/start', { compactionId, turn: null });
    const summaryText = options.summary ?? `summary of ${shadowed.length} nodes`;
    const summarySeq = this.event('compaction/summary', {
      compactionId,
      summary: [{ type: 'text', text: summaryText }],
      shadowedRange: { start, end },
      shadowedSeqs: shadowed,
      shadowedTokenCount: 1000,
      provider: PROVIDER,
      model: MODEL,
    });
    const checkpoint: Rec = {
      content: [
        {
          type: 'text',
          text: 'This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context.\n\n<compacted-summary>',
        },
        { type: 'text', text: summaryText },
        { type: 'text', text: '</compacted-summary>' },
      ],
      source: { kind: 'plugin', plugin: 'compact', compactionId },
      role: 'user',
      id: this.newId('checkpoint'),
    };
    const replaceSeq = this.event('user/message', checkpoint, {
      sourceEventSeqs: [startSeq, summarySeq, ...shadowed],
      surfaceOp: { op: 'replace', start, end },
    });
    this.event('compaction/end', { compactionId, turn: null });
    return { replaceSeq, shadowed };
  }

  /**
   * A pruner rewrite (spec §6.4): compaction/prune, then a tool/result replacing the surface
   * tool/result `resultSeq` whose data differs only in message.content[0].content.
   */
  prune(resultSeq: number, text = '[pruned]'): number {
    const original = this.events[resultSeq];
    if (original?.type !== 'tool/result') throw new Error(`builder: seq ${resultSeq} is not a tool/result`);
    this.event('compaction/prune', {
      shadowedRange: { start: resultSeq, end: resultSeq },
      shadowedSeqs: [resultSeq],
      shadowedTokenCount: 500,
    });
    const data = JSON.parse(JSON.stringify(original.data)) as Rec;
    ((data.message as Rec).content as Rec[])[0].content = [{ type: 'text', text }];
    return this.event('tool/result', data, {
      sourceEventSeqs: [resultSeq],
      surfaceOp: { op: 'replace', start: resultSeq, end: resultSeq },
    });
  }

  // ------------------------------------------------------------------ whole turns

  /** A closed turn: prompt, one step answering with text streamed as a packed row. */
  chatTurn(prompt: string, answer: string[] = ['Hel', 'lo', '!']): void {
    this.turnStart();
    this.user(prompt);
    this.stepStart();
    this.requestHeader();
    this.assistant({ chunks: answer });
    this.stepEnd();
    this.turnEnd();
  }

  /**
   * A closed turn with tool use: step 1 calls `calls` (each recorded by tool/call and answered by a
   * tool/result citing it), step 2 answers with text. Returns the tool/result seqs.
   */
  toolTurn(prompt: string, calls: string[], answer = 'done'): number[] {
    this.turnStart();
    this.user(prompt);
    this.stepStart();
    this.requestHeader();
    for (const [index, id] of calls.entries()) this.toolCallChunks(id, ['{"pa', 'th":', '"a"}'], { name: 'read', index });
    this.assistant({ toolCalls: calls.map((id) => ({ id, name: 'read', arguments: '{"path":"a"}' })) });
    for (const id of calls) this.toolCall(id, 'read', '{"path":"a"}');
    const results = calls.map((id) => this.toolResult(id, `contents for ${id}`));
    this.stepEnd();
    this.stepStart();
    this.assistant({ text: answer });
    this.stepEnd();
    this.turnEnd();
    return results;
  }

  // ------------------------------------------------------------------ output

  /** The file text: every line newline-terminated (`eol` lets tests write CRLF). */
  text(options: { eol?: string; tornTail?: string } = {}): string {
    const eol = options.eol ?? '\n';
    return this.lines.map((line) => line + eol).join('') + (options.tornTail ?? '');
  }

  bytes(options: { eol?: string; tornTail?: string } = {}): Uint8Array {
    return new TextEncoder().encode(this.text(options));
  }
}

/** What the model sees of one event (spec §4), or null. */
export function deriveMessage(event: Rec): Rec | null {
  const data = event.data as Rec;
  switch (event.type) {
    case 'user/message':
      return data;
    case 'assistant/message': {
      const message = data.message as Rec;
      return (message.content as Json[]).length === 0 ? null : message;
    }
    case 'tool/result':
      return data.message as Rec;
    default:
      return null;
  }
}

/**
 * A log with a bit of everything: a chat turn, a tool turn, a manual compaction between turns, a
 * turn whose tool/result is pruned, and (optionally) an open final turn for the repair to close.
 */
export function richLog(options: { openTail?: 'none' | 'recorded-call' | 'unrecorded-call' | 'open-step' } = {}): LogBuilder {
  const b = new LogBuilder();
  b.chatTurn('hello');
  b.toolTurn('read two files', ['call-a', 'call-b']);
  b.compact();
  b.turnStart();
  b.user('read once more');
  b.stepStart();
  b.assistant({ toolCalls: [{ id: 'call-c' }] });
  b.toolCall('call-c');
  const result = b.toolResult('call-c', 'a long result that the pruner will shorten');
  b.prune(result, '[pruned]');
  b.stepEnd();
  b.turnEnd();
  const tail = options.openTail ?? 'none';
  if (tail !== 'none') {
    b.turnStart();
    b.user('and now crash');
    b.stepStart();
    if (tail !== 'open-step') {
      b.assistant({ toolCalls: [{ id: 'call-d' }] });
      if (tail === 'recorded-call') b.toolCall('call-d');
    }
  }
  return b;
}
