// The surface as the relationship checks follow it: the ordered live seqs, changed by appends and by
// replacements of a contiguous span. A linked list by seq, so a replacement or a span check costs the
// span's length, not the surface's (dsh copies the whole surface array at every surface event).
import { SessionFormatError } from '../../errors';

const NONE = -1;

export class LiveSurface {
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly live: Uint8Array;
  private head = NONE;
  private tail = NONE;

  /** `capacity`: one more than the largest seq that can be on the surface. */
  constructor(capacity: number) {
    this.next = new Int32Array(capacity).fill(NONE);
    this.prev = new Int32Array(capacity).fill(NONE);
    this.live = new Uint8Array(capacity);
  }

  has(seq: unknown): seq is number {
    return typeof seq === 'number' && Number.isInteger(seq) && seq >= 0 && seq < this.live.length && this.live[seq] === 1;
  }

  append(seq: number): void {
    this.link(this.tail, seq, NONE);
  }

  /**
   * The live seqs from `start` to `end` inclusive, in surface order; undefined when either is not on
   * the surface or `end` comes before `start`.
   */
  span(start: unknown, end: unknown): number[] | undefined {
    if (!this.has(start) || !this.has(end)) return undefined;
    const out: number[] = [];
    for (let at = start; at !== NONE; at = this.next[at]) {
      out.push(at);
      if (at === end) return out;
    }
    return undefined;
  }

  /** A surface event applied as dsh applies it (append, or replacement of a span it cites in full). */
  apply(event: { type: string; seq: number; surfaceOp?: unknown; sourceEventSeqs?: unknown }): void {
    const operation = event.surfaceOp;
    if (operation === undefined) throw new SessionFormatError(`${event.type} requires a surfaceOp marker`);
    if (operation === 'append') {
      this.append(event.seq);
      return;
    }
    const replace = typeof operation === 'object' && operation !== null ? (operation as { start?: unknown; end?: unknown }) : {};
    const shadowed = this.span(replace.start, replace.end);
    if (shadowed === undefined) throw new SessionFormatError(`${event.type} replacement range is not on the current surface`);
    const sources = new Set(Array.isArray(event.sourceEventSeqs) ? event.sourceEventSeqs : []);
    if (shadowed.some((seq) => !sources.has(seq)))
      throw new SessionFormatError(`${event.type} replacement sourceEventSeqs omit a shadowed surface node`);
    const before = this.prev[shadowed[0]];
    const after = this.next[shadowed[shadowed.length - 1]];
    for (const seq of shadowed) this.unlink(seq);
    this.link(before, event.seq, after);
  }

  private link(before: number, seq: number, after: number): void {
    this.prev[seq] = before;
    this.next[seq] = after;
    this.live[seq] = 1;
    if (before === NONE) this.head = seq;
    else this.next[before] = seq;
    if (after === NONE) this.tail = seq;
    else this.prev[after] = seq;
  }

  private unlink(seq: number): void {
    const before = this.prev[seq];
    const after = this.next[seq];
    if (before === NONE) this.head = after;
    else this.next[before] = after;
    if (after === NONE) this.tail = before;
    else this.prev[after] = before;
    this.live[seq] = 0;
    this.next[seq] = this.prev[seq] = NONE;
  }
}
