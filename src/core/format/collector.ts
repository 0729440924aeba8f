// Where a read's events end up: the target form's events in order, compact runs expanded. For a read
// of the stored generation as itself it also notes where each event sits in the file (the line of its
// row, and its index inside a packed row), so views can point into the file.
import type { EventRun, EventSink, FormatEvent } from './types';

/** Where decoded events sit in the file: line[i] and member[i] for event i (member -1: alone on its line). */
export interface EventPlaces {
  line: number[];
  member: number[];
}

export class EventCollector implements EventSink {
  readonly events: FormatEvent[] = [];
  /** The physical line of the row being decoded (set by the reader). */
  line = 0;
  private readonly lines: number[] | undefined;
  private readonly members: number[] | undefined;

  constructor(recordPlaces: boolean) {
    if (recordPlaces) {
      this.lines = [];
      this.members = [];
    }
  }

  emitEvent(event: FormatEvent): void {
    this.events.push(event);
    this.lines?.push(this.line);
    this.members?.push(-1);
  }

  emitRun(run: EventRun): void {
    let member = 0;
    for (const event of run.expand()) {
      this.events.push(event);
      this.lines?.push(this.line);
      this.members?.push(member++);
    }
  }

  places(): EventPlaces | undefined {
    return this.lines && this.members ? { line: this.lines, member: this.members } : undefined;
  }
}
