// The event index of a loaded log: facts in typed-array columns (file line, bytes, packed row member,
// type, turn, step, tool-call count, surface role), and event bodies parsed again from the bytes when
// asked for. A 300k-event log costs a few megabytes here instead of one object tree per event.
import type { EventPlace, SessionEvent } from '../types';
import type { ByteStore } from './columns';
import { rowMember } from './chunk-rows';
import { KNOWN_EVENT_TYPE_NAMES, TypeId } from './known-types';

/** Surface role of an event, kept for the transcript and provenance views. */
export const enum SurfaceRole {
  None = 0,
  Append = 1,
  Replace = 2,
}

/**
 * What the whole-log passes (provenance, invariants, planners) read of a log's kept events: typed
 * facts without parsing, and bodies on demand.
 */
export interface EventFacts {
  readonly eventCount: number;
  eventType(seq: number): string | undefined;
  turn(seq: number): number | undefined;
  step(seq: number): number | undefined;
  surfaceRole(seq: number): SurfaceRole;
  place(seq: number): EventPlace | undefined;
  event(seq: number): SessionEvent | undefined;
}

/** The Int32 cell of a turn or step that is a number but not a 32-bit integer (looked up aside). */
const OTHER_NUMBER = -0x80000000;
/** The Int32 cell of a turn or step that is not a number at all (many events carry none): NaN, no lookup. */
const NOT_A_NUMBER = -0x7fffffff;

/** Bytes of text per event in real and generated logs is 60–200: sizing columns at 1/96 of the text rarely grows them. */
const BYTES_PER_EVENT_ESTIMATE = 96;

/** Events a fork holds before its columns grow: edits planned on a fork append a handful. */
const FORK_ROOM = 1024;

/**
 * Facts live per line, not per event: a line holds one event or a packed row of chunks that share
 * their line, type, turn, step and role, so a per-event column would repeat them. Per event there
 * is only the line it came from. (Fewer bytes written is fewer pages touched, which is much of a
 * large load's cost.) Columns are sized from the text up front; pages past the used part are never
 * touched, so generous sizing costs address space, not memory.
 */
export class EventIndex {
  // Plain typed-array fields (not a generic column class) keep every read and write site monomorphic,
  // which the per-event load path depends on.
  private eventCapacity: number;
  private length = 0;
  /** Per event: its line's index in the line columns below. */
  private lineOf: Int32Array;
  private lineCapacity: number;
  private lines = 0;
  private lineNo: Int32Array;
  private lineStart: Float64Array;
  private lineLength: Int32Array;
  /** The seq of the line's first event (a packed row's members follow it). */
  private firstSeq: Int32Array;
  /** 1 for a packed row, whose events are its members. */
  private packed: Uint8Array;
  /** 32 bits: a log may name more than 65,535 distinct types (every unknown ignorable one counts). */
  private typeId: Uint32Array;
  /** Turn and step as 32-bit integers; OTHER_NUMBER sends a lookup to `otherNumbers` (fractions, huge values, -0), NOT_A_NUMBER is NaN. */
  private turnOf: Int32Array;
  private stepOf: Int32Array;
  private readonly otherNumbers = new Map<number, number>();
  private toolCalls: Uint16Array;
  private roleOf: Uint8Array;
  /** Type names by id: the known types first, in TypeId order, then others as they are met. */
  private readonly typeNames: string[] = [...KNOWN_EVENT_TYPE_NAMES];
  private readonly typeIds = new Map<string, number>(KNOWN_EVENT_TYPE_NAMES.map((name, id) => [name, id]));
  /** Events whose stored shape was upgraded: the upgraded form (parsing the line would undo it). */
  readonly upgraded = new Map<number, SessionEvent>();
  private lastRow: { start: number; row: Record<string, any>; times: number[] } | undefined;
  /**
   * How an event read again from its own line becomes the event it stands for, when a generation
   * writes rows that differ from events (range-encoded `sourceEventSeqs`); undefined: as written.
   */
  storedEvent: ((stored: SessionEvent) => SessionEvent) | undefined;

  /** `capacity`: events (and lines) the columns hold before they grow; estimated from the text when not given. */
  constructor(
    private readonly bytes: ByteStore,
    capacity = Math.min(1 << 26, Math.max(1024, Math.ceil(bytes.length / BYTES_PER_EVENT_ESTIMATE))),
  ) {
    this.eventCapacity = capacity;
    this.lineOf = new Int32Array(capacity);
    // A line holds at least one event, so the event estimate bounds the lines too.
    this.lineCapacity = capacity;
    this.lineNo = new Int32Array(capacity);
    this.lineStart = new Float64Array(capacity);
    this.lineLength = new Int32Array(capacity);
    this.firstSeq = new Int32Array(capacity);
    this.packed = new Uint8Array(capacity);
    this.typeId = new Uint32Array(capacity);
    this.turnOf = new Int32Array(capacity);
    this.stepOf = new Int32Array(capacity);
    this.toolCalls = new Uint16Array(capacity);
    this.roleOf = new Uint8Array(capacity);
  }

  /**
   * A copy of the index over `bytes` (a fork of its bytes) that later events extend without touching this
   * one: the used part of each column is copied (a few bytes per event, nothing parsed), with room for more.
   */
  fork(bytes: ByteStore): EventIndex {
    const copy = new EventIndex(bytes, this.length + FORK_ROOM);
    copy.length = this.length;
    copy.lines = this.lines;
    const n = this.lines;
    copy.lineOf.set(this.lineOf.subarray(0, this.length));
    copy.lineNo.set(this.lineNo.subarray(0, n));
    copy.lineStart.set(this.lineStart.subarray(0, n));
    copy.lineLength.set(this.lineLength.subarray(0, n));
    copy.firstSeq.set(this.firstSeq.subarray(0, n));
    copy.packed.set(this.packed.subarray(0, n));
    copy.typeId.set(this.typeId.subarray(0, n));
    copy.turnOf.set(this.turnOf.subarray(0, n));
    copy.stepOf.set(this.stepOf.subarray(0, n));
    copy.toolCalls.set(this.toolCalls.subarray(0, n));
    copy.roleOf.set(this.roleOf.subarray(0, n));
    for (const [key, value] of this.otherNumbers) copy.otherNumbers.set(key, value);
    for (let id = copy.typeNames.length; id < this.typeNames.length; id++) copy.typeIdOf(this.typeNames[id]);
    for (const [seq, event] of this.upgraded) copy.upgraded.set(seq, event);
    return copy;
  }

  get count(): number {
    return this.length;
  }

  /** Events the index holds without growing (sized from the text): other per-event tables size theirs from it. */
  get expectedEvents(): number {
    return this.eventCapacity;
  }

  /** Room for `extra` more events on one more line (sized up front, growth is the exception). */
  private reserve(extra: number): void {
    if (this.length + extra > this.eventCapacity) {
      this.eventCapacity = Math.max(this.length + extra, Math.ceil(this.eventCapacity * 1.5));
      this.lineOf = grown(this.lineOf, this.length, new Int32Array(this.eventCapacity));
    }
    if (this.lines < this.lineCapacity) return;
    const capacity = Math.ceil(this.lineCapacity * 1.5);
    const n = this.lines;
    this.lineNo = grown(this.lineNo, n, new Int32Array(capacity));
    this.lineStart = grown(this.lineStart, n, new Float64Array(capacity));
    this.lineLength = grown(this.lineLength, n, new Int32Array(capacity));
    this.firstSeq = grown(this.firstSeq, n, new Int32Array(capacity));
    this.packed = grown(this.packed, n, new Uint8Array(capacity));
    this.typeId = grown(this.typeId, n, new Uint32Array(capacity));
    this.turnOf = grown(this.turnOf, n, new Int32Array(capacity));
    this.stepOf = grown(this.stepOf, n, new Int32Array(capacity));
    this.toolCalls = grown(this.toolCalls, n, new Uint16Array(capacity));
    this.roleOf = grown(this.roleOf, n, new Uint8Array(capacity));
    this.lineCapacity = capacity;
  }

  /** Starts a line of `members` events; returns its index. */
  private pushLine(
    members: number,
    packed: number,
    typeId: number,
    turn: unknown,
    step: unknown,
    fileLine: number,
    offset: number,
    length: number,
  ): number {
    this.reserve(members);
    const k = this.lines++;
    this.lineNo[k] = fileLine;
    this.lineStart[k] = offset;
    this.lineLength[k] = length;
    this.firstSeq[k] = this.length;
    this.packed[k] = packed;
    this.typeId[k] = typeId;
    this.turnOf[k] = this.packNumber(turn, k * 2);
    this.stepOf[k] = this.packNumber(step, k * 2 + 1);
    const end = this.length + members;
    const lineOf = this.lineOf;
    for (let i = this.length; i < end; i++) lineOf[i] = k;
    this.length = end;
    return k;
  }

  /** Indexes one event read from its own line; `typeId` is its type's number (typeIdOf). */
  pushEvent(
    typeId: number,
    turn: unknown,
    step: unknown,
    toolCalls: number,
    role: SurfaceRole,
    fileLine: number,
    offset: number,
    length: number,
  ): void {
    const k = this.pushLine(1, 0, typeId, turn, step, fileLine, offset, length);
    this.toolCalls[k] = toolCalls > 65535 ? 65535 : toolCalls;
    this.roleOf[k] = role;
  }

  /** Indexes the `members` assistant/chunk events of one packed row. */
  pushRow(turn: number, step: number, members: number, fileLine: number, offset: number, length: number): void {
    const k = this.pushLine(members, 1, TypeId.AssistantChunk, turn, step, fileLine, offset, length);
    this.toolCalls[k] = 0;
    this.roleOf[k] = SurfaceRole.None;
  }

  /** A turn or step as an Int32 cell; any other number (rare) is kept aside under `key`. */
  private packNumber(value: unknown, key: number): number {
    if (typeof value !== 'number') return NOT_A_NUMBER;
    if ((value | 0) === value && value !== OTHER_NUMBER && value !== NOT_A_NUMBER && (value !== 0 || 1 / value > 0)) return value;
    this.otherNumbers.set(key, value);
    return OTHER_NUMBER;
  }

  private unpackNumber(packed: number, key: number): number {
    if (packed === NOT_A_NUMBER) return NaN;
    return packed !== OTHER_NUMBER ? packed : (this.otherNumbers.get(key) ?? NaN);
  }

  /** The number of an event's type (a TypeId for the known types): the same type text, the same number. */
  typeIdOf(type: unknown): number {
    const name = typeof type === 'string' ? type : `(${typeof type})`;
    let id = this.typeIds.get(name);
    if (id === undefined) {
      id = this.typeNames.length;
      this.typeNames.push(name);
      this.typeIds.set(name, id);
    }
    return id;
  }

  type(seq: number): string {
    return this.typeNames[this.typeId[this.lineOf[seq]]];
  }

  turn(seq: number): number {
    const k = this.lineOf[seq];
    return this.unpackNumber(this.turnOf[k], k * 2);
  }

  step(seq: number): number {
    const k = this.lineOf[seq];
    return this.unpackNumber(this.stepOf[k], k * 2 + 1);
  }

  toolCallCount(seq: number): number {
    return this.toolCalls[this.lineOf[seq]];
  }

  role(seq: number): SurfaceRole {
    return this.roleOf[this.lineOf[seq]];
  }

  line(seq: number): number {
    return this.lineNo[this.lineOf[seq]];
  }

  /** First byte of the line an event came from (members of one packed row share it). */
  lineOffset(seq: number): number {
    return this.lineStart[this.lineOf[seq]];
  }

  lineBytes(seq: number): number {
    return this.lineLength[this.lineOf[seq]];
  }

  /** Index of a packed row's member, -1 for an event on its own line. */
  private member(seq: number): number {
    const k = this.lineOf[seq];
    return this.packed[k] === 1 ? seq - this.firstSeq[k] : -1;
  }

  place(seq: number): EventPlace | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const k = this.lineOf[seq];
    const place: EventPlace = { line: this.lineNo[k], offset: this.lineStart[k], length: this.lineLength[k] };
    const member = this.member(seq);
    if (member >= 0) place.packedMember = member;
    return place;
  }

  /** The raw text of the line an event came from. */
  lineText(seq: number): string | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const k = this.lineOf[seq];
    const start = this.lineStart[k];
    return this.bytes.text(start, start + this.lineLength[k]);
  }

  /**
   * One kept event, parsed again from its line: each call returns a fresh object, so a caller can
   * never change what the core holds. Upgraded events are few and kept frozen.
   */
  event(seq: number): SessionEvent | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const upgraded = this.upgraded.size > 0 ? this.upgraded.get(seq) : undefined;
    if (upgraded) return upgraded;
    const k = this.lineOf[seq];
    const start = this.lineStart[k];
    const member = this.member(seq);
    if (member < 0) {
      const stored = JSON.parse(this.bytes.text(start, start + this.lineLength[k])) as SessionEvent;
      return this.storedEvent ? this.storedEvent(stored) : stored;
    }
    // Members of one packed row are usually read together: keep the row and its member times.
    if (this.lastRow?.start !== start) {
      const row = JSON.parse(this.bytes.text(start, start + this.lineLength[k])) as Record<string, any>;
      const times: number[] = [row.time0];
      for (const gap of row.data.dt as number[]) times.push(times[times.length - 1] + gap);
      this.lastRow = { start, row, times };
    }
    return rowMember(this.lastRow.row, member, this.lastRow.times[member]);
  }
}

/** `old`'s first `used` values copied into `into`. */
function grown<T extends Int32Array | Uint32Array | Float64Array | Uint16Array | Uint8Array>(old: T, used: number, into: T): T {
  into.set(old.subarray(0, used) as any);
  return into;
}
