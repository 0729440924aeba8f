// The event index of a loaded log: per-event facts in typed-array columns (file line, bytes, packed
// row member, type, turn, step, tool-call count, surface role), and event bodies parsed again from
// the bytes when asked for. A 300k-event log costs a few megabytes here instead of one object tree
// per event.
import type { EventPlace, SessionEvent } from '../types';
import { ByteStore, Column } from './columns';
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
  private readonly lineNo: Column<Int32Array>;
  private readonly lineStart: Column<Float64Array>;
  private readonly lineLength: Column<Int32Array>;
  private readonly member: Column<Int32Array>;
  private readonly typeId: Column<Uint16Array>;
  private readonly turnOf: Column<Float64Array>;
  private readonly stepOf: Column<Float64Array>;
  private readonly toolCalls: Column<Uint16Array>;
  private readonly roleOf: Column<Uint8Array>;
  private readonly typeNames: string[] = [];
  private readonly typeIds = new Map<string, number>();
  /** Events whose stored shape was upgraded: the upgraded form (parsing the line would undo it). */
  readonly upgraded = new Map<number, SessionEvent>();
  private lastRow: { start: number; row: Record<string, any>; times: number[] } | undefined;

  constructor(private readonly bytes: ByteStore) {
    const capacity = Math.min(1 << 26, Math.max(1024, Math.ceil(bytes.length / BYTES_PER_EVENT_ESTIMATE)));
    this.lineNo = new Column(Int32Array, capacity);
    this.lineStart = new Column(Float64Array, capacity);
    this.lineLength = new Column(Int32Array, capacity);
    this.member = new Column(Int32Array, capacity);
    this.typeId = new Column(Uint16Array, capacity);
    this.turnOf = new Column(Float64Array, capacity);
    this.stepOf = new Column(Float64Array, capacity);
    this.toolCalls = new Column(Uint16Array, capacity);
    this.roleOf = new Column(Uint8Array, capacity);
  }

  get count(): number {
    return this.lineNo.length;
  }

  /** Indexes one event read from its own line. */
  pushEvent(type: unknown, turn: unknown, step: unknown, toolCalls: number, role: SurfaceRole, fileLine: number, offset: number, length: number): void {
    this.lineNo.push(fileLine);
    this.lineStart.push(offset);
    this.lineLength.push(length);
    this.member.push(-1);
    this.typeId.push(this.internType(type));
    this.turnOf.push(typeof turn === 'number' ? turn : NaN);
    this.stepOf.push(typeof step === 'number' ? step : NaN);
    this.toolCalls.push(toolCalls > 65535 ? 65535 : toolCalls);
    this.roleOf.push(role);
  }

  /** Indexes the `members` assistant/chunk events of one packed row. */
  pushRow(turn: number, step: number, members: number, fileLine: number, offset: number, length: number): void {
    this.lineNo.pushRepeated(fileLine, members);
    this.lineStart.pushRepeated(offset, members);
    this.lineLength.pushRepeated(length, members);
    this.member.pushSequence(0, members);
    this.typeId.pushRepeated(this.internType('assistant/chunk'), members);
    this.turnOf.pushRepeated(turn, members);
    this.stepOf.pushRepeated(step, members);
    this.toolCalls.pushRepeated(0, members);
    this.roleOf.pushRepeated(SurfaceRole.None, members);
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
    return this.typeNames[this.typeId.get(seq)];
  }

  turn(seq: number): number {
    return this.turnOf.get(seq);
  }

  step(seq: number): number {
    return this.stepOf.get(seq);
  }

  toolCallCount(seq: number): number {
    return this.toolCalls.get(seq);
  }

  role(seq: number): SurfaceRole {
    return this.roleOf.get(seq);
  }

  line(seq: number): number {
    return this.lineNo.get(seq);
  }

  /** First byte of the line an event came from (members of one packed row share it). */
  lineOffset(seq: number): number {
    return this.lineStart.get(seq);
  }

  lineBytes(seq: number): number {
    return this.lineLength.get(seq);
  }

  place(seq: number): EventPlace | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const place: EventPlace = { line: this.lineNo.get(seq), offset: this.lineStart.get(seq), length: this.lineLength.get(seq) };
    const member = this.member.get(seq);
    if (member >= 0) place.packedMember = member;
    return place;
  }

  /** The raw text of the line an event came from. */
  lineText(seq: number): string | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const start = this.lineStart.get(seq);
    return utf8.decode(this.bytes.view(start, start + this.lineLength.get(seq)));
  }

  /**
   * One kept event, parsed again from its line: each call returns a fresh object, so a caller can
   * never change what the core holds. Upgraded events are few and kept frozen.
   */
  event(seq: number): SessionEvent | undefined {
    if (seq < 0 || seq >= this.count) return undefined;
    const upgraded = this.upgraded.get(seq);
    if (upgraded) return upgraded;
    const start = this.lineStart.get(seq);
    const member = this.member.get(seq);
    if (member < 0) return JSON.parse(utf8.decode(this.bytes.view(start, start + this.lineLength.get(seq)))) as SessionEvent;
    // Members of one packed row are usually read together: keep the row and its member times.
    if (this.lastRow?.start !== start) {
      const row = JSON.parse(utf8.decode(this.bytes.view(start, start + this.lineLength.get(seq)))) as Record<string, any>;
      const times: number[] = [row.time0];
      for (const gap of row.data.dt as number[]) times.push(times[times.length - 1] + gap);
      this.lastRow = { start, row, times };
    }
    return rowMember(this.lastRow.row, member, this.lastRow.times[member]);
  }
}
