// Where a read's events go, one at a time in the target form (compact runs expanded), as they are
// decoded: the target generation's restore, the caller's callback with the event's place in the file,
// a count and a type histogram, and the events themselves only when a caller needs the whole artifact
// (to encode it). So a read holds no more than its restore keeps.
import type { EventRun, EventSink, FormatEvent, RestoreVisit } from './types';

/** Where a decoded event sits in the file. */
export interface EventPlace {
  /** The physical line (1-based) of its row. */
  line: number;
  /** The row's byte offset in the text, and its length without the line ending (LF or CRLF). */
  offset: number;
  length: number;
  /** Its index inside a packed row (v0/v1 chunk rows), or -1 when it is alone on its line. */
  member: number;
}

/** Hands each event of a read of the stored generation as itself, with its place, as it is decoded. */
export type DecodedEventCallback = (event: FormatEvent, place: EventPlace) => void;

export class ReadEvents implements EventSink {
  count = 0;
  /** The events in order, when kept. */
  readonly events: FormatEvent[] | undefined;
  private readonly types = new Map<unknown, number>();
  /** The row being decoded (set by the reader). */
  line = 0;
  offset = 0;
  length = 0;
  /** What the callback threw, if it did: it is called no more, and the read passes the error on. */
  callbackError: { error: unknown } | undefined;

  private restore: RestoreVisit | undefined;

  constructor(
    keepEvents: boolean,
    private readonly onEvent: DecodedEventCallback | undefined,
  ) {
    if (keepEvents) this.events = [];
  }

  /** The target generation's restore, started before the first event. */
  startRestore(restore: RestoreVisit): void {
    this.restore = restore;
  }

  /** After the last event: throws the restore's refusal, if it has one. */
  finishRestore(inheritedEventCount: number): void {
    this.restore!.finish(inheritedEventCount);
  }

  emitEvent(event: FormatEvent): void {
    this.take(event, -1);
  }

  emitRun(run: EventRun): void {
    let member = 0;
    for (const event of run.expand()) this.take(event, member++);
  }

  /** Event-type histogram, types sorted. */
  typeHistogram(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const type of [...this.types.keys()].sort()) out[type as string] = this.types.get(type)!;
    return out;
  }

  private take(event: FormatEvent, member: number): void {
    this.count += 1;
    // Only a successful read reports the histogram, and then every event is an object; until then, no shape is assumed.
    const type = typeof event === 'object' && event !== null ? event.type : undefined;
    this.types.set(type, (this.types.get(type) ?? 0) + 1);
    // The restore sees the event before the callback does, as when it ran over a finished artifact.
    this.restore!.event(event);
    this.events?.push(event);
    if (this.onEvent === undefined || this.callbackError) return;
    try {
      this.onEvent(event, { line: this.line, offset: this.offset, length: this.length, member });
    } catch (error) {
      this.callbackError = { error };
    }
  }
}
