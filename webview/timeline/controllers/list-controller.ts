// The list: the rows of the current order and filter (pulled by window into a RowCache), how many there
// are, the active row (the keyboard's place), and where the list stands — which rows are drawn and
// visible, whether it follows the end of a live log, how much was appended out of sight. Changing the
// order or the filter starts the rows again. The drawn list itself (virtual-rows) is reached through
// the ListSurface the element hands in.
import type { Generation, RowFilter, TimelineRow } from '../../../src/protocol';
import { REPAIRS_FILTER } from '../type-choices';
import { t } from '../strings';
import { PAGE_SIZE, RowCache } from './row-cache';
import { TimelineController, type TimelineHost } from './timeline-host';
import { orderLabel, type Order, type ViewState } from './view-state';

export type ScrollBlock = 'start' | 'center' | 'end' | 'nearest';

/** What the drawn list reports as it scrolls. */
export interface RowsRange {
  /** First and last rows drawn (the viewport and the overscan). */
  first: number;
  last: number;
  /** First and last rows in the viewport. */
  visibleFirst: number;
  visibleLast: number;
  /** The scroll offset then: a smaller one than before means the list was moved up. */
  offset: number;
}

/** The drawn list, as the element gives it. */
export interface ListSurface {
  /** Row `index` into view; when the list is not drawn yet, or does not know the row yet, after its next draw. */
  scrollToIndex(index: number, block: ScrollBlock): void;
  /** Tells the drawn list its new count now (a scroll to the new last row may follow before a redraw). */
  setCount(total: number): void;
  /** Rows arrived for the list as it is: it draws them again, at most once a frame. */
  redrawSoon(): void;
  /** The rows' measured sizes belong to the old rows. */
  forgetSizes(): void;
  /** Whether the list is drawn at all (an empty list draws a note instead). */
  readonly drawn: boolean;
  /** Resolves when the drawn list has drawn what it was told. */
  settled(): Promise<unknown>;
}

export interface ListOptions {
  surface: ListSurface;
  /** The host's generation as last heard (a summary, an append): pages from before it are stale. */
  generation(): Generation | undefined;
  /** Chunk runs shown expanded (the expansion controller's). */
  expandedRuns(): readonly number[];
  /** The order or the filter changed (row indexes of the old view mean nothing now). */
  onViewChanged(): void;
}

export class ListController extends TimelineController {
  total = 0;
  /** The row the keyboard is on. */
  activeIndex = 0;
  /** False until the first window of the current view answers: an empty list is then "loading", not "no events". */
  rowsArrived = false;
  /** Events appended since the list stopped following the end (offered with "Follow the end"). */
  appendedUnseen = 0;
  cache: RowCache<TimelineRow>;
  /** The rows in the viewport, as last reported. */
  visible = { first: 0, last: 0 };
  /** The rows the list draws (the viewport and its overscan). */
  private drawn = { first: 0, last: 0 };
  private restoredScroll = false;
  /** The list's scroll offset at its last reported range. */
  private lastOffset: number | undefined;
  /** Run once, when rows are next on screen (each once). */
  private readonly whenShown: (() => void)[] = [];

  constructor(
    host: TimelineHost,
    private readonly view: ViewState,
    private readonly options: ListOptions,
  ) {
    super(host);
    this.cache = this.newCache();
  }

  get order(): Order {
    return this.view.order;
  }

  /** The filter of the rows requests: the type filter, collapsed chunk runs (but the expanded ones), repairs only. */
  filter(): RowFilter {
    const types = this.view.filter.filter((f) => f !== REPAIRS_FILTER);
    const filter: RowFilter = {
      types: types.length ? types : undefined,
      collapseChunkRuns: true,
      expandedRuns: [...this.options.expandedRuns()],
    };
    if (this.view.filter.includes(REPAIRS_FILTER)) filter.repairsOnly = true;
    return filter;
  }

  row(index: number): TimelineRow | undefined {
    return this.cache.get(index);
  }

  /** Runs `then` once, the next time rows are on screen. */
  whenRowsShown(then: () => void): void {
    this.whenShown.push(then);
  }

  private newCache(): RowCache<TimelineRow> {
    return new RowCache<TimelineRow>(
      async (start, count) => {
        const { result, generation } = await this.host.request('rows', { order: this.view.order, start, count, filter: this.filter() });
        return { rows: result.rows, total: result.total, generation: generationKey(generation) };
      },
      (total, firstArrived, lastArrived) => {
        const first = !this.rowsArrived;
        this.rowsArrived = true;
        if (total !== this.total) this.setTotal(total);
        // Rows arriving for the same list change only the rows: the list redraws, not the whole view,
        // at most once a frame, and only when they are drawn (a fast scroll leaves windows behind).
        if (first || !this.options.surface.drawn) this.host.requestUpdate();
        else if (firstArrived <= this.drawn.last && lastArrived >= this.drawn.first) this.options.surface.redrawSoon();
        this.afterRowsArrive();
      },
    );
  }

  /** Starts the current order/filter from nothing (a load, an order or filter change, a run expanded). */
  reset(): void {
    this.rowsArrived = false;
    this.cache.close();
    this.cache = this.newCache();
    const generation = this.options.generation();
    if (generation) this.cache.stale(generationKey(generation));
    this.restoredScroll = false;
    this.lastOffset = undefined;
    // One round trip to the first rows: the first page brings the total with it. A followed log
    // starts from its end instead, which needs the total first.
    if (this.view.following) void this.refreshTotal();
    else this.cache.ensure(0, 0);
    // When the total does not change (a reload of the same file), the list reports no new range, so
    // the rows on screen must be asked for here or they stay placeholders.
    this.cache.ensure(this.visible.first, this.visible.last);
    this.options.surface.forgetSizes();
  }

  /** A live log grew: pages from before are stale; the count and the rows in view are asked again. */
  onAppended(added: number, generation: Generation): void {
    if (!this.view.following) this.appendedUnseen += added;
    this.cache.stale(generationKey(generation));
    this.cache.ensure(this.visible.first, this.visible.last);
    void this.refreshTotal();
  }

  async refreshTotal(): Promise<void> {
    const order = this.view.order;
    const { result } = await this.host.request('rows', { order, start: Math.max(0, this.total - 50), count: 50, filter: this.filter() });
    if (order !== this.view.order) return;
    this.rowsArrived = true;
    if (result.total !== this.total) this.setTotal(result.total);
    else this.host.requestUpdate();
    if (this.view.following) this.cache.ensure(Math.max(0, this.total - 1 - (this.visible.last - this.visible.first)), this.total - 1);
    if (this.view.following && this.restoredScroll) this.scrollToIndex(this.total - 1, 'end');
  }

  private setTotal(total: number): void {
    this.total = total;
    this.options.surface.setCount(total);
    this.activeIndex = Math.min(this.activeIndex, Math.max(0, total - 1));
    this.host.requestUpdate();
  }

  private afterRowsArrive(): void {
    if (this.whenShown.length && this.total > 0 && this.cache.get(this.visible.first) !== undefined)
      for (const then of this.whenShown.splice(0)) then();
    if (!this.restoredScroll && this.total > 0) {
      this.restoredScroll = true;
      void this.restoreScroll();
    }
  }

  /** Back to the selected (or top) event of the state VS Code kept, or to the end of a followed log. */
  private async restoreScroll(): Promise<void> {
    const seq = this.view.selectedSeq ?? this.view.topSeq;
    if (seq !== undefined && !this.view.following) {
      const index = await this.rowOf(seq);
      if (index !== undefined) {
        this.activeIndex = index;
        this.scrollToIndex(index, 'center');
        this.host.requestUpdate();
        return;
      }
    }
    if (this.view.following) this.scrollToIndex(this.total - 1, 'end');
  }

  /** The row of `seq` in the current order and filter (undefined when it has none there). */
  async rowOf(seq: number, order: Order = this.view.order): Promise<number | undefined> {
    const { result } = await this.host.request('rowOf', { order, seq, filter: this.filter() });
    return result.index;
  }

  /** Whether the list follows the end; once it does again, nothing appended is left unseen. */
  setFollowing(on: boolean): void {
    this.view.following = on;
    if (on) this.appendedUnseen = 0;
  }

  /** "Follow the end": back to the last row, following appends again. */
  followEnd(): void {
    this.setFollowing(true);
    this.scrollToEnd();
    this.host.requestUpdate();
  }

  /** The drawn list moved: its rows are asked for (once it stops, when it passes a page a frame). */
  onRange(range: RowsRange): void {
    const { first, last, visibleFirst, visibleLast, offset } = range;
    // A list moved further than a page in one frame (a scroll bar dragged fast) asks for its rows once
    // it stays put for a frame: windows the user only passes through are never fetched.
    const passing = Math.abs(first - this.drawn.first) > PAGE_SIZE;
    const drawn = (this.drawn = { first, last });
    if (!passing) this.cache.ensure(first, last + 20);
    else
      // The next frame's callbacks run after its scroll events: the range held for a whole frame.
      void this.host
        .nextFrame()
        .then(() => this.host.nextFrame())
        .then(() => {
          if (this.drawn === drawn) this.cache.ensure(first, last + 20);
        });
    this.onVisible(visibleFirst, visibleLast, offset);
  }

  private onVisible(first: number, last: number, offset: number): void {
    this.visible = { first, last };
    // Following the tail means the last row is in view; moving the list up stops it, scrolling back to
    // the end resumes it. A list that only got shorter (a banner above it opened) or longer (an append)
    // still follows: it is brought back to its end.
    const atEnd = this.total > 0 && last >= this.total - 1;
    const movedUp = this.lastOffset !== undefined && offset < this.lastOffset;
    this.lastOffset = offset;
    if (this.restoredScroll && this.view.following && !atEnd && !movedUp) this.scrollToIndex(this.total - 1, 'end');
    else if (atEnd !== this.view.following && this.restoredScroll) {
      this.setFollowing(atEnd);
      this.view.save();
      this.host.requestUpdate();
    }
    const top = this.cache.get(first);
    if (top && top.seq !== this.view.topSeq) {
      this.view.topSeq = top.seq;
      this.view.save();
    }
    this.afterRowsArrive();
  }

  scrollToIndex(index: number, block: ScrollBlock = 'nearest'): void {
    if (index >= 0 && index < this.total) this.options.surface.scrollToIndex(index, block);
  }

  /** Resolves when the drawn list has drawn what it was told. */
  settled(): Promise<unknown> {
    return this.options.surface.settled();
  }

  /** Brings the last row into view (ghost rows and the torn tail sit after it). */
  scrollToEnd(): void {
    this.scrollToIndex(this.total - 1, 'end');
  }

  /** Rows a Page Up/Down moves: a screen, less one row. */
  get page(): number {
    return Math.max(1, this.visible.last - this.visible.first - 1);
  }

  async setOrder(order: Order): Promise<void> {
    if (order === this.view.order) return;
    const keep = this.view.selectedSeq;
    this.view.order = order;
    this.view.save();
    this.reset();
    this.options.onViewChanged();
    this.host.say(t(orderLabel(order)));
    if (keep !== undefined) {
      const index = await this.rowOf(keep, order);
      if (index !== undefined) {
        this.activeIndex = index;
        await this.host.updateComplete;
        this.scrollToIndex(index, 'center');
      } else this.activeIndex = 0;
    }
    this.host.requestUpdate();
  }

  setTypeFilter(type: string): void {
    this.view.filter = type ? [type] : [];
    this.view.save();
    this.activeIndex = 0;
    this.reset();
    this.options.onViewChanged();
  }

  /** The Full log with no filter: where every event has a row. */
  showEveryEvent(): void {
    this.view.order = 'log';
    this.view.filter = [];
    this.reset();
  }
}

/** A generation stamp as the row cache compares it. */
function generationKey(g: Generation): string {
  return `${g.load}:${g.replaceGeneration}:${g.events}`;
}
