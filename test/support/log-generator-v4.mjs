// The v4 mode of the project's log generator (log-generator.mjs): realistic dsh v4 sessions (format
// generation 4, what dsh 0.1.7 / 0.2.x writes) of any size, deterministic from a seed, valid under the
// core's v4 restore. Plain ESM JavaScript like its sibling, for the benchmarks, the end-to-end scripts
// and the unit tests (types in log-generator-v4.d.mts).
//
// Each log is a fork: a seeded child whose inherited prefix (a few turns of its parent) ends inside an
// open turn, closed by the fork's closers (`forked-tool-result-…`, `turn/end {kind:'forked'}`) after
// the `session/end-seed {inherited: true}` marker. Turns then carry what v4 writes: the protected
// `system/message` head (replaced when the prompt changes), producer-owned sources (`runtime-context`,
// `skill-catalog`, `compact-checkpoint`), request headers with tool schemas (one deferred) and a
// `developer/message` adding that tool, assistant messages with their embedded `stream`, a failed
// model call kept as `assistant/attempt` with its retry, tool-role `tool/result`s, PTC dispatches,
// hooks, pruner rewrites (`compaction/prune` + a replacing result that keeps every field but its
// content) and manual compactions whose checkpoint replaces `{op:'replace', startSeq, endSeq}` all
// the surface after the head but the last turns.
//
//   V4ScaleLogGenerator          the generator (run() until params.targetEvents)
//   scaleV4LogText(options)      a whole log as text, like scaleLogText (sizes of SCALE_PARAMS)
import { SCALE_PARAMS, ScaleLogGenerator } from './log-generator.mjs';
import {
  CHECKPOINT_PREAMBLE,
  FORK_TEXT,
  MODEL,
  MODEL_SOURCE,
  PROVIDER,
  rangeEncoded,
  SYSTEM_PROMPTS,
  TOOLS,
} from './log-generator-v4-parts.mjs';

export class V4ScaleLogGenerator {
  constructor(name, params, seed) {
    this.name = name;
    this.params = params;
    // The v0 generator lends its prose and its PRNG: the same phrases, tokens and ids.
    this.prose = new ScaleLogGenerator(name, params, seed);
    this.rnd = this.prose.rnd;
    this.lines = [];
    this.seq = 0;
    this.time = 1_790_000_000_000;
    this.turn = 0;
    this.step = 0;
    this.calls = 0;
    /** The surface: { seq, turn, result? (a tool/result's data), pruned? }. */
    this.surface = [];
    this.head = undefined;
    this.headerSeq = undefined;
    this.prompt = 0;
    this.stats = { turns: 0, compactions: 0, prunes: 0, attempts: 0, developer: 0, systemReplacements: 0, toolResults: 0, forkClosers: 0 };
    this.header = {
      type: 'session',
      version: 4,
      id: `bench-v4-${name}`,
      createdAt: this.time,
      cwd: '/tmp/bench-cwd',
      parentSession: `bench-v4-${name}-parent`,
      isSeeded: true,
      delegationDepth: 0,
    };
    this.headerLine = JSON.stringify(this.header);
    this.inheritedEventCount = undefined;
  }

  tick(lo = 0, hi = 40) {
    return (this.time += this.rnd.int(lo, hi));
  }

  emit(type, data, meta = {}) {
    const event = { type, seq: this.seq++, time: this.tick(), data };
    if (meta.surfaceOp !== undefined) event.surfaceOp = meta.surfaceOp;
    if (meta.sourceEventSeqs !== undefined) event.sourceEventSeqs = rangeEncoded(meta.sourceEventSeqs);
    this.lines.push(JSON.stringify(event));
    if (meta.surfaceOp === 'append')
      this.surface.push({ seq: event.seq, turn: this.turn, result: type === 'tool/result' ? data : undefined });
    return event.seq;
  }

  /** Replaces surface nodes [i, j] by the event about to be written. */
  replace(type, data, i, j, sources) {
    const span = this.surface.slice(i, j + 1);
    const seq = this.emit(type, data, {
      surfaceOp: { op: 'replace', startSeq: span[0].seq, endSeq: span[span.length - 1].seq },
      sourceEventSeqs: sources,
    });
    // A rewritten result keeps its turn: a later compaction cuts by turn and must not part it from its call.
    const turn = type === 'tool/result' ? span[0].turn : this.turn;
    this.surface.splice(i, j - i + 1, { seq, turn, result: type === 'tool/result' ? data : undefined });
    return seq;
  }

  // ------------------------------------------------------------------------------------ messages
  user(text, source = { kind: 'user' }) {
    return { content: [{ type: 'text', text }], source, role: 'user', id: this.prose.id() };
  }

  /** An assistant message with its stream embedded (v2+): block records, packed deltas, usage, finish. */
  assistant(blocks, finish) {
    const stream = [];
    let time = this.tick(100, 900);
    blocks.forEach((block, index) => {
      stream.push({ type: 'chunk', time, chunk: { type: 'block-start', index, blockType: block.type } });
      const pieces = this.prose.tokens(block.type === 'tool-call' ? block.arguments : block.text);
      const dt = pieces.slice(1).map(() => this.rnd.int(0, 3));
      if (block.type === 'tool-call')
        stream.push({ type: 'tool-call-chunks', time0: time, index, dt, id: block.id, name: block.name, args: pieces });
      else stream.push({ type: `${block.type}-chunks`, time0: time, index, dt, texts: pieces });
      time += dt.reduce((a, b) => a + b, 0);
      stream.push({ type: 'chunk', time, chunk: { type: 'block-end', index, block } });
    });
    const usage = { inputTokens: this.rnd.int(100, 4000), outputTokens: this.rnd.int(5, 400), totalTokens: 0 };
    usage.totalTokens = usage.inputTokens + usage.outputTokens;
    stream.push(
      { type: 'chunk', time, chunk: { type: 'usage', usage } },
      { type: 'chunk', time, chunk: { type: 'finish', reason: { kind: finish } } },
    );
    this.time = time;
    const message = { role: 'assistant', content: blocks, source: MODEL_SOURCE, id: this.prose.id() };
    return this.emit('assistant/message', { turn: this.turn, step: this.step, message, usage, stream }, { surfaceOp: 'append' });
  }

  /** A model call that failed before its message: the attempt's stream, then the retry that follows. */
  failedAttempt() {
    const time = this.tick();
    const failure = { message: 'upstream overloaded', code: 'OVERLOADED' };
    this.emit('assistant/attempt', {
      turn: this.turn,
      step: this.step,
      stream: [{ type: 'chunk', time, chunk: { type: 'finish', reason: { kind: 'error', failure } } }],
    });
    const retryId = this.prose.id();
    this.emit('llm/retry', {
      retryId,
      turn: this.turn,
      step: this.step,
      provider: PROVIDER,
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
    return {
      type: 'tool-call',
      id: `call_${String(this.calls % 100).padStart(2, '0')}_${this.rnd.hex(20)}_${name}`,
      name,
      arguments: JSON.stringify(args),
    };
  }

  toolCall(block) {
    return this.emit('tool/call', { turn: this.turn, step: this.step, callId: block.id, name: block.name, arguments: block.arguments });
  }

  toolResult(block, callSeq, text, isError = false) {
    const message = {
      id: this.prose.id(),
      role: 'tool',
      toolCallId: block.id,
      isError,
      source: { kind: 'tool', callId: block.id },
      content: [{ type: 'text', text }],
    };
    this.stats.toolResults++;
    return this.emit('tool/result', { turn: this.turn, step: this.step, message }, { surfaceOp: 'append', sourceEventSeqs: [callSeq] });
  }

  stepStart() {
    this.step += 1;
    this.emit('step/start', { turn: this.turn, step: this.step });
  }

  stepEnd() {
    this.emit('step/end', { turn: this.turn, step: this.step });
  }

  // ------------------------------------------------------------------------------------------ turns
  turnStart() {
    const p = this.prose.prompt();
    this.turn += 1;
    this.step = 0;
    const prompt = this.user(p.text, { kind: 'user', rpcId: `rpc-${this.turn}` });
    this.emit('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [prompt] });
    this.emit('turn/start', { turn: this.turn });
    this.emit('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] });
    this.maybePrune();
    this.stepStart();
    if (this.head === undefined) {
      this.head = this.emit('system/message', this.system(SYSTEM_PROMPTS[0]), { surfaceOp: 'append' });
    }
    const promptSeq = this.emit('user/message', prompt, { surfaceOp: 'append' });
    if (this.turn === 1 || this.rnd.chance(0.3)) this.runtimeContext();
    if (this.turn === 1)
      this.emit('session/title', {
        title: p.text.split(' ').slice(0, 6).join(' '),
        messageSeqs: [promptSeq],
        source: { kind: 'fallback' },
      });
    if (this.turn === 1 || this.rnd.chance(0.04)) this.requestHeader();
    return p;
  }

  system(text) {
    return {
      turn: this.turn,
      step: this.step,
      message: { role: 'system', content: [{ type: 'text', text }], source: { kind: 'system-prompt' }, id: this.prose.id() },
    };
  }

  runtimeContext() {
    const sections = [
      { name: 'sandbox:policy', text: 'Current DSH file policy: workspace-write.' },
      { name: 'approval:policy', text: 'Approval policy: ask.' },
    ];
    const text = `Current runtime context.\n\n${sections.map((s) => s.text).join('\n\n')}`;
    this.emit('user/message', this.user(text, { kind: 'runtime-context', form: 'snapshot', sections }), { surfaceOp: 'append' });
  }

  /** A request header (tools, one deferred); a changed prompt replaces the head first; a developer message adds the deferred tool. */
  requestHeader() {
    if (this.turn > 1 && this.rnd.chance(0.5)) {
      const at = this.surface.findIndex((node) => node.seq === this.head);
      this.head = this.replace('system/message', this.system(SYSTEM_PROMPTS[(this.prompt = 1 - this.prompt)]), at, at, [this.head]);
      this.stats.systemReplacements++;
    }
    const header = {
      config: { provider: PROVIDER, model: MODEL, maxTokens: 256000, reasoningEffort: 'high' },
      adapterDefaults: { reasoningEffort: true, maxTokens: true },
      tools: TOOLS,
    };
    this.headerSeq = this.emit('request/header', { header, reason: this.turn === 1 ? 'initial' : 'change' });
    this.emit('request/context', { provider: PROVIDER, model: MODEL, contextWindow: 1000000, systemPromptUpdate: 'in-history' });
    const message = {
      role: 'developer',
      content: [{ type: 'tool-addition', toolName: 'web_fetch' }],
      source: { kind: 'tool-discovery' },
      id: this.prose.id(),
    };
    this.emit('developer/message', { turn: this.turn, step: this.step, headerSeq: this.headerSeq, message }, { surfaceOp: 'append' });
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
    this.emit('turn/end', { turn: this.turn, reason: { kind: 'completed' } });
    this.stats.turns++;
  }

  toolTurn(rounds) {
    for (let round = 0; round < rounds; round++) {
      const name = this.rnd.pick(['bash', 'read', 'edit']);
      const args = name === 'bash' ? { command: 'npm test', description: 'Run the tests' } : { file_path: 'src/index.ts' };
      const block = this.call(name, args);
      this.assistant(this.rnd.chance(0.7) ? [this.prose.reasoning(), block] : [block], 'tool-calls');
      const callSeq = this.toolCall(block);
      if (this.rnd.chance(0.2)) {
        this.emit('hook/invoked', {
          turn: this.turn,
          point: 'PreToolUse',
          dialect: 'claude-code',
          handlerId: 'claude-code:PreToolUse:1',
          matcher: name,
        });
        this.emit('hook/result', {
          turn: this.turn,
          point: 'PreToolUse',
          handlerId: 'claude-code:PreToolUse:1',
          decision: 'allow',
          exitCode: 0,
          durationMs: this.rnd.int(1, 9),
        });
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
      const sub = {
        rootCallId: block.id,
        parentCallId: block.id,
        subCallId: `${block.id}:ptc:${k}`,
        name: 'bash',
        arguments: { command: `echo ${k}` },
      };
      this.emit('tool/ptc-dispatch-start', sub);
      this.emit('tool/ptc-dispatch', { ...sub, isError: false, content: [{ type: 'text', text: `${k}\n` }] });
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
    this.emit('compaction/prune', {
      shadowedRange: { start: node.seq, end: node.seq },
      shadowedSeqs: [node.seq],
      shadowedTokenCount: this.rnd.int(400, 2000),
    });
    const data = {
      ...node.result,
      message: { ...node.result.message, content: [{ type: 'text', text: `[pruned tool output of turn ${node.result.turn}]` }] },
    };
    this.replace('tool/result', data, i, i, [node.seq]);
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
    const start = this.emit('compaction/start', { compactionId, turn: null });
    const summary = [{ type: 'text', text: `Turns up to ${keepFrom - 1} summarized. ${this.prose.text(20, 60).text}` }];
    const summarySeq = this.emit('compaction/summary', {
      compactionId,
      summary,
      shadowedRange: { start: span[0], end: span[span.length - 1] },
      shadowedSeqs: span,
      shadowedTokenCount: span.length * this.rnd.int(300, 900),
      provider: PROVIDER,
      model: MODEL,
    });
    const checkpoint = {
      content: [{ type: 'text', text: CHECKPOINT_PREAMBLE }, ...summary, { type: 'text', text: '</compacted-summary>' }],
      source: { kind: 'compact-checkpoint', compactionId },
      role: 'user',
      id: this.prose.id(),
    };
    this.replace('user/message', checkpoint, 1, cut - 1, [start, summarySeq, ...span]);
    this.surface[1].checkpoint = true;
    this.emit('compaction/end', { compactionId, turn: null });
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

  /** What a fork seed appends after its marker: per pending call a forked result, then step/end and turn/end forked. */
  forkClosers([startedBlock, pendingBlock], callSeq) {
    const time = this.time;
    const result = (block, seq, started) => ({
      type: 'tool/result',
      seq,
      time,
      data: {
        turn: this.turn,
        step: this.step,
        message: {
          id: `forked-tool-result-${block.id}-${seq}`,
          role: 'tool',
          toolCallId: block.id,
          isError: true,
          source: { kind: 'tool', callId: block.id },
          content: [{ type: 'text', text: started ? FORK_TEXT.started : FORK_TEXT.notStarted }],
        },
        error: started
          ? { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' }
          : { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' },
      },
      surfaceOp: 'append',
      ...(started ? { sourceEventSeqs: [callSeq] } : {}),
    });
    for (const [block, started] of [
      [startedBlock, true],
      [pendingBlock, false],
    ]) {
      const event = result(block, this.seq++, started);
      this.lines.push(JSON.stringify(event));
      this.surface.push({ seq: event.seq, turn: this.turn, result: event.data });
      this.stats.forkClosers++;
    }
    for (const event of [
      { type: 'step/end', seq: this.seq++, time, data: { turn: this.turn, step: this.step } },
      { type: 'turn/end', seq: this.seq++, time, data: { turn: this.turn, reason: { kind: 'forked' } } },
    ])
      this.lines.push(JSON.stringify(event));
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
