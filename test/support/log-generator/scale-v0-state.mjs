// What the realistic v0 generator has written so far — the open turn and step, the calls awaiting their
// results, the surface — learned event by event from the writer and checked against the rules of spec
// §3 the generator relies on (surface metadata, replace endpoints and coverage, tool/result rewrites,
// tool-pairing balance at compaction cuts, turn and step order). It throws on the first violation, so
// a generator bug cannot pass as a benchmark log.

const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result']);

export class WrittenState {
  constructor(name) {
    this.name = name;
    this.turn = 0;
    this.step = 0;
    this.openTurn = null;
    this.openStep = null;
    /** callId → tool/call seq, for the calls of the open step. */
    this.pendingCalls = new Map();
    /** The surface: { seq, type, turn, calls (assistant tool-call blocks), data (tool/result data), pruned?, checkpoint? }. */
    this.surface = [];
    this.stats = { turns: 0, compactions: 0, prunes: 0, packedRows: 0, replaces: 0, steps: 0, toolCalls: 0 };
  }

  fail(seq, message) {
    throw new Error(`generator self-check failed at seq ${seq} (${this.name}): ${message}`);
  }

  row(row) {
    if (this.openTurn !== row.data.turn || this.openStep !== row.data.step) this.fail(row.seq0, 'chunk row outside its step');
    this.stats.packedRows++;
  }

  event(ev) {
    const surface = SURFACE_TYPES.has(ev.type);
    if (!surface && (ev.surfaceOp !== undefined || ev.sourceEventSeqs !== undefined))
      this.fail(ev.seq, `${ev.type} carries surface metadata`);
    if (surface && ev.surfaceOp === undefined) this.fail(ev.seq, `${ev.type} lacks surfaceOp`);
    this.#sources(ev);
    this.#boundaries(ev);
    if (!surface) return;
    const node = {
      seq: ev.seq,
      type: ev.type,
      turn: ev.type === 'user/message' ? (this.openTurn ?? this.turn) : ev.data.turn,
      calls: ev.type === 'assistant/message' ? ev.data.message.content.filter((b) => b.type === 'tool-call').length : 0,
      data: ev.type === 'tool/result' ? ev.data : undefined,
    };
    if (ev.surfaceOp === 'append') this.#append(ev, node);
    else this.#replace(ev, node);
  }

  #sources(ev) {
    const src = ev.sourceEventSeqs;
    if (!src) return;
    if (src.length === 0 && ev.type !== 'assistant/message') this.fail(ev.seq, 'empty sourceEventSeqs');
    const seen = new Set();
    for (const s of src) {
      if (!Number.isSafeInteger(s) || s < 0 || s >= ev.seq) this.fail(ev.seq, `sourceEventSeqs entry ${s} not earlier than ${ev.seq}`);
      if (seen.has(s)) this.fail(ev.seq, `duplicate sourceEventSeqs entry ${s}`);
      seen.add(s);
    }
  }

  /** Turn and step order (the relational rules of spec §3). */
  #boundaries(ev) {
    switch (ev.type) {
      case 'turn/start':
        if (this.openTurn !== null || ev.data.turn !== this.turn + 1) this.fail(ev.seq, 'turn/start out of order');
        this.openTurn = this.turn = ev.data.turn;
        this.step = 0;
        break;
      case 'turn/end':
        if (this.openTurn !== ev.data.turn || this.openStep !== null) this.fail(ev.seq, 'turn/end out of order');
        this.openTurn = null;
        this.stats.turns++;
        break;
      case 'step/start':
        if (this.openTurn !== ev.data.turn || this.openStep !== null || ev.data.step !== this.step + 1)
          this.fail(ev.seq, 'step/start out of order');
        this.openStep = this.step = ev.data.step;
        this.pendingCalls.clear();
        this.stats.steps++;
        break;
      case 'step/end':
        if (this.openStep !== ev.data.step || this.pendingCalls.size) this.fail(ev.seq, 'step/end with an open call or wrong step');
        this.openStep = null;
        break;
      case 'tool/call':
        this.pendingCalls.set(ev.data.callId, ev.seq);
        this.stats.toolCalls++;
        break;
      case 'compaction/start':
      case 'compaction/summary':
      case 'compaction/end':
        if (ev.data.turn === null && this.openTurn !== null) this.fail(ev.seq, 'manual compaction inside a turn');
        break;
      default:
    }
  }

  #append(ev, node) {
    if (ev.type === 'tool/result') {
      const callId = ev.data.message.source.callId;
      if (!this.pendingCalls.has(callId) || ev.sourceEventSeqs?.[0] !== this.pendingCalls.get(callId))
        this.fail(ev.seq, `tool/result for ${callId} does not answer a pending tool/call`);
      this.pendingCalls.delete(callId);
    }
    this.surface.push(node);
  }

  #replace(ev, node) {
    const { op, start, end } = ev.surfaceOp;
    if (op !== 'replace') this.fail(ev.seq, 'bad surfaceOp');
    const i = this.surface.findIndex((n) => n.seq === start);
    const j = this.surface.findIndex((n) => n.seq === end);
    if (i < 0 || j < 0 || i > j) this.fail(ev.seq, `replace endpoints ${start}..${end} not on the surface in order`);
    const shadowed = this.surface.slice(i, j + 1);
    const cover = new Set(ev.sourceEventSeqs ?? []);
    for (const n of shadowed) if (!cover.has(n.seq)) this.fail(ev.seq, `replace misses shadowed seq ${n.seq}`);
    if (ev.type === 'tool/result') {
      if (shadowed.length !== 1 || shadowed[0].type !== 'tool/result')
        this.fail(ev.seq, 'tool/result replace must rewrite one tool/result');
      if (withoutResultContent(shadowed[0].data) !== withoutResultContent(ev.data))
        this.fail(ev.seq, 'tool/result replace changes more than content');
    } else if (!this.balancedBefore(i) || !this.balancedBefore(j + 1)) {
      this.fail(ev.seq, `replace ${start}..${end} splits a tool-call/result pair`);
    }
    this.surface.splice(i, j - i + 1, node);
    this.stats.replaces++;
  }

  /** Whether the tool calls and results before surface position k pair up (spec §6.3). */
  balancedBefore(k) {
    let open = 0;
    for (let p = 0; p < k; p++) {
      const n = this.surface[p];
      if (n.type === 'assistant/message') open += n.calls;
      else if (n.type === 'tool/result') open -= 1;
      if (open < 0) this.fail(n.seq, `tool/result ${n.seq} has no matching call`);
    }
    return open === 0;
  }
}

/** tool/result data with the part a pruner may change blanked out. */
function withoutResultContent(data) {
  const [first, ...rest] = data.message.content;
  return JSON.stringify({ ...data, message: { ...data.message, content: [{ ...first, content: null }, ...rest] } });
}
