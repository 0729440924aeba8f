// The one generator of dsh v0 session logs for this project's unit tests, end-to-end tests and
// benchmarks. Plain ESM JavaScript with no dependencies, so the benchmarks and the end-to-end scripts run
// it on Node 20 as is and the unit tests bundle it (types in log-generator.d.mts). Everything is
// deterministic: the same arguments give the same bytes.
//
//   headerLine(fields)        the session header in the writer's key order (spec §1.3)
//   ScaleLogGenerator         realistic logs of any size from a seeded PRNG: turns shaped like the real dsh
//                             fixtures (inbox splices, packed chunk rows, tool calls, hooks), manual
//                             compactions and pruner rewrites, checked against the surface rules as written
//   scaleLogText(options)     a whole ScaleLogGenerator log as text (the benchmark logs use SCALE_PARAMS)
//   TurnLogBuilder            simple uniform turns (prompt, tool call and result, answer), line by line,
//                             for sample sessions and appending to a live log
//   writeGeneratedLog(file)   streams uniform turns to a file until it reaches an event count or a size
// The unit tests' LogBuilder (test/support/build-log.ts) builds hand-shaped logs event by event on top of
// headerLine, keeping its own model of what the log means.
// Its v4 mode, realistic sessions in dsh's format generation 4, is log-generator-v4.mjs (scaleV4LogText).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { SYSTEM_PROMPTS, TOOLS } from './log-generator-v4-parts.mjs';

/** The request tools of a v0 log: real schemas (v0 has no deferred tools). */
const V0_TOOLS = TOOLS.filter((tool) => !tool.deferLoading);

/**
 * The header line in the writer's key order (spec §1.3); fields left undefined are omitted, so tests
 * can build headers dsh refuses. The defaults make a valid header.
 */
export function headerLine(fields = {}) {
  const line = {
    type: 'session',
    version: fields.version ?? 0,
    id: fields.id ?? 'test-session',
    createdAt: fields.createdAt ?? 1_786_000_000_000,
  };
  if (fields.cwd !== undefined) line.cwd = fields.cwd;
  if (fields.parentSession !== undefined) line.parentSession = fields.parentSession;
  if (fields.seedLength !== undefined) line.seedLength = fields.seedLength;
  if (fields.origin !== undefined) line.origin = fields.origin;
  line.delegationDepth = fields.delegationDepth ?? 0;
  if (fields.agentPreset !== undefined) line.agentPreset = fields.agentPreset;
  return JSON.stringify(line);
}

// ----------------------------------------------------------------------------------------------- PRNG
/** mulberry32: small, fast, good enough for test data. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    hex: (n) => {
      let s = '';
      for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(next() * 16)];
      return s;
    },
  };
}

// ------------------------------------------------------------------------------------ realistic logs
/** Same shape of parameters as the reference generator (shared/conformance/scale/PARAMS.json). */
export const SCALE_PARAMS = {
  '10k': { targetEvents: 10_000, compactEvery: 10, keepTurns: 2, pruneEvery: 3 },
  '100k': { targetEvents: 100_000, compactEvery: 25, keepTurns: 3, pruneEvery: 5 },
  '300k': { targetEvents: 300_000, compactEvery: 1000, keepTurns: 200, pruneEvery: 7 },
};

const PROVIDER = 'deepseek-official';
const MODEL = 'deepseek-v4-flash';
const SOURCE_MODEL = { kind: 'model', provider: PROVIDER, model: MODEL };
const CHECKPOINT_PREAMBLE =
  'This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context. ' +
  'Treat the captured context as established background and build on it without restating it. ' +
  'Continue the task directly from the messages that follow, without acknowledging this checkpoint.\n\n<compacted-summary>';
const RUNTIME_CONTEXT =
  'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n' +
  'Current DSH file policy: danger-full-access. The DSH file sandbox does not restrict file modifications by available operations.\n\n' +
  'Approval prompts are disabled in this session: actions that require approval are rejected automatically — do not request sandbox escalation (do not set `sandbox_permissions`).';
const WORDS = (
  'the a to of and in is it that for on with as this file tool result run read write edit test check output ' +
  'command value line error user step turn model session log event chunk surface compaction summary request header ' +
  'function return const let if else while loop array object string number buffer frame stream parse decode encode ' +
  'verify report change update patch diff build bundle module import export type interface class method field index'
).split(' ');
const FILES = ['src/index.ts', 'src/core/log.ts', 'README.md', 'package.json', 'test/log.test.ts', 'a.txt', 'b.txt', 'docs/notes.md'];

export class ScaleLogGenerator {
  constructor(name, params, seed) {
    this.name = name;
    this.params = params;
    this.rnd = prng(seed);
    this.phrases = [];
    for (let i = 0; i < 300; i++) {
      const phrase = [];
      for (let k = this.rnd.int(4, 12); k > 0; k--) phrase.push(this.rnd.pick(WORDS));
      this.phrases.push(phrase);
    }
    this.lines = [];
    this.seq = 0;
    this.time = 1786000000000;
    this.turn = 0;
    this.step = 0;
    this.openTurn = null;
    this.openStep = null;
    this.pendingCalls = new Map(); // callId -> tool/call seq (this step)
    /** The surface: { seq, type, turn, calls (assistant tool-call blocks), data (tool/result data) }. */
    this.surface = [];
    this.stats = { turns: 0, compactions: 0, prunes: 0, packedRows: 0, replaces: 0, steps: 0, toolCalls: 0 };
    this.header = {
      type: 'session',
      version: 0,
      id: `bench-scale-${name}`,
      createdAt: this.time,
      cwd: '/tmp/bench-cwd',
      delegationDepth: 0,
    };
    this.headerLine = headerLine(this.header);
  }

  tick(lo = 0, hi = 40) {
    this.time += this.rnd.int(lo, hi);
    return this.time;
  }

  id() {
    const h = this.rnd.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /**
   * n words of prose. Mostly whole phrases from a fixed pool (agents repeat themselves, and tool output
   * repeats across turns), so the text compresses about as well as real logs do.
   */
  words(lo, hi) {
    const n = this.rnd.int(lo, hi);
    const out = [];
    while (out.length < n) {
      if (this.rnd.chance(0.85)) out.push(...this.rnd.pick(this.phrases));
      else out.push(this.rnd.pick(WORDS));
    }
    out.length = n;
    return out;
  }

  // ------------------------------------------------------------------------------------ writing + checks
  fail(message) {
    throw new Error(`generator self-check failed at seq ${this.seq} (${this.name}): ${message}`);
  }

  /** Appends one event after checking it against the surface rules; returns its seq. */
  emit(type, data, meta = {}) {
    const ev = { type, seq: this.seq, time: this.tick(), data };
    if (meta.sourceEventSeqs) ev.sourceEventSeqs = meta.sourceEventSeqs;
    if (meta.surfaceOp) ev.surfaceOp = meta.surfaceOp;
    this.check(ev);
    this.lines.push(JSON.stringify(ev));
    this.seq++;
    return ev.seq;
  }

  /** Appends a packed chunk row of `members` chunk events (≥ 3); returns [first, last] seq. */
  emitRow(tag, data, members) {
    if (members < 3) this.fail(`packed row with ${members} members`);
    const dt = [];
    for (let i = 1; i < members; i++) dt.push(this.rnd.int(0, 3) === 0 ? this.rnd.int(20, 60) : this.rnd.int(0, 1));
    // key order as the writer emits it: turn, step, index, dt, then texts / id, name, args
    const { turn, step, index, ...rest } = data;
    const row = { type: tag, seq0: this.seq, time0: this.tick(), data: { turn, step, index, dt, ...rest } };
    this.time += dt.reduce((a, b) => a + b, 0);
    if (this.openTurn !== turn || this.openStep !== step) this.fail('chunk row outside its step');
    this.lines.push(JSON.stringify(row));
    this.seq += members;
    this.stats.packedRows++;
    return [row.seq0, this.seq - 1];
  }

  check(ev) {
    const eligible = ev.type === 'user/message' || ev.type === 'assistant/message' || ev.type === 'tool/result';
    if (!eligible && (ev.surfaceOp !== undefined || ev.sourceEventSeqs !== undefined)) this.fail(`${ev.type} carries surface metadata`);
    if (eligible && ev.surfaceOp === undefined) this.fail(`${ev.type} lacks surfaceOp`);
    const src = ev.sourceEventSeqs;
    if (src) {
      if (src.length === 0 && ev.type !== 'assistant/message') this.fail('empty sourceEventSeqs');
      const seen = new Set();
      for (const s of src) {
        if (!Number.isSafeInteger(s) || s < 0 || s >= ev.seq) this.fail(`sourceEventSeqs entry ${s} not earlier than ${ev.seq}`);
        if (seen.has(s)) this.fail(`duplicate sourceEventSeqs entry ${s}`);
        seen.add(s);
      }
    }
    // relational bookkeeping (spec §3 invariant companion)
    switch (ev.type) {
      case 'turn/start':
        if (this.openTurn !== null || ev.data.turn !== this.turn + 1) this.fail('turn/start out of order');
        this.openTurn = this.turn = ev.data.turn;
        this.step = 0;
        break;
      case 'turn/end':
        if (this.openTurn !== ev.data.turn || this.openStep !== null) this.fail('turn/end out of order');
        this.openTurn = null;
        this.stats.turns++;
        break;
      case 'step/start':
        if (this.openTurn !== ev.data.turn || this.openStep !== null || ev.data.step !== this.step + 1)
          this.fail('step/start out of order');
        this.openStep = this.step = ev.data.step;
        this.pendingCalls.clear();
        this.stats.steps++;
        break;
      case 'step/end':
        if (this.openStep !== ev.data.step || this.pendingCalls.size) this.fail('step/end with an open call or wrong step');
        this.openStep = null;
        break;
      case 'compaction/start':
      case 'compaction/summary':
      case 'compaction/end':
        if (ev.data.turn === null && this.openTurn !== null) this.fail('manual compaction inside a turn');
        break;
      default:
    }
    if (!eligible) return;
    const node = {
      seq: ev.seq,
      type: ev.type,
      turn: ev.type === 'user/message' ? (this.openTurn ?? this.turn) : ev.data.turn,
      calls: 0,
      data: undefined,
    };
    if (ev.type === 'assistant/message') node.calls = ev.data.message.content.filter((b) => b.type === 'tool-call').length;
    if (ev.type === 'tool/result') node.data = ev.data;
    if (ev.surfaceOp === 'append') {
      if (ev.type === 'tool/result') {
        const callId = ev.data.message.source.callId;
        if (!this.pendingCalls.has(callId) || src?.[0] !== this.pendingCalls.get(callId))
          this.fail(`tool/result for ${callId} does not answer a pending tool/call`);
        this.pendingCalls.delete(callId);
      }
      this.surface.push(node);
      return;
    }
    const { op, start, end } = ev.surfaceOp;
    if (op !== 'replace') this.fail('bad surfaceOp');
    const i = this.surface.findIndex((n) => n.seq === start);
    const j = this.surface.findIndex((n) => n.seq === end);
    if (i < 0 || j < 0 || i > j) this.fail(`replace endpoints ${start}..${end} not on the surface in order`);
    const shadowed = this.surface.slice(i, j + 1);
    const cover = new Set(src ?? []);
    for (const n of shadowed) if (!cover.has(n.seq)) this.fail(`replace misses shadowed seq ${n.seq}`);
    if (ev.type === 'tool/result') {
      if (shadowed.length !== 1 || shadowed[0].type !== 'tool/result') this.fail('tool/result replace must rewrite one tool/result');
      const blank = (d) =>
        JSON.stringify({
          ...d,
          message: { ...d.message, content: [{ ...d.message.content[0], content: null }, ...d.message.content.slice(1)] },
        });
      if (blank(shadowed[0].data) !== blank(ev.data)) this.fail('tool/result replace changes more than content');
    } else {
      if (!this.balancedBefore(i) || !this.balancedBefore(j + 1)) this.fail(`replace ${start}..${end} splits a tool-call/result pair`);
    }
    this.surface.splice(i, j - i + 1, node);
    this.stats.replaces++;
  }

  /** Tool-pairing balance of the cut before surface position k (spec §6.3). */
  balancedBefore(k) {
    let open = 0;
    for (let p = 0; p < k; p++) {
      const n = this.surface[p];
      if (n.type === 'assistant/message') open += n.calls;
      else if (n.type === 'tool/result') open -= 1;
      if (open < 0) this.fail(`tool/result ${n.seq} has no matching call`);
    }
    return open === 0;
  }

  // ------------------------------------------------------------------------------------------ pieces
  /**
   * Splits text into stream deltas the way a model streams tokens: deterministically (the same text
   * always gives the same tokens), short words joined, long words in pieces.
   */
  tokens(text) {
    const out = [];
    let token = '';
    for (const piece of text.match(/\s*[^\s]*/g)) {
      for (let p = 0; p < piece.length; p += 10) {
        token += piece.slice(p, p + 10);
        if (token.length >= 5) {
          out.push(token);
          token = '';
        }
      }
    }
    if (token || !out.length) out.push(token);
    return out;
  }

  chunk(chunk) {
    return this.emit('assistant/chunk', { turn: this.turn, step: this.step, chunk });
  }

  /** One content block streamed: block-start, deltas (packed when ≥ 3), block-end. Returns the block. */
  streamBlock(index, block) {
    this.chunk({ type: 'block-start', index, blockType: block.type });
    if (block.type === 'tool-call') {
      const args = this.tokens(block.arguments);
      if (args.length >= 3) {
        this.emitRow('tool-call-chunks', { turn: this.turn, step: this.step, index, id: block.id, name: block.name, args }, args.length);
      } else {
        for (const a of args) this.chunk({ type: 'tool-call-delta', index, id: block.id, name: block.name, argumentsDelta: a });
      }
    } else {
      const texts = this.tokens(block.text);
      const tag = block.type === 'reasoning' ? 'reasoning-chunks' : 'text-chunks';
      if (texts.length >= 3) this.emitRow(tag, { turn: this.turn, step: this.step, index, texts }, texts.length);
      else for (const t of texts) this.chunk({ type: block.type === 'reasoning' ? 'reasoning-delta' : 'text-delta', index, text: t });
    }
    this.chunk({ type: 'block-end', index, block });
    return block;
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
    const message = { role: 'assistant', content: blocks, source: SOURCE_MODEL, id: this.id() };
    return this.emit(
      'assistant/message',
      { turn: this.turn, step: this.step, message, usage },
      { sourceEventSeqs: sources, surfaceOp: 'append' },
    );
  }

  toolCall(block) {
    const seq = this.emit('tool/call', {
      turn: this.turn,
      step: this.step,
      callId: block.id,
      name: block.name,
      arguments: block.arguments,
    });
    this.pendingCalls.set(block.id, seq);
    this.stats.toolCalls++;
    return seq;
  }

  toolResult(block, callSeq, text, { isError = false, meta } = {}) {
    const message = {
      source: { kind: 'tool', callId: block.id },
      content: [{ type: 'tool-result', toolCallId: block.id, content: [{ type: 'text', text }], isError }],
      role: 'user',
      id: this.id(),
    };
    const data = { turn: this.turn, step: this.step, message };
    if (meta) data.meta = meta;
    return this.emit('tool/result', data, { sourceEventSeqs: [callSeq], surfaceOp: 'append' });
  }

  callId(name) {
    return `call_${String(this.stats.toolCalls % 100).padStart(2, '0')}_${this.rnd.hex(20)}_${name}`;
  }

  reasoning() {
    return { type: 'reasoning', text: this.words(10, 50).join(' ') + '.' };
  }

  text(lo = 8, hi = 60) {
    const w = this.words(lo, hi);
    w[0] = w[0][0].toUpperCase() + w[0].slice(1);
    return { type: 'text', text: w.join(' ') + '.' };
  }

  stepStart() {
    this.emit('step/start', { turn: this.turn, step: this.step + 1 });
  }

  stepEnd() {
    this.emit('step/end', { turn: this.turn, step: this.step });
  }

  // ------------------------------------------------------------------------------------------ turns
  prompt() {
    const kind = this.rnd.next();
    if (kind < 0.15)
      return {
        kind: 'code',
        text: `Using ONE run_code program: call the bash tool twice — exactly \`echo ${this.words(1, 1)[0].toUpperCase()}_ONE\` then exactly \`echo ${this.words(1, 1)[0].toUpperCase()}_TWO\`. Return the two outputs joined with a plus sign. Reply with that joined string only and stop.`,
      };
    if (kind < 0.35)
      return {
        kind: 'bash',
        text: `Use the bash tool to run exactly: echo ${this.words(1, 1)[0].toUpperCase()}${this.rnd.int(1, 999)}. Report the tool result you got back verbatim, then stop.`,
      };
    if (kind < 0.55)
      return {
        kind: 'read',
        text: `Use the read tool twice in the same assistant message: read ${this.rnd.pick(FILES)} and ${this.rnd.pick(FILES)}. Then reply DONE.`,
      };
    if (kind < 0.8)
      return {
        kind: 'edit',
        text: `Open ${this.rnd.pick(FILES)}, ${this.words(6, 20).join(' ')}, then run the tests and summarize what changed.`,
      };
    return { kind: 'chat', text: `${this.text(10, 40).text} Explain briefly.` };
  }

  turnOnce() {
    const p = this.prompt();
    const turn = this.turn + 1;
    const userMessage = { content: [{ type: 'text', text: p.text }], source: { kind: 'user' }, role: 'user', id: `${this.id()}~t${turn}` };
    this.emit('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [userMessage] });
    this.emit('turn/start', { turn });
    this.emit('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] });
    this.maybePrune();
    this.stepStart();
    const promptSeq = this.emit('user/message', userMessage, { surfaceOp: 'append' });
    if (turn === 1 || this.rnd.chance(0.3)) {
      this.emit(
        'user/message',
        {
          content: [{ type: 'text', text: RUNTIME_CONTEXT }],
          source: {
            kind: 'plugin',
            plugin: '@deepseek-ai/dsh-system-prompt',
            form: 'snapshot',
            sections: [
              { name: 'sandbox:policy', text: RUNTIME_CONTEXT.split('\n\n')[1] },
              { name: 'approval:policy', text: RUNTIME_CONTEXT.split('\n\n')[2] },
            ],
          },
          role: 'user',
          id: `${this.id()}~t${turn}`,
        },
        { surfaceOp: 'append' },
      );
    }
    if (turn === 1) {
      this.emit('session/title', {
        title: p.text.split(' ').slice(0, 6).join(' '),
        messageSeqs: [promptSeq],
        source: { kind: 'fallback' },
      });
    }
    if (turn === 1 || this.rnd.chance(0.05)) {
      this.emit('request/header', {
        header: { config: { provider: PROVIDER, model: MODEL }, system: SYSTEM_PROMPTS[0], tools: V0_TOOLS },
        reason: turn === 1 ? 'initial' : 'change',
      });
      this.emit('request/context', { provider: PROVIDER, model: MODEL });
    }
    switch (p.kind) {
      case 'code':
        this.codeTurn(p);
        break;
      case 'bash':
        this.bashTurn(p);
        break;
      case 'read':
        this.readTurn();
        break;
      case 'edit':
        this.editTurn();
        break;
      default:
        this.chatTurn();
    }
    this.emit('turn/end', { turn, reason: { kind: 'completed' } });
  }

  /** packed-chunk-rows fixture: reasoning + bash call (sometimes blocked by a hook), then the report. */
  bashTurn(p) {
    const word = p.text.match(/echo (\S+)\./)[1];
    const call = {
      type: 'tool-call',
      id: this.callId('bash'),
      name: 'bash',
      arguments: JSON.stringify({ command: `echo ${word}`, description: `Run echo ${word}` }),
    };
    this.assistant([this.reasoning(), call], 'tool-calls');
    const callSeq = this.toolCall(call);
    const blocked = this.rnd.chance(0.2);
    if (blocked || this.rnd.chance(0.3)) {
      this.emit('hook/invoked', {
        turn: this.turn,
        point: 'PreToolUse',
        dialect: 'claude-code',
        handlerId: 'claude-code:PreToolUse:1',
        matcher: 'bash',
      });
      this.emit(
        'hook/result',
        blocked
          ? {
              turn: this.turn,
              point: 'PreToolUse',
              handlerId: 'claude-code:PreToolUse:1',
              decision: 'block',
              exitCode: 2,
              stderrSummary: 'bash is disabled by policy in this session',
              durationMs: this.rnd.int(1, 9),
            }
          : {
              turn: this.turn,
              point: 'PreToolUse',
              handlerId: 'claude-code:PreToolUse:1',
              decision: 'allow',
              exitCode: 0,
              durationMs: this.rnd.int(1, 9),
            },
      );
    }
    this.toolResult(call, callSeq, blocked ? 'Error: bash is disabled by policy in this session' : `${word}\n`, { isError: blocked });
    this.stepEnd();
    this.stepStart();
    this.assistant([this.reasoning(), this.text(10, 50)], 'stop');
    this.stepEnd();
  }

  /** code-mode fixture: one run_code call whose program dispatches two bash sub-calls. */
  codeTurn(p) {
    const words = [...p.text.matchAll(/echo (\w+)/g)].map((m) => m[1]);
    const program =
      `\nconst out1 = await tools.bash({command: "echo ${words[0]}", description: "Print ${words[0]}"});\n` +
      `const out2 = await tools.bash({command: "echo ${words[1]}", description: "Print ${words[1]}"});\n` +
      'console.log("captured output");\nreturn out1.stdout.text.trim() + "+" + out2.stdout.text.trim();\n';
    const call = {
      type: 'tool-call',
      id: this.callId('run_code'),
      name: 'run_code',
      arguments: JSON.stringify({ code: program, description: 'Run two echo commands and join outputs' }),
    };
    this.assistant([this.reasoning(), call], 'tool-calls');
    const callSeq = this.toolCall(call);
    words.forEach((w, k) => {
      const sub = {
        rootCallId: call.id,
        parentCallId: call.id,
        subCallId: `${call.id}:code:${k + 1}`,
        name: 'bash',
        arguments: { command: `echo ${w}`, description: `Print ${w}` },
      };
      this.emit('tool/code-dispatch-start', sub);
      this.emit('tool/code-dispatch', { ...sub, isError: false, content: [{ type: 'text', text: `${w}\n` }] });
    });
    this.toolResult(call, callSeq, `captured output\n\nReturn value:\n${words.join('+')}`);
    this.stepEnd();
    this.stepStart();
    this.assistant([this.reasoning(), { type: 'text', text: words.join('+') }], 'stop');
    this.stepEnd();
  }

  /** parallel-tool-calls fixture: two read calls in one message, two results, then DONE. */
  readTurn() {
    const calls = [0, 1].map(() => {
      const path = this.rnd.pick(FILES);
      return { type: 'tool-call', id: this.callId('read'), name: 'read', arguments: JSON.stringify({ file_path: path }) };
    });
    this.assistant(calls, 'tool-calls');
    const seqs = calls.map((c) => this.toolCall(c));
    calls.forEach((c, k) => {
      const path = JSON.parse(c.arguments).file_path;
      const n = this.rnd.int(2, 16);
      const lines = [];
      for (let i = 1; i <= n; i++) lines.push({ number: i, text: this.words(2, 10).join(' ') });
      const body = lines.map((l) => `${l.number}: ${l.text}`).join('\n');
      this.toolResult(
        c,
        seqs[k],
        `<path>/tmp/bench-cwd/${path}</path>\n<type>file</type>\n<content>\n${body}\n\n(End of file - total ${n} lines)\n</content>`,
        { meta: { path: `/tmp/bench-cwd/${path}`, offset: 1, lines, totalLines: n } },
      );
    });
    this.stepEnd();
    this.stepStart();
    this.assistant([{ type: 'text', text: 'DONE' }], 'stop');
    this.stepEnd();
  }

  /** A longer agentic turn: read, edit, test, then a summary. */
  editTurn() {
    const path = this.rnd.pick(FILES);
    const plan = [
      { name: 'read', args: { file_path: path } },
      { name: 'edit', args: { file_path: path, old_string: this.words(3, 8).join(' '), new_string: this.words(3, 12).join(' ') } },
      { name: 'bash', args: { command: 'npm test', description: 'Run the tests' } },
    ];
    for (const t of plan.slice(0, this.rnd.int(1, 3))) {
      const call = { type: 'tool-call', id: this.callId(t.name), name: t.name, arguments: JSON.stringify(t.args) };
      this.assistant(this.rnd.chance(0.7) ? [this.reasoning(), call] : [call], 'tool-calls');
      const callSeq = this.toolCall(call);
      const out =
        t.name === 'bash'
          ? `> test\n> mocha\n\n  ${this.rnd.int(5, 90)} passing (${this.rnd.int(20, 900)}ms)\n`
          : this.words(20, 110).join(' ');
      this.toolResult(call, callSeq, out);
      this.stepEnd();
      this.stepStart();
    }
    this.assistant([this.reasoning(), this.text(20, 80)], 'stop');
    this.stepEnd();
  }

  chatTurn() {
    this.assistant(this.rnd.chance(0.6) ? [this.reasoning(), this.text(15, 90)] : [this.text(5, 40)], 'stop');
    this.stepEnd();
  }

  /** Pruner style (spec §6.4): compaction/prune, then a tool/result replace changing only the content. */
  maybePrune() {
    if (this.turn === 0 || this.turn % this.params.pruneEvery !== 0) return;
    const candidates = this.surface.filter((n) => n.type === 'tool/result' && !n.pruned);
    if (!candidates.length) return;
    const target = this.rnd.pick(candidates);
    const tokens = this.rnd.int(400, 2000);
    this.emit('compaction/prune', {
      shadowedRange: { start: target.seq, end: target.seq },
      shadowedSeqs: [target.seq],
      shadowedTokenCount: tokens,
    });
    const d = target.data;
    const rewritten = {
      ...d,
      message: {
        ...d.message,
        content: [{ ...d.message.content[0], content: [{ type: 'text', text: `[pruned tool output of turn ${d.turn}]` }] }],
      },
    };
    const seq = this.emit('tool/result', rewritten, {
      sourceEventSeqs: [target.seq],
      surfaceOp: { op: 'replace', start: target.seq, end: target.seq },
    });
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
    if (!this.balancedBefore(cut)) this.fail('compaction cut is not balanced');
    const shadowed = this.surface.slice(0, cut).map((n) => n.seq);
    const compactionId = this.id();
    const n = ++this.stats.compactions;
    const startSeq = this.emit('compaction/start', { compactionId, turn: null });
    const summary = [{ type: 'text', text: `Checkpoint ${n}: turns up to ${keepFrom - 1} summarized. ${this.text(20, 60).text}` }];
    const start = shadowed[0],
      end = shadowed[shadowed.length - 1];
    const summarySeq = this.emit('compaction/summary', {
      compactionId,
      summary,
      shadowedRange: { start, end },
      shadowedSeqs: shadowed,
      shadowedTokenCount: shadowed.length * this.rnd.int(300, 900),
      provider: PROVIDER,
      model: MODEL,
    });
    this.emit(
      'user/message',
      {
        content: [{ type: 'text', text: CHECKPOINT_PREAMBLE }, ...summary, { type: 'text', text: '</compacted-summary>' }],
        source: { kind: 'plugin', plugin: 'compact', compactionId },
        role: 'user',
        id: this.id(),
      },
      { sourceEventSeqs: [startSeq, summarySeq, ...shadowed], surfaceOp: { op: 'replace', start, end } },
    );
    this.surface[0].checkpoint = true;
    this.emit('compaction/end', { compactionId, turn: null });
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
 * Re-reads what was written, independently of the generator's state: every line parses, packed rows are
 * well formed, and seqs run 0, 1, 2, … with no gap once rows are expanded (spec §1.4, §1.5).
 */
export function verifyWritten(name, lines) {
  let expected = 0;
  lines.forEach((line, i) => {
    const record = JSON.parse(line);
    const where = `${name} line ${i + 2}`;
    if ('seq0' in record) {
      const members = record.data.texts ?? record.data.args;
      if (!Array.isArray(members) || members.length < 3 || record.data.dt.length !== members.length - 1)
        throw new Error(`${where}: malformed packed row`);
      if (record.seq0 !== expected) throw new Error(`${where}: row starts at seq ${record.seq0}, expected ${expected}`);
      expected += members.length;
    } else {
      if (record.seq !== expected) throw new Error(`${where}: seq ${record.seq}, expected ${expected}`);
      for (const s of record.sourceEventSeqs ?? []) if (s >= record.seq) throw new Error(`${where}: sourceEventSeqs cites ${s}`);
      expected++;
    }
  });
  return expected;
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

// ------------------------------------------------------------------------------------- uniform turns
/** The header fields of the sample sessions and uniform generated logs. */
export const SAMPLE_HEADER = { createdAt: 1786348800000, cwd: '/home/dev/project', delegationDepth: 0 };

const id = (kind, turn, n) => `${kind}-${String(turn).padStart(6, '0')}-${n}`;

/** Builds event lines for a log; `next*` methods return the JSONL lines (without newlines). */
export class TurnLogBuilder {
  constructor({ startTime = 1786348800000, payloadBytes = 0 } = {}) {
    this.seq = 0;
    this.time = startTime;
    this.turn = 0;
    this.padding = payloadBytes > 0 ? 'x'.repeat(payloadBytes) : '';
  }

  event(type, data, extra = {}) {
    const line = JSON.stringify({ type, seq: this.seq++, time: (this.time += 7), data, ...extra });
    return line;
  }

  /** A whole closed turn (or, with `open`, a turn that stops after the tool call: an agent mid-work). */
  turnLines({ open = false } = {}) {
    const turn = ++this.turn;
    const callId = id('call', turn, 1);
    const lines = [];
    lines.push(this.event('turn/start', { turn }));
    lines.push(this.event('step/start', { turn, step: 1 }));
    lines.push(
      this.event(
        'user/message',
        {
          content: [{ type: 'text', text: `Turn ${turn}: list the files in src and summarise them.` }],
          source: { kind: 'user' },
          role: 'user',
          id: id('user', turn, 1),
        },
        { surfaceOp: 'append' },
      ),
    );
    lines.push(
      this.event('request/header', {
        header: { config: { provider: PROVIDER, model: MODEL } },
        reason: turn === 1 ? 'initial' : 'change',
      }),
    );
    const args = JSON.stringify({ command: 'ls src' });
    lines.push(
      this.event(
        'assistant/message',
        {
          turn,
          step: 1,
          message: {
            role: 'assistant',
            content: [
              { type: 'text', text: 'I will look at the folder first.' },
              { type: 'tool-call', id: callId, name: 'bash', arguments: args },
            ],
            source: { kind: 'model', provider: PROVIDER, model: MODEL },
            id: id('assistant', turn, 1),
          },
          usage: { inputTokens: 120 + turn, outputTokens: 18 },
        },
        { surfaceOp: 'append' },
      ),
    );
    const callSeq = this.seq;
    lines.push(this.event('tool/call', { turn, step: 1, callId, name: 'bash', arguments: args }));
    if (open) return lines;
    lines.push(
      this.event(
        'tool/result',
        {
          turn,
          step: 1,
          message: {
            source: { kind: 'tool', callId },
            content: [
              {
                type: 'tool-result',
                toolCallId: callId,
                content: [{ type: 'text', text: `main.ts\nutil.ts\n${this.padding}` }],
                isError: false,
              },
            ],
            role: 'user',
            id: id('result', turn, 1),
          },
        },
        { sourceEventSeqs: [callSeq], surfaceOp: 'append' },
      ),
    );
    lines.push(this.event('step/end', { turn, step: 1 }));
    lines.push(this.event('step/start', { turn, step: 2 }));
    lines.push(
      this.event(
        'assistant/message',
        {
          turn,
          step: 2,
          message: {
            role: 'assistant',
            content: [{ type: 'text', text: `src has two files: main.ts and util.ts (turn ${turn}).` }],
            source: { kind: 'model', provider: PROVIDER, model: MODEL },
            id: id('assistant', turn, 2),
          },
          usage: { inputTokens: 160 + turn, outputTokens: 14 },
        },
        { surfaceOp: 'append' },
      ),
    );
    lines.push(this.event('step/end', { turn, step: 2 }));
    lines.push(this.event('turn/end', { turn, reason: { kind: 'completed' } }));
    return lines;
  }

  /** The lines that finish a turn left open by `turnLines({ open: true })`. */
  closeOpenTurnLines() {
    const turn = this.turn;
    const callId = id('call', turn, 1);
    return [
      this.event(
        'tool/result',
        {
          turn,
          step: 1,
          message: {
            source: { kind: 'tool', callId },
            content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: 'main.ts\nutil.ts' }], isError: false }],
            role: 'user',
            id: id('result', turn, 1),
          },
        },
        { sourceEventSeqs: [this.seq - 1], surfaceOp: 'append' },
      ),
      this.event('step/end', { turn, step: 1 }),
      this.event('turn/end', { turn, reason: { kind: 'completed' } }),
    ];
  }
}

/**
 * Streams a log to `file` until it has at least `events` events or `bytes` bytes, whichever is given.
 * `payloadBytes` pads each tool result, to reach a size with fewer events. Returns what was written.
 */
export async function writeGeneratedLog(file, { sessionId, events, bytes, payloadBytes = 0, openLastTurn = false }) {
  const out = createWriteStream(file);
  const builder = new TurnLogBuilder({ payloadBytes });
  let written = 0;
  const write = async (text) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(headerLine({ ...SAMPLE_HEADER, id: sessionId }) + '\n');
  let batch = '';
  let batchBytes = 0;
  const enough = () => (events !== undefined && builder.seq >= events) || (bytes !== undefined && written + batchBytes >= bytes);
  while (!enough()) {
    const text = builder.turnLines().join('\n') + '\n';
    batch += text;
    batchBytes += Buffer.byteLength(text);
    if (batchBytes > 1 << 20) {
      await write(batch);
      batch = '';
      batchBytes = 0;
    }
  }
  if (batch) await write(batch);
  if (openLastTurn) await write(builder.turnLines({ open: true }).join('\n') + '\n');
  out.end();
  await once(out, 'finish');
  return { file, events: builder.seq, turns: builder.turn, bytes: written };
}
