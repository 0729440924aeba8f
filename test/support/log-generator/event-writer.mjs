// How a line of a dsh session log is written. This is the one place in the project's log generator that
// decides it, so hand-built unit-test logs, the committed samples and the benchmarks' logs cannot drift
// apart: the header, the event envelope and its key order, seqs and times, surface markers and source
// citations as each format generation spells them, and packed chunk rows (written and expanded).

/** Where the format generations spell a line differently (spec v1–v4, "what changed"). */
const RANGE_ENCODED_SOURCES_FROM = 2; // runs of ≥ 3 consecutive sourceEventSeqs written as [start, end]
const EMBEDDED_STREAMS_FROM = 2; // chunks live in assistant/message.data.stream: no packed rows
const REPLACE_SEQ_NAMES_FROM = 3; // {op:'replace', startSeq, endSeq} instead of {op, start, end}

/**
 * The header line in the writer's key order (spec §1.3; `isSeeded`, v2+, where the v2+ header has it).
 * Fields left undefined are omitted, so tests can build headers dsh refuses; the defaults make a valid one.
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
  if (fields.isSeeded !== undefined) line.isSeeded = fields.isSeeded; // v2+ (instead of seedLength)
  if (fields.origin !== undefined) line.origin = fields.origin;
  line.delegationDepth = fields.delegationDepth ?? 0;
  if (fields.agentPreset !== undefined) line.agentPreset = fields.agentPreset;
  return JSON.stringify(line);
}

/**
 * Writes event lines with consecutive seqs. Each event is stamped `time += advance()`: a fixed step for
 * the hand-built and sample logs, a seeded random gap for the benchmarks' logs.
 */
export class EventWriter {
  /**
   * @param options.generation  the format generation whose spelling the lines use (0 = v0)
   * @param options.seq         the seq of the first event (a writer continuing a log starts past 0)
   * @param options.time        the clock before the first event
   * @param options.lines       the array the lines go to (a builder may keep its header line at index 0)
   * @param options.onEvent     called with each event once its line is written (`line`: that line's index;
   *                            sourceEventSeqs as given, not range-encoded): builders learn the log from it
   * @param options.onRow       the same for each packed chunk row
   */
  constructor({ generation = 0, seq = 0, time = 0, advance = () => 1, lines = [], onEvent, onRow } = {}) {
    this.generation = generation;
    this.time = time;
    this.advance = advance;
    this.lines = lines;
    this.onEvent = onEvent;
    this.onRow = onRow;
    /** The seq of the next event. */
    this.seq = seq;
  }

  /** Appends an event at the next tick; returns its seq. */
  event(type, data, envelope = {}) {
    return this.eventAt((this.time += this.advance()), type, data, envelope);
  }

  /**
   * Appends an event stamped `time` (events a writer emits in one instant share it). `envelope` holds
   * the keys after `data`: sourceEventSeqs and surfaceOp in dsh's writer order, then any others as
   * given (tests add unknown or damaged keys).
   */
  eventAt(time, type, data, envelope = {}) {
    // dsh writes sourceEventSeqs before surfaceOp (spec §2.1), except on the system/message head, whose
    // replacement names its op first (the real v3 sample and every head replacement in conformance-v3).
    return this.#write(time, type, data, envelope, type === 'system/message');
  }

  /**
   * A surface event dsh itself appends to close a call left without its result (crash repair, a fork's
   * seed), stamped `time`. Its closer code names surfaceOp first (the real repaired v0 fixture).
   */
  closerAt(time, type, data, sources) {
    return this.#write(time, type, data, { sourceEventSeqs: sources, surfaceOp: 'append' }, true);
  }

  #write(time, type, data, envelope, opFirst) {
    const { sourceEventSeqs, surfaceOp, ...rest } = envelope;
    const event = { type, seq: this.seq, time, data };
    if (opFirst && surfaceOp !== undefined) event.surfaceOp = surfaceOp;
    if (sourceEventSeqs !== undefined) event.sourceEventSeqs = sourceEventSeqs;
    if (!opFirst && surfaceOp !== undefined) event.surfaceOp = surfaceOp;
    Object.assign(event, rest);
    const written =
      this.generation >= RANGE_ENCODED_SOURCES_FROM && sourceEventSeqs !== undefined
        ? { ...event, sourceEventSeqs: rangeEncoded(sourceEventSeqs) }
        : event;
    this.lines.push(JSON.stringify(written));
    this.seq += 1;
    this.onEvent?.(event, this.lines.length - 1);
    return event.seq;
  }

  /** A surface event appended to the model's view; `sources` are the seqs it cites. */
  append(type, data, sources) {
    return this.event(type, data, { sourceEventSeqs: sources, surfaceOp: 'append' });
  }

  /** A surface event replacing the surface nodes `start`..`end`, citing `sources` (which must cover them). */
  replace(type, data, start, end, sources) {
    const surfaceOp =
      this.generation >= REPLACE_SEQ_NAMES_FROM ? { op: 'replace', startSeq: start, endSeq: end } : { op: 'replace', start, end };
    return this.event(type, data, { sourceEventSeqs: sources, surfaceOp });
  }

  /**
   * A packed chunk row (spec §1.4): one line standing for `texts.length` (or `args.length`)
   * assistant/chunk events, the first at the next tick, each later one `dt` after the one before.
   * Returns the member seqs. Later events carry on from the last member's time, as a live writer does.
   */
  packedRow(tag, { turn, step, ...stream }) {
    if (this.generation >= EMBEDDED_STREAMS_FROM) throw new Error(`format v${this.generation} has no packed chunk rows`);
    const time0 = (this.time += this.advance());
    const row = { type: tag, seq0: this.seq, time0, data: { turn, step, ...chunkRun(stream) } };
    this.lines.push(JSON.stringify(row));
    const seqs = (row.data.args ?? row.data.texts).map((_, k) => row.seq0 + k);
    this.seq += seqs.length;
    this.time = Math.max(time0, time0 + row.data.dt.reduce((sum, gap) => sum + gap, 0));
    this.onRow?.(row, this.lines.length - 1);
    return seqs;
  }

  /** Appends a line verbatim (tests write damage this way); seqs do not advance. */
  rawLine(text) {
    this.lines.push(text);
  }

  /** The lines written since the last take, for builders that hand lines out turn by turn. */
  take() {
    return this.lines.splice(0);
  }
}

/**
 * The fields of a run of chunk deltas in dsh's key order (what its v0 writer and its v1→v2 migration
 * write, tool-call runs with `dt` before `id`): index, dt, then texts, or id, name?, args. A packed
 * row's data puts turn and step first; a v2+ embedded stream record puts type and time0 first.
 */
export function chunkRun({ index, dt, id, name, texts, args }) {
  if (args === undefined) return { index, dt, texts };
  const run = { index, dt, id };
  if (name !== undefined) run.name = name;
  run.args = args;
  return run;
}

/**
 * The assistant/chunk events a packed row stands for (spec §1.4): member k has seq0 + k, time0 plus the
 * first k gaps, and the delta of its text or argument piece; `name` on every member iff on the row.
 */
export function expandRow({ type, seq0, time0, data }) {
  const pieces = type === 'tool-call-chunks' ? data.args : data.texts;
  const events = [];
  let time = time0;
  for (let k = 0; k < pieces.length; k++) {
    if (k > 0) time += data.dt[k - 1];
    events.push({ type: 'assistant/chunk', seq: seq0 + k, time, data: { turn: data.turn, step: data.step, chunk: delta(type, data, k) } });
  }
  return events;
}

function delta(type, data, k) {
  if (type !== 'tool-call-chunks')
    return { type: type === 'reasoning-chunks' ? 'reasoning-delta' : 'text-delta', index: data.index, text: data.texts[k] };
  const chunk = { type: 'tool-call-delta', index: data.index, id: data.id };
  if (data.name !== undefined) chunk.name = data.name;
  chunk.argumentsDelta = data.args[k];
  return chunk;
}

/** sourceEventSeqs as dsh's v2+ writer stores them: runs of three or more consecutive seqs as [start, end]. */
export function rangeEncoded(seqs) {
  if (seqs.some((value, i) => i > 0 && value <= seqs[i - 1])) return [...seqs];
  const out = [];
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1] === seqs[j] + 1) j++;
    if (j - i >= 2) out.push([seqs[i], seqs[j]]);
    else for (let k = i; k <= j; k++) out.push(seqs[k]);
    i = j + 1;
  }
  return out;
}

/**
 * Re-reads written event lines (no header) independently of the writer's state: every line parses,
 * packed rows are well formed, and seqs run 0, 1, 2, … with no gap once rows are expanded (spec §1.4,
 * §1.5). Returns the event count.
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
      // v2+ lines cite runs as [start, end]: their end is the latest seq they cite
      for (const s of (record.sourceEventSeqs ?? []).flat()) if (s >= record.seq) throw new Error(`${where}: sourceEventSeqs cites ${s}`);
      expected++;
    }
  });
  return expected;
}
