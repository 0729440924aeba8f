// Per-event facts the timeline needs beyond the core's columns, kept up to date as a live log grows:
// the turn and step each event sits in, each event's place on the surface (node, shadowed, none),
// the transcript and the list of surface events. Folding an append touches only the new events
// (and, after a replace, only the new generation's surface positions): no whole-log rebuild.
// Facts that need event bodies (does an assistant/message give a model message?) are computed
// lazily, when a view asks, and remembered.
import { SurfaceRole, type SessionLog, derivedMessageOf } from '../../core';
import type { Generation } from '../../protocol';

/** A growable Int32Array (amortised doubling; `view` is valid until the next push). */
export class IntList {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i];
  }

  set(i: number, v: number): void {
    this.data[i] = v;
  }

  /** Makes room for `n` entries at once, each set to `fill`. */
  grow(n: number, fill: number): void {
    if (n <= this.length) return;
    if (n > this.data.length) {
      const next = new Int32Array(Math.max(n, this.data.length * 2));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data.fill(fill, this.length, n);
    this.length = n;
  }

  truncate(n: number): void {
    this.length = Math.min(this.length, n);
  }

  /** Index of the last entry <= v in a list sorted ascending, or -1. */
  floorIndex(v: number): number {
    let lo = 0;
    let hi = this.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.data[mid] <= v) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}

const NONE = -1;

export class TimelineIndex {
  /** Events indexed so far (equals log.eventCount after `extend`). */
  private indexed = 0;
  /** The turn number (as dsh numbers them) each event sits in, or -1. */
  readonly turnOf = new IntList();
  /** The step number inside its turn, or -1. */
  readonly stepOf = new IntList();
  private openTurn = NONE;
  private openStep = NONE;
  /** Turns seen (turn/start events). */
  turns = 0;
  /** Seqs of turn/start and step/start events, ascending. */
  readonly turnStarts = new IntList();
  readonly stepStarts = new IntList();
  /** Append-origin surface events in log order (the transcript). */
  readonly transcript = new IntList();
  /** Events with a surface op (append or replace), in log order: what as-of replays. */
  readonly surfaceEvents = new IntList();
  /** Seqs of replacement events, ascending. */
  readonly replacementSeqs = new IntList();

  /** seq -> position in the current surface, or -1; valid for `surfaceGeneration`. */
  private readonly surfacePos = new IntList();
  private surfaceGeneration = -1;
  private surfaceIndexed = 0;
  /** seq -> the replacement that shadowed it, or -1. */
  private readonly shadowedBy = new IntList();
  private replacementsSeen = 0;

  /** Per seq: 1 when the event gives a derived message, 0 when not, -1 unknown (lazily computed). */
  private readonly givesMessage = new IntList();
  /** The surface nodes that give a message (Model view rows), valid for `messagesGeneration`. */
  private readonly messageNodes = new IntList();
  private messagesGeneration = -1;
  private messagesFromNode = 0;

  constructor(
    private readonly log: SessionLog,
    readonly load: number,
  ) {
    this.extend();
  }

  get generation(): Generation {
    return { events: this.log.eventCount, replaceGeneration: this.log.replaceGeneration(), load: this.load };
  }

  /** Indexes events added since the last call. Returns true when the surface changed. */
  extend(): boolean {
    const log = this.log;
    const count = log.eventCount;
    const from = this.indexed;
    for (let seq = from; seq < count; seq++) {
      const type = log.eventType(seq);
      if (type === 'turn/start') {
        this.openTurn = log.turn(seq) ?? this.openTurn;
        this.openStep = NONE;
        this.turns += 1;
        this.turnStarts.push(seq);
      } else if (type === 'step/start') {
        this.openStep = log.step(seq) ?? this.openStep;
        this.stepStarts.push(seq);
      }
      this.turnOf.push(log.turn(seq) ?? this.openTurn);
      this.stepOf.push(log.step(seq) ?? this.openStep);
      if (type === 'turn/end') {
        this.openTurn = NONE;
        this.openStep = NONE;
      } else if (type === 'step/end') this.openStep = NONE;
      const role = log.surfaceRole(seq);
      if (role !== SurfaceRole.None) this.surfaceEvents.push(seq);
      if (role === SurfaceRole.Append) this.transcript.push(seq);
      if (role === SurfaceRole.Replace) this.replacementSeqs.push(seq);
    }
    this.indexed = count;
    this.givesMessage.grow(count, -1);
    this.shadowedBy.grow(count, NONE);
    const replacements = log.replacements();
    for (let i = this.replacementsSeen; i < replacements.length; i++) {
      for (const s of replacements[i].shadowedSeqs) if (s < count) this.shadowedBy.set(s, replacements[i].seq);
    }
    this.replacementsSeen = replacements.length;
    return this.refreshSurface(from);
  }

  /** Keeps seq -> surface position current: extends it for appended nodes, rebuilds after a replace. */
  private refreshSurface(from: number): boolean {
    const surface = this.log.surface();
    const generation = this.log.replaceGeneration();
    this.surfacePos.grow(this.indexed, NONE);
    if (generation !== this.surfaceGeneration) {
      this.surfacePos.truncate(0);
      this.surfacePos.grow(this.indexed, NONE);
      for (let i = 0; i < surface.length; i++) this.surfacePos.set(surface[i], i);
      this.surfaceIndexed = surface.length;
      const changed = this.surfaceGeneration !== -1 || from > 0;
      this.surfaceGeneration = generation;
      return changed;
    }
    const before = this.surfaceIndexed;
    for (let i = before; i < surface.length; i++) this.surfacePos.set(surface[i], i);
    this.surfaceIndexed = surface.length;
    return surface.length !== before;
  }

  surfaceIndexOf(seq: number): number | undefined {
    const p = seq >= 0 && seq < this.surfacePos.length ? this.surfacePos.get(seq) : NONE;
    return p >= 0 ? p : undefined;
  }

  shadowingReplacement(seq: number): number | undefined {
    const r = seq >= 0 && seq < this.shadowedBy.length ? this.shadowedBy.get(seq) : NONE;
    return r >= 0 ? r : undefined;
  }

  surfaceMark(seq: number): 'node' | 'shadowed' | 'none' {
    if (this.surfaceIndexOf(seq) !== undefined) return 'node';
    return this.shadowingReplacement(seq) !== undefined ? 'shadowed' : 'none';
  }

  turnAt(seq: number): number | undefined {
    const t = this.turnOf.get(seq);
    return t >= 0 ? t : undefined;
  }

  stepAt(seq: number): number | undefined {
    const s = this.stepOf.get(seq);
    return s >= 0 ? s : undefined;
  }

  /** Whether the event gives a derived message when it is a surface node (parsed once, remembered). */
  givesMessageAt(seq: number): boolean {
    const known = this.givesMessage.get(seq);
    if (known >= 0) return known === 1;
    const type = this.log.eventType(seq);
    let gives = type === 'user/message' || type === 'tool/result';
    // An assistant message or a system prompt with no content projects no message (an empty system
    // head means "no system prompt"); a developer message always gives one.
    if (type === 'assistant/message' || type === 'system/message' || type === 'developer/message') {
      const event = this.log.event(seq);
      gives = event !== undefined && derivedMessageOf(event) !== null;
    }
    this.givesMessage.set(seq, gives ? 1 : 0);
    return gives;
  }

  /**
   * The surface nodes that give a derived message, in surface order: the Model view's rows, exactly
   * `deriveMessages()`. Extended for appended nodes; rebuilt (lazily, on request) after a replace.
   */
  messageRows(): IntList {
    const surface = this.log.surface();
    const generation = this.log.replaceGeneration();
    if (generation !== this.messagesGeneration) {
      this.messageNodes.truncate(0);
      this.messagesFromNode = 0;
      this.messagesGeneration = generation;
    }
    for (let i = this.messagesFromNode; i < surface.length; i++) if (this.givesMessageAt(surface[i])) this.messageNodes.push(surface[i]);
    this.messagesFromNode = surface.length;
    return this.messageNodes;
  }
}
