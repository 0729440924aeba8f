// Which event each row of an order shows, with a filter applied: the Full log (seq order, packed
// chunk runs optionally collapsed to one row), the Model view (surface nodes that give a derived
// message, in surface order) and the Transcript. A list is built on first request and extended as
// the log grows; a surface replace rebuilds only the Model view's list, when it is next asked for.
import type { SessionLog } from '../../core';
import type { RowFilter, RowOrder } from '../../protocol';
import { IntList, type TimelineIndex } from './timeline-index';

/** One order with one filter: row i shows seq `seqs[i]` (and, for a chunk run, up to `runEnds[i]`). */
export interface RowList {
  readonly length: number;
  seqAt(row: number): number;
  /** Last seq of a collapsed chunk run at `row`, or undefined for a single event. */
  runEndAt(row: number): number | undefined;
  /** The row showing `seq` (the run containing it), or undefined. */
  rowOf(seq: number): number | undefined;
}

const CHUNK = 'assistant/chunk';

/** An extra condition on the events a list keeps (the repairs filter). */
type SeqTest = (seq: number) => boolean;

/** The unfiltered Full log: row i is seq i. */
class IdentityList implements RowList {
  constructor(private readonly log: SessionLog) {}
  get length(): number {
    return this.log.eventCount;
  }
  seqAt(row: number): number {
    return row;
  }
  runEndAt(): undefined {
    return undefined;
  }
  rowOf(seq: number): number | undefined {
    return seq >= 0 && seq < this.log.eventCount ? seq : undefined;
  }
}

/** A list of seqs ascending (log order, transcript), filtered, with optional chunk-run collapsing. */
class FilteredLogList implements RowList {
  private readonly seqs = new IntList();
  private readonly runEnds = new IntList();
  private scanned = 0;
  /** The last chunk taken and the first seq of its run (collapsing state across extends). */
  private lastChunk = -2;
  private runStart = -1;
  private readonly types: ReadonlySet<string> | undefined;
  private readonly collapse: boolean;
  private readonly expanded: ReadonlySet<number>;

  constructor(
    private readonly log: SessionLog,
    private readonly source: IntList | undefined,
    filter: RowFilter,
    private readonly accept?: SeqTest,
  ) {
    this.types = filter.types && filter.types.length > 0 ? new Set(filter.types) : undefined;
    this.collapse = filter.collapseChunkRuns === true;
    this.expanded = new Set(filter.expandedRuns ?? []);
    this.extend();
  }

  /** Takes in events added since the last call. */
  extend(): void {
    const end = this.source ? this.source.length : this.log.eventCount;
    for (let i = this.scanned; i < end; i++) {
      const seq = this.source ? this.source.get(i) : i;
      const type = this.log.eventType(seq) ?? '';
      if (this.types && !this.types.has(type)) continue;
      if (this.accept && !this.accept(seq)) continue;
      if (this.collapse && type === CHUNK) {
        // A run is chunks that follow each other directly in the log; it is named by its first seq.
        if (this.lastChunk !== seq - 1) this.runStart = seq;
        this.lastChunk = seq;
        const last = this.seqs.length - 1;
        if (this.runStart !== seq && !this.expanded.has(this.runStart) && last >= 0) {
          this.runEnds.set(last, seq);
          continue;
        }
      }
      this.seqs.push(seq);
      this.runEnds.push(-1);
    }
    this.scanned = end;
  }

  get length(): number {
    return this.seqs.length;
  }
  seqAt(row: number): number {
    return this.seqs.get(row);
  }
  runEndAt(row: number): number | undefined {
    const end = this.runEnds.get(row);
    return end >= 0 ? end : undefined;
  }
  rowOf(seq: number): number | undefined {
    const row = this.seqs.floorIndex(seq);
    if (row < 0) return undefined;
    if (this.seqs.get(row) === seq) return row;
    const end = this.runEnds.get(row);
    return end >= seq ? row : undefined;
  }
}

/** The Model view: surface nodes that give a message, in surface order, optionally filtered by type. */
class ModelList implements RowList {
  private byType: { generation: number; scanned: number; rows: IntList } | undefined;
  private rowBySeq: { generation: number; length: number; map: Map<number, number> } | undefined;

  constructor(
    private readonly log: SessionLog,
    private readonly index: TimelineIndex,
    private readonly types: ReadonlySet<string> | undefined,
    private readonly accept?: SeqTest,
  ) {}

  private rows(): IntList {
    const all = this.index.messageRows();
    if (!this.types && !this.accept) return all;
    const generation = this.log.replaceGeneration();
    if (!this.byType || this.byType.generation !== generation) this.byType = { generation, scanned: 0, rows: new IntList() };
    for (let i = this.byType.scanned; i < all.length; i++) {
      const seq = all.get(i);
      if ((!this.types || this.types.has(this.log.eventType(seq) ?? '')) && (!this.accept || this.accept(seq))) this.byType.rows.push(seq);
    }
    this.byType.scanned = all.length;
    return this.byType.rows;
  }

  get length(): number {
    return this.rows().length;
  }
  seqAt(row: number): number {
    return this.rows().get(row);
  }
  runEndAt(): undefined {
    return undefined;
  }
  rowOf(seq: number): number | undefined {
    const rows = this.rows();
    const generation = this.log.replaceGeneration();
    if (!this.rowBySeq || this.rowBySeq.generation !== generation) this.rowBySeq = { generation, length: 0, map: new Map() };
    for (let i = this.rowBySeq.length; i < rows.length; i++) this.rowBySeq.map.set(rows.get(i), i);
    this.rowBySeq.length = rows.length;
    return this.rowBySeq.map.get(seq);
  }
}

/** Row lists by order and filter, remembered (a few) so scrolling one view reuses its list. */
export class RowLists {
  private readonly cache = new Map<string, RowList>();
  private readonly identity: IdentityList;

  constructor(
    private readonly log: SessionLog,
    private readonly index: TimelineIndex,
    private readonly isRepair: SeqTest = () => false,
  ) {
    this.identity = new IdentityList(log);
  }

  /** Lists filtered to repairs are built again when a repair is found in a grown log. */
  forgetRepairLists(): void {
    for (const key of [...this.cache.keys()]) if (key.endsWith(',true]')) this.cache.delete(key);
  }

  list(order: RowOrder, filter: RowFilter = {}): RowList {
    const repairsOnly = filter.repairsOnly === true;
    const plain = !filter.types?.length && !filter.collapseChunkRuns && !repairsOnly;
    if (order === 'log' && plain) return this.identity;
    const key = JSON.stringify([
      order,
      filter.types ?? [],
      filter.collapseChunkRuns === true,
      filter.collapseChunkRuns ? (filter.expandedRuns ?? []) : [],
      repairsOnly,
    ]);
    let list = this.cache.get(key);
    if (!list) {
      if (this.cache.size >= 16) this.cache.delete(this.cache.keys().next().value!);
      const types = filter.types?.length ? new Set(filter.types) : undefined;
      const accept = repairsOnly ? this.isRepair : undefined;
      list =
        order === 'surface'
          ? new ModelList(this.log, this.index, types, accept)
          : new FilteredLogList(this.log, order === 'transcript' ? this.index.transcript : undefined, filter, accept);
      this.cache.set(key, list);
    } else if (list instanceof FilteredLogList) {
      list.extend();
    }
    return list;
  }
}
