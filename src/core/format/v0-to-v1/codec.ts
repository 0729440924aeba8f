// The physical codecs of released v0 and v1: one layout under two version numbers. The header holds
// `seedLength` (the inherited cut); a row is an event or a packed assistant-chunk row
// (`text-chunks`, `reasoning-chunks`, `tool-call-chunks` with `seq0`/`time0`/`dt`), and
// `sourceEventSeqs` may hold `[start, end]` range pairs. Recovery keeps the prefix before the first
// faulty row unless a later complete row is a `turn/end`, which makes the first issue fatal.
import { SessionFormatError } from '../errors';
import { assertExactKeys, formatCount, formatSafeInteger, jsonObject, snapshotFormatJson, templateString } from '../json';
import type { EventRun, EventSink, FormatCodec, FormatEvent, LogicalHeader, Recovery, RowDecoder } from '../types';
import { decodeSeqRanges, expandSeqRanges, type SeqRanges } from './seq-ranges';
import { assertReleasedHeader } from './validation';

/** A packed assistant-chunk record, as a v1→v2 stream keeps it (the packed row's own members). */
export type ChunkStreamRecord =
  | { type: 'text-chunks' | 'reasoning-chunks'; time0: number; index: number; dt: number[]; texts: string[] }
  | { type: 'tool-call-chunks'; time0: number; index: number; dt: number[]; id: string; name?: string; args: string[] };

/** The run a packed row decodes to. */
export interface AssistantChunkRun extends EventRun {
  readonly runType: 'released-assistant-chunks';
  readonly turn: number;
  readonly step: number;
  readonly lastSeq: number;
  readonly lastTime: number;
  readonly stream: ChunkStreamRecord;
}

export function isAssistantChunkRun(run: EventRun): run is AssistantChunkRun {
  return run.runType === 'released-assistant-chunks';
}

const PHYSICAL_HEADER_REQUIRED = ['type', 'version', 'id', 'createdAt', 'delegationDepth'];
const PHYSICAL_HEADER_OPTIONAL = ['cwd', 'parentSession', 'seedLength', 'origin', 'agentPreset'];
const PACKED_TYPES = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks']);

interface PhysicalHeader {
  header: LogicalHeader;
  /** `seedLength`, 0 when absent. */
  inheritedEventCount: number;
}

function decodePhysicalHeader(value: unknown, version: number): PhysicalHeader {
  const label = `released v${version} physical header`;
  const record = jsonObject(snapshotFormatJson(value, label), label);
  assertExactKeys(record, PHYSICAL_HEADER_REQUIRED, PHYSICAL_HEADER_OPTIONAL, label);
  if (record['type'] !== 'session' || record['version'] !== version)
    throw new SessionFormatError(`expected released v${version} physical Session header`);
  if (typeof record['id'] !== 'string') throw new SessionFormatError(`released v${version} header id must be a string`);
  const createdAt = formatCount(record['createdAt'], `released v${version} header createdAt`);
  const delegationDepth = formatCount(record['delegationDepth'], `released v${version} header delegationDepth`);
  const seedLength = record['seedLength'] === undefined ? 0 : formatCount(record['seedLength'], `released v${version} header seedLength`);
  for (const key of ['cwd', 'parentSession', 'agentPreset'])
    if (record[key] !== undefined && typeof record[key] !== 'string')
      throw new SessionFormatError(`released v${version} header ${key} must be a string`);
  if (record['origin'] !== undefined && record['origin'] !== 'subagent')
    throw new SessionFormatError(`released v${version} header origin must be "subagent"`);
  const header: LogicalHeader = {
    version,
    id: record['id'],
    createdAt,
    ...(record['cwd'] === undefined ? {} : { cwd: record['cwd'] as string }),
    ...(record['parentSession'] === undefined ? {} : { parentSession: record['parentSession'] as string }),
    isSeeded: record['seedLength'] !== undefined,
    ...(record['origin'] === undefined ? {} : { origin: record['origin'] as string }),
    delegationDepth,
    ...(record['agentPreset'] === undefined ? {} : { agentPreset: record['agentPreset'] as string }),
  };
  assertReleasedHeader(header, version);
  return { header, inheritedEventCount: seedLength };
}

/** One row decoded: a lone event, or a packed run. */
type DecodedRow = { kind: 'event'; event: FormatEvent; ranges?: SeqRanges } | { kind: 'run'; run: AssistantChunkRun };

class ReleasedRowDecoder implements RowDecoder {
  readonly header: LogicalHeader;
  readonly headerInheritedEventCount: number;
  private rowIndex = 0;
  private eventCount = 0;
  private issue: SessionFormatError | undefined;

  constructor(
    physical: PhysicalHeader,
    private readonly recoverable: boolean,
  ) {
    this.header = physical.header;
    this.headerInheritedEventCount = physical.inheritedEventCount;
  }

  firstIssue(): unknown {
    return this.issue;
  }

  decodeRow(row: unknown, out: EventSink): void {
    const index = this.rowIndex++;
    let decoded: DecodedRow;
    try {
      decoded = decodeRow(row, index);
    } catch (error) {
      const current =
        error instanceof SessionFormatError
          ? error
          : new SessionFormatError(`released Session row ${index} is malformed`, { cause: error });
      if (!this.recoverable) throw current;
      this.issue ??= current;
      return;
    }
    const endsTurn = decoded.kind === 'event' && decoded.event.type === 'turn/end';
    if (this.issue !== undefined) {
      if (endsTurn) throw this.issue;
      return;
    }
    const seq = decoded.kind === 'run' ? decoded.run.firstSeq : decoded.event.seq;
    if (seq !== this.eventCount) {
      const gap = new SessionFormatError(
        `released Session row ${index} has seq gap (expected ${this.eventCount}, got ${templateString(seq)})`,
      );
      if (!this.recoverable) throw gap;
      this.issue = gap;
      if (endsTurn) throw gap;
      return;
    }
    // Emitted outside the try: a migration stage's refusal is not a faulty row.
    if (decoded.kind === 'run') {
      this.eventCount += decoded.run.eventCount;
      out.emitRun(decoded.run);
    } else {
      this.eventCount += 1;
      const event = decoded.ranges ? { ...decoded.event, sourceEventSeqs: expandSeqRanges(decoded.ranges) } : decoded.event;
      out.emitEvent(event);
    }
  }

  finish(): number {
    if (this.headerInheritedEventCount > this.eventCount)
      throw new SessionFormatError('Session inheritedEventCount exceeds its event count');
    return this.headerInheritedEventCount;
  }
}

function decodeRow(row: unknown, index: number): DecodedRow {
  const record = jsonObject(row, `released Session row ${index}`);
  const type = record['type'];
  if (typeof type === 'string' && PACKED_TYPES.has(type)) return { kind: 'run', run: decodePackedRun(record, type, index) };
  if (record['sourceEventSeqs'] === undefined) return { kind: 'event', event: record as FormatEvent };
  const seq = formatCount(record['seq'], `released Session row ${index} seq`);
  // Checked now, expanded only once the row is known to be kept (a range may be as long as its seq).
  return { kind: 'event', event: record as FormatEvent, ranges: decodeSeqRanges(record['sourceEventSeqs'], seq) };
}

function decodePackedRun(row: Record<string, unknown>, type: string, index: number): AssistantChunkRun {
  const label = `released ${type} row ${index}`;
  assertExactKeys(row, ['type', 'seq0', 'time0', 'data'], [], label);
  const seq0 = formatCount(row['seq0'], `${label} seq0`);
  const time0 = formatSafeInteger(row['time0'], `${label} time0`);
  const data = jsonObject(row['data'], `${label} data`);
  const isTool = type === 'tool-call-chunks';
  assertExactKeys(
    data,
    isTool ? ['turn', 'step', 'index', 'id', 'dt', 'args'] : ['turn', 'step', 'index', 'dt', 'texts'],
    isTool ? ['name'] : [],
    `${label} data`,
  );
  const payload = data[isTool ? 'args' : 'texts'];
  if (!Array.isArray(payload) || payload.length === 0 || payload.some((member) => typeof member !== 'string'))
    throw new SessionFormatError(`${label} payload must be a non-empty string array`);
  const gaps = data['dt'];
  if (!Array.isArray(gaps) || gaps.length !== payload.length - 1) throw new SessionFormatError(`${label} dt length must match its payload`);
  let lastTime = time0;
  for (const gap of gaps) {
    const valid = formatSafeInteger(gap, `${label} dt member`);
    lastTime = formatSafeInteger(lastTime + valid, `${label} member time`);
  }
  const turn = formatCount(data['turn'], `${label} turn`);
  const step = formatCount(data['step'], `${label} step`);
  const chunkIndex = formatCount(data['index'], `${label} index`);
  if (
    isTool &&
    (typeof data['id'] !== 'string' || data['id'].length === 0 || (data['name'] !== undefined && typeof data['name'] !== 'string'))
  )
    throw new SessionFormatError(`${label} id and optional name must be strings`);
  const lastSeq = formatCount(seq0 + payload.length - 1, `${label} final seq`);
  const stream: ChunkStreamRecord = isTool
    ? {
        type: 'tool-call-chunks',
        time0,
        index: chunkIndex,
        dt: gaps as number[],
        id: data['id'] as string,
        ...(data['name'] === undefined ? {} : { name: data['name'] as string }),
        args: payload as string[],
      }
    : { type: type as 'text-chunks' | 'reasoning-chunks', time0, index: chunkIndex, dt: gaps as number[], texts: payload as string[] };
  const run: AssistantChunkRun = {
    runType: 'released-assistant-chunks',
    firstSeq: seq0,
    eventCount: payload.length,
    turn,
    step,
    lastSeq,
    lastTime,
    stream,
    expand: () => expandChunkRun(run),
  };
  return run;
}

/** The `assistant/chunk` events a packed run stands for, with their times rebuilt from `dt`. */
function* expandChunkRun(run: AssistantChunkRun): Generator<FormatEvent> {
  const stream = run.stream;
  const members = stream.type === 'tool-call-chunks' ? stream.args : stream.texts;
  let time = stream.time0;
  for (let i = 0; i < members.length; i++) {
    if (i > 0) time += stream.dt[i - 1];
    const chunk =
      stream.type === 'tool-call-chunks'
        ? {
            type: 'tool-call-delta',
            index: stream.index,
            id: stream.id,
            ...(stream.name === undefined ? {} : { name: stream.name }),
            argumentsDelta: members[i],
          }
        : { type: stream.type === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index: stream.index, text: members[i] };
    yield { type: 'assistant/chunk', seq: run.firstSeq + i, time, data: { turn: run.turn, step: run.step, chunk } };
  }
}

/** The physical header dsh's v0 writer writes (and the corpus's v1 form): `seedLength` for a seeded log. */
function encodeReleasedHeader(header: LogicalHeader, inheritedEventCount: number, version: number): Record<string, unknown> {
  assertReleasedHeader(header, version);
  const cut = formatCount(inheritedEventCount, 'Session inheritedEventCount');
  if (!header.isSeeded && cut !== 0) throw new SessionFormatError('unseeded Session inheritedEventCount must be 0');
  return {
    type: 'session',
    version,
    id: header.id,
    createdAt: header.createdAt,
    ...(header.cwd === undefined ? {} : { cwd: header.cwd }),
    ...(header.parentSession === undefined ? {} : { parentSession: header.parentSession }),
    ...(header.isSeeded ? { seedLength: cut } : {}),
    ...(header.origin === undefined ? {} : { origin: header.origin }),
    delegationDepth: header.delegationDepth,
    ...(header.agentPreset === undefined ? {} : { agentPreset: header.agentPreset }),
  };
}

function releasedCodec(version: number): FormatCodec {
  return Object.freeze({
    version,
    decodeHeader: (value: unknown) => decodePhysicalHeader(value, version).header,
    createDecoder: (headerValue: unknown, recovery: Recovery) =>
      new ReleasedRowDecoder(decodePhysicalHeader(headerValue, version), recovery === 'recoverable'),
    encodeHeader: (header: LogicalHeader, inheritedEventCount: number) => encodeReleasedHeader(header, inheritedEventCount, version),
    // One event per line, `sourceEventSeqs` written out in full: the v0 writer's layout (no packed rows).
    encodeEvent: (event: FormatEvent) => event as Record<string, unknown>,
  });
}

/** Released v0's codec. */
export const releasedV0Codec: FormatCodec = releasedCodec(0);

/** Released v1's codec: v0's layout with `version: 1` (dsh wrote no v1 logs of its own). */
export const releasedV1Codec: FormatCodec = releasedCodec(1);
