// Realistic dsh v4 logs (format generation 4, what dsh 0.1.7 / 0.2.x writes) of any size, deterministic
// from a seed, valid under the core's v4 restore. They draw the same prose, prompts and ids as the v0
// generator (prose.mjs) and write through the same EventWriter, set to generation 4.
//
// Each log is a fork: a seeded child whose inherited prefix (a few turns of its parent) ends inside an
// open turn, closed by the fork's closers (`forked-tool-result-…`, `turn/end {kind:'forked'}`) after
// the `session/end-seed {inherited: true}` marker. Turns then carry what v4 writes: the protected
// `system/message` head (replaced when the prompt changes), producer-owned sources (`runtime-context`,
// `compact-checkpoint`), request headers with tool schemas (one deferred) and a `developer/message`
// adding that tool, assistant messages with their embedded `stream`, a failed model call kept as
// `assistant/attempt` with its retry, tool-role `tool/result`s, PTC dispatches, hooks, pruner rewrites
// (`compaction/prune` + a replacing result that keeps every field but its content) and manual
// compactions whose checkpoint replaces all the surface after the head but the last turns.
import { chunkRun, EventWriter, headerLine } from './event-writer.mjs';
import { DSH_ROUTE, FORK_TEXT, SYSTEM_PROMPTS, TOOLS } from './dsh-material.mjs';
import { Prose } from './prose.mjs';
import { SCALE_PARAMS } from './scale-v0.mjs';
import * as shape from './shapes.mjs';

const SOURCE_MODEL = shape.modelSource(DSH_ROUTE);

export class V4ScaleLogGenerator {
  constructor(name, params, seed) {
    this.name = name;
    this.params = params;
    this.prose = new Prose(seed);
    this.rnd = this.prose.rnd;
    this.writer = new EventWriter({
      generation: 4,
      time: 1_790_000_000_000,
      advance: () => this.rnd.int(0, 40),
      onEvent: (event) => {
        if (event.surfaceOp === 'append') this.surface.push(this.node(event));
      },
    });
    this.turn = 0;
    this.step = 0;
    this.calls = 0;
    /** The surface: { seq, turn, result? (a tool/result's data), pruned?, checkpoint? }. */
    this.surface = [];
    this.head = undefined;
    this.headerSeq = undefined;
    this.prompt = 0;
    this.stats = { turns: 0, compactions: 0, prunes: 0, attempts: 0, developer: 0, systemReplacements: 0, toolResults: 0, forkClosers: 0 };
    this.header = {
      type: 'session',
      version: 4,
      id: `bench-v4-${name}`,
      createdAt: 1_790_000_000_000,
      cwd: '/tmp/bench-cwd',
      parentSession: `bench-v4-${name}-parent`,
      isSeeded: true,
      delegationDepth: 0,
    };
    this.headerLine = headerLine(this.header);
    /** The seq of the inherited end-seed marker (the fork's cut). */
    this.inheritedEventCount = undefined;
  }

  /** The next seq: after run(), the number of events. */
  get seq() {
    return this.writer.seq;
  }

  /** Event lines, without the header. */
  get lines() {
    return this.writer.lines;
  }

  node(event) {
    return { seq: event.seq, turn: this.turn, result: event.type === 'tool/result' ? event.data : undefined };
  }

  emit(type, data, envelope) {
    return this.writer.event(type, data, envelope);
  }

  /** Moves the clock on without an event (a model call's stream starts a while after the request). */
  wait(lo, hi) {
    return (this.writer.time += this.rnd.int(lo, hi));
  }

  /** Replaces surface nodes [i, j] by the event about to be written. */
  replace(type, data, i, j, sources) {
    const seq = this.writer.replace(type, data, this.surface[i].seq, this.surface[j].seq, sources);
    // A rewritten result keeps its turn: a later compaction cuts by turn and must not part it from its call.
    const node = this.node({ type, seq, data });
    if (type === 'tool/result') node.turn = this.surface[i].turn;
    this.surface.splice(i, j - i + 1, node);
    return seq;
  }

  // ------------------------------------------------------------------------------------ messages
  user(text, source = { kind: 'user' }) {
    return shape.userMessage(text, source, this.prose.id());
  }

  /** An assistant message with its stream embedded (v2+): block records, packed deltas, usage, finish. */
  assistant(blocks, finish) {
    const stream = [];
    let time = this.wait(100, 900);
    blocks.forEach((block, index) => {
      stream.push({ type: 'chunk', time, chunk: { type: 'block-start', index, blockType: block.type } });
      const call = block.type === 'tool-call';
      const pieces = this.prose.tokens(call ? block.arguments : block.text);
      const dt = pieces.slice(1).map(() => this.rnd.int(0, 3));
      const run = call ? { index, dt, id: block.id, name: block.name, args: pieces } : { index, dt, texts: pieces };
      stream.push({ type: `${block.type}-chunks`, time0: time, ...chunkRun(run) });
      time += dt.reduce((a, b) => a + b, 0);
      stream.push({ type: 'chunk', time, chunk: { type: 'block-end', index, block } });
    });
    const usage = { inputTokens: this.rnd.int(100, 4000), outputTokens: this.rnd.int(5, 400), totalTokens: 0 };
    usage.totalTokens = usage.inputTokens + usage.outputTokens;
    stream.push(
      { type: 'chunk', time, chunk: { type: 'usage', usage } },
      { type: 'chunk', time, chunk: { type: 'finish', reason: { kind: finish } } },
    );
    this.writer.time = time;
    const message = shape.assistantMessage(blocks, SOURCE_MODEL, this.prose.id());
    return this.writer.append('assistant/message', shape.assistantData(this.turn, this.step, message, usage, stream));
  }

  /** A model call that failed before its message: the attempt's stream, then the retry that follows. */
  failedAttempt() {
    const time = this.wait(0, 40);
    const failure = { message: 'upstream overloaded', code: 'OVERLOADED' };
    const stream = [{ type: 'chunk', time, chunk: { type: 'finish', reason: { kind: 'error', failure } } }];
    this.emit('assistant/attempt', { turn: this.turn, step: this.step, stream });
    const retryId = this.prose.id();
    this.emit('llm/retry', {
      retryId,
      turn: this.turn,
      step: this.step,
      provider: DSH_ROUTE.provider,
      mode: 'normal',
      policyKey: 'overloaded',
      retry: 1,
      delayMs: 500,
      failure,
      maxRetries: 3,
    });
    this.emit('llm/retry-started', { retryId, turn: this.turn, step: this.step, retry: 1 });
    this.stats.attempts++;
  }

  call(name, args) {
    this.calls++;
    return shape.toolCallBlock(this.prose.callId(this.calls, name), name, JSON.stringify(args));
  }

  toolCall(block) {
    return this.emit('tool/call', shape.toolCallData(this.turn, this.step, block.id, block.name, block.arguments));
  }

  toolResult(block, callSeq, text, isError = false) {
    const message = shape.toolRoleMessage(block.id, text, isError, this.prose.id());
    this.stats.toolResults++;
    return this.writer.append('tool/result', shape.toolResultData(this.turn, this.step, message), [callSeq]);
  }

  stepStart() {
    this.step += 1;
    this.emit('step/start', shape.stepBoundary(this.turn, this.step));
  }

  stepEnd() {
    this.emit('step/end', shape.stepBoundary(this.turn, this.step));
  }

  // ------------------------------------------------------------------------------------------ turns
  turnStart() {
    const p = this.prose.prompt();
    this.turn += 1;
    this.step = 0;
    const prompt = this.user(p.text, { kind: 'user', rpcId: `rpc-${this.turn}` });
    this.emit('agent/inbox/spliced', shape.inboxQueued(prompt));
    this.emit('turn/start', shape.turnStart(this.turn));
    this.emit('agent/inbox/spliced', shape.inboxTaken());
    this.maybePrune();
    this.stepStart();
    if (this.head === undefined) this.head = this.writer.append('system/message', this.system(SYSTEM_PROMPTS[0]));
    const promptSeq = this.writer.append('user/message', prompt);
    if (this.turn === 1 || this.rnd.chance(0.3)) this.runtimeContext();
    if (this.turn === 1) this.emit('session/title', shape.fallbackTitle(p.text, promptSeq));
    if (this.turn === 1 || this.rnd.chance(0.04)) this.requestHeader();
    return p;
  }

  system(text) {
    const message = { role: 'system', content: [{ type: 'text', text }], source: { kind: 'system-prompt' }, id: this.prose.id() };
    return { turn: this.turn, step: this.step, message };
  }

  runtimeContext() {
    const sections = [
      { name: 'sandbox:policy', text: 'Current DSH file policy: workspace-write.' },
      { name: 'approval:policy', text: 'Approval policy: ask.' },
    ];
    const text = `Current runtime context.\n\n${sections.map((s) => s.text).join('\n\n')}`;
    this.writer.append('user/message', this.user(text, { kind: 'runtime-context', form: 'snapshot', sections }));
  }

  /** A request header (tools, one deferred); a changed prompt replaces the head first; a developer message adds the deferred tool. */
  requestHeader() {
    if (this.turn > 1 && this.rnd.chance(0.5)) {
      const at = this.surface.findIndex((node) => node.seq === this.head);
      this.head = this.replace('system/message', this.system(SYSTEM_PROMPTS[(this.prompt = 1 - this.prompt)]), at, at, [this.head]);
      this.stats.systemReplacements++;
    }
    const header = {
      config: { ...DSH_ROUTE, maxTokens: 256000, reasoningEffort: 'high' },
      adapterDefaults: { reasoningEffort: true, maxTokens: true },
      tools: TOOLS,
    };
    this.headerSeq = this.emit('request/header', shape.requestHeader(header, this.turn === 1 ? 'initial' : 'change'));
    this.emit('request/context', { ...DSH_ROUTE, contextWindow: 1000000, systemPromptUpdate: 'in-history' });
    const message = {
      role: 'developer',
      content: [{ type: 'tool-addition', toolName: 'web_fetch' }],
      source: { kind: 'tool-discovery' },
      id: this.prose.id(),
    };
    this.writer.append('developer/message', { turn: this.turn, step: this.step, headerSeq: this.headerSeq, message });
    this.stats.developer++;
  }

  turnOnce() {
    const p = this.turnStart();
    if (this.rnd.chance(0.04)) this.failedAttempt();
    if (p.kind === 'code') this.codeTurn();
    else if (p.kind === 'chat') {
      this.assistant([this.prose.reasoning(), this.prose.text(15, 90)], 'stop');
      this.stepEnd();
    } else this.toolTurn(p.kind === 'read' ? 2 : this.rnd.int(1, 3));
    this.emit('turn/end', shape.turnEnd(this.turn));
    this.stats.turns++;
  }

  toolTurn(rounds) {
    for (let round = 0; round < rounds; round++) {
      const name = this.rnd.pick(['bash', 'read', 'edit']);
      const block = this.call(
        name,
        name === 'bash' ? { command: 'npm test', description: 'Run the tests' } : { file_path: 'src/index.ts' },
      );
      this.assistant(this.rnd.chance(0.7) ? [this.prose.reasoning(), block] : [block], 'tool-calls');
      const callSeq = this.toolCall(block);
      if (this.rnd.chance(0.2)) {
        this.emit('hook/invoked', shape.hookInvoked(this.turn, name));
        this.emit('hook/result', shape.hookResult(this.turn, { decision: 'allow', exitCode: 0, durationMs: this.rnd.int(1, 9) }));
      }
      this.toolResult(block, callSeq, this.prose.words(20, 110).join(' '));
      this.stepEnd();
      this.stepStart();
    }
    this.assistant([this.prose.reasoning(), this.prose.text(20, 80)], 'stop');
    this.stepEnd();
  }

  /** One run_code call whose program dispatches two bash sub-calls (PTC). */
  codeTurn() {
    const block = this.call('run_code', { code: 'const a = await tools.bash({command: "echo A"});\nreturn a.stdout.text;' });
    this.assistant([this.prose.reasoning(), block], 'tool-calls');
    const callSeq = this.toolCall(block);
    for (const k of [1, 2]) {
      const sub = shape.subCall(block.id, 'ptc', k, { command: `echo ${k}` });
      this.emit('tool/ptc-dispatch-start', sub);
      this.emit('tool/ptc-dispatch', shape.subCallDone(sub, `${k}\n`));
    }
    this.toolResult(block, callSeq, 'captured output\n\nReturn value:\n1+2');
    this.stepEnd();
    this.stepStart();
    this.assistant([{ type: 'text', text: '1+2' }], 'stop');
    this.stepEnd();
  }

  /** Pruner style: compaction/prune, then a replacing tool-role result that changes only its content. */
  maybePrune() {
    if (this.turn % this.params.pruneEvery !== 0) return;
    const candidates = this.surface.map((node, i) => [node, i]).filter(([node]) => node.result && !node.pruned);
    if (candidates.length === 0) return;
    const [node, i] = this.rnd.pick(candidates);
    this.emit('compaction/prune', shape.pruneData(node.seq, this.rnd.int(400, 2000)));
    this.replace('tool/result', shape.prunedToolRoleResult(node.result, `[pruned tool output of turn ${node.result.turn}]`), i, i, [
      node.seq,
    ]);
    this.surface[i].pruned = true;
    this.stats.prunes++;
  }

  /** Manual /compact between turns: the checkpoint replaces every node after the head but the last turns. */
  maybeCompact() {
    if (this.turn % this.params.compactEvery !== 0) return;
    const keepFrom = this.turn - this.params.keepTurns + 1;
    let cut = this.surface.findIndex((node, i) => i > 0 && node.turn >= keepFrom && !node.checkpoint);
    if (cut < 0) cut = this.surface.length;
    if (cut <= 1) return;
    const span = this.surface.slice(1, cut).map((node) => node.seq);
    const compactionId = this.prose.id();
    const start = this.emit('compaction/start', shape.compactionBoundary(compactionId));
    const summary = [{ type: 'text', text: `Turns up to ${keepFrom - 1} summarized. ${this.prose.text(20, 60).text}` }];
    const summarySeq = this.emit(
      'compaction/summary',
      shape.compactionSummary({
        compactionId,
        summary,
        start: span[0],
        end: span[span.length - 1],
        shadowedSeqs: span,
        shadowedTokenCount: span.length * this.rnd.int(300, 900),
        route: DSH_ROUTE,
      }),
    );
    const source = { kind: 'compact-checkpoint', compactionId };
    this.replace('user/message', shape.checkpointMessage({ summary, source, id: this.prose.id() }), 1, cut - 1, [
      start,
      summarySeq,
      ...span,
    ]);
    this.surface[1].checkpoint = true;
    this.emit('compaction/end', shape.compactionBoundary(compactionId));
    this.stats.compactions++;
  }

  // -------------------------------------------------------------------------------------------- fork
  /** The parent's prefix this child inherits: a closed turn, then a turn cut after an assistant called two tools and one started. */
  inheritedPrefix() {
    this.emit('permission/preset', { preset: 'workspace-write' });
    this.emit('sandbox/mode', { mode: 'workspace-write' });
    this.emit('approval/policy', { policy: 'ask' });
    this.turnOnce();
    this.turnStart();
    const blocks = [this.call('bash', { command: 'git status' }), this.call('read', { file_path: 'README.md' })];
    this.assistant([this.prose.reasoning(), ...blocks], 'tool-calls');
    const started = this.toolCall(blocks[0]);
    this.inheritedEventCount = this.emit('session/end-seed', { inherited: true });
    this.forkClosers(blocks, started);
  }

  /** What a fork seed appends after its marker, all in one instant: per pending call a forked result, then step/end and turn/end forked. */
  forkClosers([startedBlock, pendingBlock], callSeq) {
    const time = this.writer.time;
    for (const [block, started] of [
      [startedBlock, true],
      [pendingBlock, false],
    ]) {
      const id = `forked-tool-result-${block.id}-${this.seq}`;
      const message = shape.toolRoleMessage(block.id, started ? FORK_TEXT.started : FORK_TEXT.notStarted, true, id);
      const error = started
        ? { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' }
        : { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' };
      const data = shape.toolResultData(this.turn, this.step, message, { error });
      this.writer.closerAt(time, 'tool/result', data, started ? [callSeq] : undefined);
      this.stats.forkClosers++;
    }
    this.writer.eventAt(time, 'step/end', shape.stepBoundary(this.turn, this.step));
    this.writer.eventAt(time, 'turn/end', shape.turnEnd(this.turn, { kind: 'forked' }));
  }

  run() {
    this.inheritedPrefix();
    while (this.seq < this.params.targetEvents) {
      this.turnOnce();
      this.maybeCompact();
      if (this.turn % 50 === 0)
        this.emit('session-log-deepseek/delivery-accepted', {
          sessionId: this.header.id,
          sessionFormatVersion: 4,
          throughSeq: this.seq - 1,
        });
    }
    return this;
  }
}

/**
 * A whole v4 log as text, with the same size names and seed rule as scaleLogText. Returns the
 * generator too (its stats, surface and inherited cut).
 */
export function scaleV4LogText({ size = '10k', params = {}, seed = 1, name = size } = {}) {
  const merged = { ...SCALE_PARAMS[size], ...params };
  const generator = new V4ScaleLogGenerator(name, merged, seed * 1000 + merged.targetEvents).run();
  return { text: generator.headerLine + '\n' + generator.lines.join('\n') + '\n', generator };
}
