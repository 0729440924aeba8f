// Realistic dsh v0 logs of any size from a seeded PRNG, for the benchmarks and the tests that need a log
// that looks like a real one. Each turn is shaped like a real dsh fixture (shared/fixtures/dsh-real):
// inbox splices around turn/start, the prompt and a runtime-context snapshot, request headers, model
// calls streamed as block-start / deltas (packed rows when ≥ 3) / block-end / usage / finish with the
// assistant/message citing every chunk, tool calls and results, hooks, code-mode dispatches. Between
// turns come manual compactions, inside them pruner rewrites. What is written is checked as it goes
// (scale-v0-state.mjs).
import { EventWriter, headerLine, verifyWritten } from './event-writer.mjs';
import { DSH_ROUTE, RUNTIME_CONTEXT, SYSTEM_PROMPTS, V0_TOOLS } from './dsh-material.mjs';
import { Prose } from './prose.mjs';
import { WrittenState } from './scale-v0-state.mjs';
import { bashTurn, codeTurn, editTurn, readTurn } from './scale-v0-turns.mjs';
import * as shape from './shapes.mjs';

/** Same shape of parameters as the reference generator (shared/conformance/scale/PARAMS.json). */
export const SCALE_PARAMS = {
  '10k': { targetEvents: 10_000, compactEvery: 10, keepTurns: 2, pruneEvery: 3 },
  '100k': { targetEvents: 100_000, compactEvery: 25, keepTurns: 3, pruneEvery: 5 },
  '300k': { targetEvents: 300_000, compactEvery: 1000, keepTurns: 200, pruneEvery: 7 },
};

const SOURCE_MODEL = shape.modelSource(DSH_ROUTE);

export class ScaleLogGenerator {
  constructor(name, params, seed) {
    this.name = name;
    this.params = params;
    this.prose = new Prose(seed);
    this.rnd = this.prose.rnd;
    this.state = new WrittenState(name);
    this.writer = new EventWriter({
      time: 1786000000000,
      advance: () => this.rnd.int(0, 40),
      onEvent: (event) => this.state.event(event),
      onRow: (row) => this.state.row(row),
    });
    this.header = {
      type: 'session',
      version: 0,
      id: `bench-scale-${name}`,
      createdAt: 1786000000000,
      cwd: '/tmp/bench-cwd',
      delegationDepth: 0,
    };
    this.headerLine = headerLine(this.header);
  }

  /** The next seq: after run(), the number of events. */
  get seq() {
    return this.writer.seq;
  }

  /** Event lines (a packed row is one line), without the header. */
  get lines() {
    return this.writer.lines;
  }

  get surface() {
    return this.state.surface;
  }

  get stats() {
    return this.state.stats;
  }

  get turn() {
    return this.state.turn;
  }

  get step() {
    return this.state.step;
  }

  emit(type, data, envelope) {
    return this.writer.event(type, data, envelope);
  }

  append(type, data, sources) {
    return this.writer.append(type, data, sources);
  }

  // ------------------------------------------------------------------------------------------ pieces
  chunk(chunk) {
    return this.emit('assistant/chunk', shape.chunkData(this.turn, this.step, chunk));
  }

  /** One content block streamed: block-start, deltas (packed when ≥ 3, as dsh's writer packs), block-end. */
  streamBlock(index, block) {
    this.chunk({ type: 'block-start', index, blockType: block.type });
    const call = block.type === 'tool-call';
    const pieces = this.prose.tokens(call ? block.arguments : block.text);
    if (pieces.length >= 3) {
      const tag = call ? 'tool-call-chunks' : `${block.type}-chunks`;
      const run = call ? { id: block.id, name: block.name, args: pieces } : { texts: pieces };
      this.writer.packedRow(tag, { turn: this.turn, step: this.step, index, dt: this.rowGaps(pieces.length), ...run });
    } else if (call) {
      for (const a of pieces) this.chunk({ type: 'tool-call-delta', index, id: block.id, name: block.name, argumentsDelta: a });
    } else {
      for (const t of pieces) this.chunk({ type: `${block.type}-delta`, index, text: t });
    }
    this.chunk({ type: 'block-end', index, block });
    return block;
  }

  /** Gaps between streamed deltas: mostly 0–1 ms, now and then a pause. */
  rowGaps(members) {
    const dt = [];
    for (let i = 1; i < members; i++) dt.push(this.rnd.int(0, 3) === 0 ? this.rnd.int(20, 60) : this.rnd.int(0, 1));
    return dt;
  }

  /** A model call: stream the blocks, then the assistant/message citing every chunk of the call. */
  assistant(blocks, finish) {
    const first = this.seq;
    blocks.forEach((b, i) => this.streamBlock(i, b));
    const usage = { inputTokens: this.rnd.int(100, 4000), outputTokens: this.rnd.int(5, 400), cacheReadTokens: this.rnd.int(0, 3000) };
    if (blocks.some((b) => b.type === 'reasoning')) usage.reasoningTokens = this.rnd.int(5, 200);
    this.chunk({ type: 'usage', usage });
    this.chunk({ type: 'finish', reason: { kind: finish } });
    const sources = [];
    for (let s = first; s < this.seq; s++) sources.push(s);
    const message = shape.assistantMessage(blocks, SOURCE_MODEL, this.prose.id());
    return this.append('assistant/message', shape.assistantData(this.turn, this.step, message, usage), sources);
  }

  callBlock(name, args) {
    return shape.toolCallBlock(this.prose.callId(this.stats.toolCalls, name), name, JSON.stringify(args));
  }

  toolCall(block) {
    return this.emit('tool/call', shape.toolCallData(this.turn, this.step, block.id, block.name, block.arguments));
  }

  toolResult(block, callSeq, text, { isError = false, meta } = {}) {
    const message = shape.toolResultMessage(block.id, text, isError, this.prose.id());
    return this.append('tool/result', shape.toolResultData(this.turn, this.step, message, meta ? { meta } : {}), [callSeq]);
  }

  stepStart() {
    this.emit('step/start', shape.stepBoundary(this.turn, this.step + 1));
  }

  stepEnd() {
    this.emit('step/end', shape.stepBoundary(this.turn, this.step));
  }

  // ------------------------------------------------------------------------------------------ turns
  turnOnce() {
    const p = this.prose.prompt();
    const turn = this.turn + 1;
    const prompt = shape.userMessage(p.text, { kind: 'user' }, `${this.prose.id()}~t${turn}`);
    this.emit('agent/inbox/spliced', shape.inboxQueued(prompt));
    this.emit('turn/start', shape.turnStart(turn));
    this.emit('agent/inbox/spliced', shape.inboxTaken());
    this.maybePrune();
    this.stepStart();
    const promptSeq = this.append('user/message', prompt);
    if (turn === 1 || this.rnd.chance(0.3)) this.runtimeContext(turn);
    if (turn === 1) this.emit('session/title', shape.fallbackTitle(p.text, promptSeq));
    if (turn === 1 || this.rnd.chance(0.05)) {
      const header = { config: { ...DSH_ROUTE }, system: SYSTEM_PROMPTS[0], tools: V0_TOOLS };
      this.emit('request/header', shape.requestHeader(header, turn === 1 ? 'initial' : 'change'));
      this.emit('request/context', { ...DSH_ROUTE });
    }
    if (p.kind === 'code') codeTurn(this, p);
    else if (p.kind === 'bash') bashTurn(this, p);
    else if (p.kind === 'read') readTurn(this);
    else if (p.kind === 'edit') editTurn(this);
    else this.chatTurn();
    this.emit('turn/end', shape.turnEnd(turn));
  }

  runtimeContext(turn) {
    const [, sandbox, approval] = RUNTIME_CONTEXT.split('\n\n');
    const source = {
      kind: 'plugin',
      plugin: '@deepseek-ai/dsh-system-prompt',
      form: 'snapshot',
      sections: [
        { name: 'sandbox:policy', text: sandbox },
        { name: 'approval:policy', text: approval },
      ],
    };
    this.append('user/message', shape.userMessage(RUNTIME_CONTEXT, source, `${this.prose.id()}~t${turn}`));
  }

  chatTurn() {
    this.assistant(this.rnd.chance(0.6) ? [this.prose.reasoning(), this.prose.text(15, 90)] : [this.prose.text(5, 40)], 'stop');
    this.stepEnd();
  }

  /** Pruner style (spec §6.4): compaction/prune, then a tool/result replace changing only the content. */
  maybePrune() {
    if (this.turn === 0 || this.turn % this.params.pruneEvery !== 0) return;
    const candidates = this.surface.filter((n) => n.type === 'tool/result' && !n.pruned);
    if (!candidates.length) return;
    const target = this.rnd.pick(candidates);
    this.emit('compaction/prune', shape.pruneData(target.seq, this.rnd.int(400, 2000)));
    const rewritten = shape.prunedResult(target.data, `[pruned tool output of turn ${target.data.turn}]`);
    const seq = this.writer.replace('tool/result', rewritten, target.seq, target.seq, [target.seq]);
    this.surface.find((n) => n.seq === seq).pruned = true;
    this.stats.prunes++;
  }

  /** Manual /compact between turns (spec §6.2): replace every surface node but the last keepTurns turns. */
  maybeCompact() {
    if (this.turn === 0 || this.turn % this.params.compactEvery !== 0) return;
    const keepFrom = this.turn - this.params.keepTurns + 1;
    let cut = this.surface.findIndex((n) => n.turn >= keepFrom && !n.checkpoint);
    if (cut < 0) cut = this.surface.length;
    if (cut === 0) return;
    if (!this.state.balancedBefore(cut)) this.state.fail(this.seq, 'compaction cut is not balanced');
    const shadowed = this.surface.slice(0, cut).map((n) => n.seq);
    const compactionId = this.prose.id();
    const n = ++this.stats.compactions;
    const startSeq = this.emit('compaction/start', shape.compactionBoundary(compactionId));
    const summary = [{ type: 'text', text: `Checkpoint ${n}: turns up to ${keepFrom - 1} summarized. ${this.prose.text(20, 60).text}` }];
    const [start, end] = [shadowed[0], shadowed[shadowed.length - 1]];
    const summarySeq = this.emit(
      'compaction/summary',
      shape.compactionSummary({
        compactionId,
        summary,
        start,
        end,
        shadowedSeqs: shadowed,
        shadowedTokenCount: shadowed.length * this.rnd.int(300, 900),
        route: DSH_ROUTE,
      }),
    );
    const source = { kind: 'plugin', plugin: 'compact', compactionId };
    const checkpoint = shape.checkpointMessage({ summary, source, id: this.prose.id() });
    this.writer.replace('user/message', checkpoint, start, end, [startSeq, summarySeq, ...shadowed]);
    this.surface[0].checkpoint = true;
    this.emit('compaction/end', shape.compactionBoundary(compactionId));
  }

  run() {
    while (this.seq < this.params.targetEvents) {
      this.turnOnce();
      this.maybeCompact();
    }
    return this;
  }
}

/**
 * A whole realistic log as text. `size` names one of SCALE_PARAMS (and the session id); `params` may
 * override its numbers (a small `targetEvents` gives many small logs). The seed defaults to the
 * benchmarks' rule, seed × 1000 + targetEvents, so `scaleLogText({ size: '10k' })` is bench/out's log.
 */
export function scaleLogText({ size = '10k', params = {}, seed = 1, name = size } = {}) {
  const merged = { ...SCALE_PARAMS[size], ...params };
  const generator = new ScaleLogGenerator(name, merged, seed * 1000 + merged.targetEvents).run();
  if (verifyWritten(name, generator.lines) !== generator.seq) throw new Error(`${name}: event count mismatch`);
  return { text: generator.headerLine + '\n' + generator.lines.join('\n') + '\n', generator };
}
