// The unit tests' builder of valid dsh v0 session logs, event by event, so the project's own tests need
// no external corpus: header, turns with user/message, assistant/message with tool-call blocks,
// tool/call, tool/result citing its call, packed chunk rows, manual compactions and pruner rewrites.
// Alongside the lines it keeps its own account of what the log means (log-model.mjs). Times advance by
// one millisecond an event and ids count up (`user-1`, `assistant-2`, …), so tests can name both.
import { EventWriter, expandRow, headerLine } from './event-writer.mjs';
import { TEST_ROUTE } from './dsh-material.mjs';
import { LogModel } from './log-model.mjs';
import * as shape from './shapes.mjs';

export const PROVIDER = TEST_ROUTE.provider;
export const MODEL = TEST_ROUTE.model;
const SOURCE_MODEL = shape.modelSource(TEST_ROUTE);

export class LogBuilder {
  #model = new LogModel();
  #writer;
  #turn = 0;
  #openTurn = null;
  #step = 0;
  #openStep = null;
  #ids = 0;

  constructor(header = { cwd: '/work/project' }) {
    this.#writer = new EventWriter({
      lines: [headerLine(header)],
      time: 1_786_000_000_000 - 1,
      onEvent: (event, line) => this.#model.record(event, line),
      onRow: (row, line) => expandRow(row).forEach((member) => this.#model.record(member, line)),
    });
  }

  /** Every line of the file without its newline; index 0 is the header. Tests may edit them. */
  get lines() {
    return this.#writer.lines;
  }

  /** The next event's time; each event advances it by one millisecond unless set explicitly. */
  get time() {
    return this.#writer.time + 1;
  }

  set time(value) {
    this.#writer.time = value - 1;
  }

  get events() {
    return this.#model.events;
  }

  get surface() {
    return this.#model.surface;
  }

  get replacements() {
    return this.#model.replacements;
  }

  get transcript() {
    return this.#model.transcript;
  }

  get lineOf() {
    return this.#model.lineOf;
  }

  get nextSeq() {
    return this.#writer.seq;
  }

  get openTurn() {
    return this.#openTurn;
  }

  get openStep() {
    return this.#openStep;
  }

  get lastTime() {
    return this.events[this.events.length - 1]?.time ?? this.time;
  }

  derivedMessages() {
    return this.#model.derivedMessages();
  }

  balancedCuts() {
    return this.#model.balancedCuts();
  }

  /** A fresh message id, deterministic so tests can name it. */
  newId(prefix = 'msg') {
    this.#ids += 1;
    return `${prefix}-${this.#ids}`;
  }

  // ------------------------------------------------------------------ raw lines and events
  /**
   * Appends one line verbatim (any shape: tests use it for damage). The model does not learn from it
   * and seqs are not advanced, so later builder events keep their own numbering.
   */
  rawLine(text) {
    this.#writer.rawLine(text);
    return this;
  }

  /** Appends an event with the next seq; `extra` holds envelope keys after `data` (sourceEventSeqs, surfaceOp…). */
  event(type, data, extra = {}) {
    return this.#writer.event(type, data, extra);
  }

  // ------------------------------------------------------------------ turns and steps
  turnStart() {
    this.#turn += 1;
    this.#openTurn = this.#turn;
    this.#step = 0;
    this.#openStep = null;
    this.#model.callSeqs.clear();
    return this.event('turn/start', shape.turnStart(this.#turn));
  }

  turnEnd(reason = { kind: 'completed' }) {
    const seq = this.event('turn/end', shape.turnEnd(this.#turn, reason));
    this.#openTurn = null;
    this.#openStep = null;
    this.#model.callSeqs.clear();
    return seq;
  }

  stepStart() {
    this.#step += 1;
    this.#openStep = this.#step;
    return this.event('step/start', shape.stepBoundary(this.#turn, this.#step));
  }

  stepEnd() {
    const seq = this.event('step/end', shape.stepBoundary(this.#turn, this.#step));
    this.#openStep = null;
    this.#model.callSeqs.clear();
    return seq;
  }

  requestHeader(reason = 'initial') {
    return this.event('request/header', shape.requestHeader({ config: { ...TEST_ROUTE } }, reason));
  }

  // ------------------------------------------------------------------ messages
  /** A user/message appended to the surface. */
  user(text, options = {}) {
    const data = shape.userMessage(text, options.source ?? { kind: 'user' }, options.id ?? this.newId('user'));
    return this.#writer.append('user/message', data);
  }

  /**
   * An assistant/message for the open step. With `chunks`, its text is first streamed as a packed
   * text-chunks row and the message cites the row's seqs, as the real writer does.
   */
  assistant(options = {}) {
    const content = [];
    let sources;
    if (options.chunks) {
      sources = this.textChunks(options.chunks);
      content.push({ type: 'text', text: options.chunks.join('') });
    } else if (options.text !== undefined) {
      content.push({ type: 'text', text: options.text });
    }
    for (const call of options.toolCalls ?? []) content.push(shape.toolCallBlock(call.id, call.name ?? 'read', call.arguments ?? '{}'));
    if (options.empty) content.length = 0;
    const message = shape.assistantMessage(content, SOURCE_MODEL, options.id ?? this.newId('assistant'));
    const usage = { inputTokens: 10, outputTokens: 5 };
    return this.#writer.append('assistant/message', shape.assistantData(this.#turn, this.#step, message, usage), sources);
  }

  /** The tool/call that records a call as started. */
  toolCall(callId, name = 'read', args = '{}') {
    return this.event('tool/call', shape.toolCallData(this.#turn, this.#step, callId, name, args));
  }

  /** Builds tool/result data; `content` is the inner result content (the part a pruner may change). */
  toolResultData(callId, text, options = {}) {
    const message = shape.toolResultMessage(callId, text, options.isError ?? false, options.id ?? this.newId('result'));
    return shape.toolResultData(this.#turn, this.#step, message);
  }

  /** A tool/result appended for `callId`, citing its tool/call when one was recorded. */
  toolResult(callId, text, options = {}) {
    const callSeq = this.#model.callSeqs.get(callId);
    return this.#writer.append('tool/result', this.toolResultData(callId, text, options), callSeq === undefined ? undefined : [callSeq]);
  }

  // ------------------------------------------------------------------ packed chunk rows
  /**
   * A packed text-chunks (or reasoning-chunks) row: one line standing for texts.length
   * assistant/chunk events. Returns the member seqs.
   */
  textChunks(texts, options = {}) {
    const tag = options.kind === 'reasoning' ? 'reasoning-chunks' : 'text-chunks';
    const dt = options.dt ?? texts.slice(1).map(() => 1);
    return this.#writer.packedRow(tag, { turn: this.#turn, step: this.#step, index: options.index ?? 0, dt, texts });
  }

  /** A packed tool-call-chunks row (with `name` on every member iff given). Returns the member seqs. */
  toolCallChunks(id, args, options = {}) {
    const dt = options.dt ?? args.slice(1).map(() => 1);
    const run = { turn: this.#turn, step: this.#step, index: options.index ?? 0, dt, id, name: options.name, args };
    return this.#writer.packedRow('tool-call-chunks', run);
  }

  // ------------------------------------------------------------------ compaction
  /**
   * A manual compaction between turns (spec §6.2): compaction/start, compaction/summary, the
   * replacing user/message over surface nodes [start..end] citing the start, the summary and every
   * shadowed node, then compaction/end. Defaults to the whole current surface.
   */
  compact(options = {}) {
    const surface = this.surface;
    const start = options.start ?? surface[0];
    const end = options.end ?? surface[surface.length - 1];
    const shadowed = surface.slice(surface.indexOf(start), surface.indexOf(end) + 1);
    const compactionId = this.newId('compaction');
    const startSeq = this.event('compaction/start', shape.compactionBoundary(compactionId));
    const summary = [{ type: 'text', text: options.summary ?? `summary of ${shadowed.length} nodes` }];
    const summarySeq = this.event(
      'compaction/summary',
      shape.compactionSummary({ compactionId, summary, start, end, shadowedSeqs: shadowed, shadowedTokenCount: 1000, route: TEST_ROUTE }),
    );
    const source = { kind: 'plugin', plugin: 'compact', compactionId };
    const checkpoint = shape.checkpointMessage({ summary, source, id: this.newId('checkpoint'), guidance: false });
    const replaceSeq = this.#writer.replace('user/message', checkpoint, start, end, [startSeq, summarySeq, ...shadowed]);
    this.event('compaction/end', shape.compactionBoundary(compactionId));
    return { replaceSeq, shadowed };
  }

  /**
   * A pruner rewrite (spec §6.4): compaction/prune, then a tool/result replacing the surface
   * tool/result `resultSeq` whose data differs only in message.content[0].content.
   */
  prune(resultSeq, text = '[pruned]') {
    const original = this.events[resultSeq];
    if (original?.type !== 'tool/result') throw new Error(`builder: seq ${resultSeq} is not a tool/result`);
    this.event('compaction/prune', shape.pruneData(resultSeq, 500));
    return this.#writer.replace('tool/result', shape.prunedResult(original.data, text), resultSeq, resultSeq, [resultSeq]);
  }

  // ------------------------------------------------------------------ whole turns
  /** A closed turn: prompt, one step answering with text streamed as a packed row. */
  chatTurn(prompt, answer = ['Hel', 'lo', '!']) {
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
  toolTurn(prompt, calls, answer = 'done') {
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
  text(options = {}) {
    const eol = options.eol ?? '\n';
    return this.lines.map((line) => line + eol).join('') + (options.tornTail ?? '');
  }

  bytes(options = {}) {
    return new TextEncoder().encode(this.text(options));
  }
}

/**
 * A log with a bit of everything: a chat turn, a tool turn, a manual compaction between turns, a
 * turn whose tool/result is pruned, and (optionally) an open final turn for the repair to close.
 */
export function richLog(options = {}) {
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
