// Compaction transactions (spec §6 relationships, §7): start, one summary, end, in the turn that was
// open at the start (or between turns); a checkpoint replacement names the active compaction. A
// compaction the inherited prefix left unfinished expires at the seed marker.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { formatCount, type JsonObject } from '../../json';
import { nonEmptyText } from './checks';

interface OpenCompaction {
  readonly id: string;
  readonly command: unknown;
  readonly turn: number | null;
  readonly seq: number;
  summarized: boolean;
}

export class Compactions {
  private open: OpenCompaction | undefined;

  /**
   * The seq of the open compaction's start. A turn boundary may not cross it, unless an inherited
   * prefix left it open at its seed marker (see OrphanStarts).
   */
  get openStart(): number | undefined {
    return this.open?.seq;
  }

  /** The inherited cut ends whatever the prefix left open. */
  expire(): void {
    this.open = undefined;
  }

  accept(event: FormatEvent, data: JsonObject, turn: number | null): void {
    if (event.type === 'compaction/start') {
      if (this.open !== undefined) throw new SessionFormatError('compaction/start overlaps an open compaction');
      const owner = data.turn === null ? null : formatCount(data.turn, 'compaction turn');
      if (owner !== turn) throw new SessionFormatError('compaction/start does not match the open turn');
      this.open = {
        id: nonEmptyText(data.compactionId, 'compactionId'),
        command: data.sourceCommandId,
        turn: owner,
        seq: event.seq,
        summarized: false,
      };
      return;
    }
    const current = this.owner(data, event.type);
    if (current.turn !== turn) throw new SessionFormatError(`${event.type} does not match the open turn`);
    if (event.type === 'compaction/summary') {
      if (current.summarized) throw new SessionFormatError('compaction/summary repeats');
      current.summarized = true;
      return;
    }
    if (data.turn !== current.turn) throw new SessionFormatError('compaction/end changes its owner turn');
    if (data.error === undefined && !current.summarized) throw new SessionFormatError('successful compaction/end requires one summary');
    this.open = undefined;
  }

  /** The open compaction that `ids` (a payload or a checkpoint's source) names. */
  owner(ids: JsonObject, subject: string): OpenCompaction {
    const open = this.open;
    if (open === undefined || open.id !== ids.compactionId || open.command !== ids.sourceCommandId) {
      throw new SessionFormatError(`${subject} has no matching compaction/start`);
    }
    return open;
  }
}

/**
 * The compaction/starts an inherited prefix left open: a start followed by a session/end-seed marker
 * before any compaction/end (known events only). Told as the events go past, so a start's fate is
 * `pending` until the next compaction/start, compaction/end or marker, or the end of the log.
 */
export class OrphanStarts {
  private start: number | undefined;
  private readonly orphans = new Set<number>();

  /** The next known event. */
  observe(event: FormatEvent): void {
    if (event.type === 'compaction/start') this.start = event.seq;
    else if (event.type === 'compaction/end') this.start = undefined;
    else if (event.type === 'session/end-seed') {
      if (this.start !== undefined) this.orphans.add(this.start);
      this.start = undefined;
    }
  }

  /** Whether the compaction/start at `seq` is an orphan, as far as the events so far tell. */
  status(seq: number): 'orphan' | 'not' | 'pending' {
    if (this.orphans.has(seq)) return 'orphan';
    return seq === this.start ? 'pending' : 'not';
  }
}
