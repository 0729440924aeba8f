// The event index of a loaded log: per-event facts in typed-array columns (file line, bytes, packed
// row member, type, turn, step, tool-call count, surface role), and event bodies parsed again from
// the bytes when asked for. A 300k-event log costs a few megabytes here instead of one object tree
// per event.
import type { EventPlace, SessionEvent } from '../types';
import type { ByteStore } from './columns';
import { rowMember } from './chunk-rows';

/** Surface role of an event, kept per event for the transcript and provenance views. */
export const enum SurfaceRole { None = 0, Append = 1, Replace = 2 }

// ignoreBOM keeps a byte-order mark in the text, as dsh's reader does (a BOM before the header is damage).
export const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

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

/** Bytes of text per event in real and generated logs is 60–200: sizing columns at 1/96 of the text rarely grows them. */
const BYTES_PER_EVENT_ESTIMATE = 96;

export class EventIndex {
  // One typed array per fact, all of one capacity. Plain fields (not a generic column class) keep
  // every read and write site monomorphic, which the per-event load path depends on.
  private capacity: number;
  private length = 0;
  private lineNo: Int32Array;
  private lineStart: Float64Array;
  private lineLength: Int32Array;
  /** Member index within a packed row, -1 for an event on its own line. */
  private member: Int32Array;
  private typeId: Uint16Array;
  private turnOf: Float64Array;
  private stepOf: Float64Array;
  private toolCalls: Uint16Array;
  private roleOf: Uint8Array;
  private readonly typeNames: string[] = [];
  private readonly typeIds = new Map<string, number>();
  /** Events whose stored shape was upgraded: the upgraded form (parsing the line would undo it). */
  readonly upgraded = new Map<number, SessionEvent>();
  private lastRow: { start: number; row: Record<string, any>; times: number[] } | undefined;

  constructor(private readonly bytes: ByteStore) {
    const capacity = Math.min(1 << 26, Math.max(1024, Math.ceil(bytes.length / BYTES_PER_EVENT_ESTIMATE)));
    this.capacity = capacity;
    this.lineNo = new Int32Array(capacity);
    this.lineStart = new Float64Array(capacity);
    this.lineLength = new Int32Array(capacity);
    this.member = new Int32Array(capacity);
    this.typeId = new Uint16Array(capacity);
    this.turnOf = new Float64Array(capacity);
    this.stepOf = new Float64Array(capacity);
    this.toolCalls = new Uint16Array(capacity);
    this.roleOf = new Uint8Array(capacity);
  }

  get count(): number {
    return this.length;
  }

  /** Room for `extra` more events: grows every column by half (sized up front, growth is the exception). */
  private reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, Math.ceil(this.capacity * 1.5));
    const n = this.length;
    const grow = <T extends Int32Array | Float64Array | Uint16Array | Uint8Array>(old: T, make: (size: number) => T): T => {
      const grown = make(capacity);
      grown.set(old.subarray(0, n) as any);
      return grown;
    };
    this.lineNo = grow(this.lineNo, (k) => new Int32Array(k));
    this.lineStart = grow(this.lineStart, (k) => new Float64Array(k));
    this.lineLength = grow(this.lineLength, (k) => new Int32Array(k));
    this.member = grow(this.member, (k) => new Int32Array(k));
    this.typeId = grow(this.typeId, (k) => new Uint16Array(k));
    this.turnOf = grow(this.turnOf, (k) => new Float64Array(k));
    this.stepOf = grow(this.stepOf, (k) => new Float64Array(k));
    this.toolCalls = grow(this.toolCalls, (k) => new Uint16Array(k));
    this.roleOf = grow(this.roleOf, (k) => new Uint8Array(k));
    this.capacity = capacity;
  }

  /** Indexes one event read from its own line. */
  pushEvent(type: unknown, turn: unknown, step: unknown, toolCalls: number, role: SurfaceRole, fileLine: number, offset: number, length: number): void {
    if (this.length === this.capacity) this.reserve(1);
    const i = this.length++;
    this.lineNo[i] = fileLine;
    this.lineStart[i] = offset;
    this.lineLength[i] = length;
    this.member[i] = -1;
    this.typeId[i] = this.internType(type);
    this.turnOf[i] = typeof turn === 'number' ? turn : NaN;
    this.stepOf[i] = typeof step === 'number' ? step : NaN;
    this.toolCalls[i] = toolCalls > 65535 ? 65535 : toolCalls;
    this.roleOf[i] = role;
  }

  /** Indexes the `members` assistant/chunk events of one packed row. */
  pushRow(turn: number, step: number, members: number, fileLine: number, offset: number, length: number): void {
    this.reserve(members);
    const first = this.length;
    const end = first + members;
    const typeId = this.internType('assistant/chunk');
    for (let i = first; i < end; i++) {
      this.lineNo[i] = fileLine;
      this.lineStart[i] = offset;
      this.lineLength[i] = length;
      this.member[i] = i - first;
      this.typeId[i] = typeId;
      this.turnOf[i] = turn;
      this.stepOf[i] = step;
      this.toolCalls[i] = 0;
      this.roleOf[i] = SurfaceRole.None;
    }
    this.length = end;
  }

  private internType(type: unknown): number {
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
    return this.typeNames[this.typeId[seq]];
  }

  turn(seq: number): number {
    return this.turnOf[seq];
  }

  step(seq: number): number {
    return this.stepOf[seq];
  }

  toolCallCount(seq: number): number {
    return this.toolCalls[seq];
  }

  role(seq: number): SurfaceRole {
    return this.roleOf[seq];
  }

  line(seq: number): number {
    return this.lineNo[seq];
  }

  /** First byte of the line an event came from (members of one packed row share it). */
  lineOffset(seq: number): number {
    return this.lineStart[seq];
  }

  lineBytes(seq: number): number {
    return this.lineLength[seq];
  }

  place(seq: number): EventPlace | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const place: EventPlace = { line: this.lineNo[seq], offset: this.lineStart[seq], length: this.lineLength[seq] };
    const member = this.member[seq];
    if (member >= 0) place.packedMember = member;
    return place;
  }

  /** The raw text of the line an event came from. */
  lineText(seq: number): string | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const start = this.lineStart[seq];
    return utf8.decode(this.bytes.view(start, start + this.lineLength[seq]));
  }

  /**
   * One kept event, parsed again from its line: each call returns a fresh object, so a caller can
   * never change what the core holds. Upgraded events are few and kept frozen.
   */
  event(seq: number): SessionEvent | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const upgraded = this.upgraded.size > 0 ? this.upgraded.get(seq) : undefined;
    if (upgraded) return upgraded;
    const start = this.lineStart[seq];
    const member = this.member[seq];
    if (member < 0) return JSON.parse(utf8.decode(this.bytes.view(start, start + this.lineLength[seq]))) as SessionEvent;
    // Members of one packed row are usually read together: keep the row and its member times.
    if (this.lastRow?.start !== start) {
      const row = JSON.parse(utf8.decode(this.bytes.view(start, start + this.lineLength[seq]))) as Record<string, any>;
      const times: number[] = [row.time0];
      for (const gap of row.data.dt as number[]) times.push(times[times.length - 1] + gap);
      this.lastRow = { start, row, times };
    }
    return rowMember(this.lastRow.row, member, this.lastRow.times[member]);
  }
}
