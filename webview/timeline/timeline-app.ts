// The session editor's main view: the timeline of the log with the surface as its spine. It holds only
// view state (order, filter, selection, what is expanded); rows, details and provenance are asked of
// the host by window, and dropped when the host's generation moves on.
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import './virtual-rows';
import type { RowsRangeEvent, ScrollBlock, VirtualRows } from './virtual-rows';
import type {
  AppendedMessage,
  EventDetail,
  LoadingMessage,
  Overview,
  PendingEventRow,
  ProvenanceView,
  RowFilter,
  SearchProgressMessage,
  SessionSummary,
  ShadowBracket,
  TimelineRow,
} from '../../src/protocol/messages';
import { Announcer } from './announcer';
import { renderHealth, renderLoading } from './health-view';
import { renderInspector } from './inspector-view';
import { NavHistory } from './nav-history';
import { OverviewStrip } from './overview-strip';
import { PAGE_SIZE, RowCache } from './row-cache';
import { renderRow, rowClick, rowDomId, type RowContext, type RowHandlers } from './row-view';
import { HostClient } from './rpc';
import { SearchState } from './search-state';
import { AsOfPanel } from './asof-panel';
import { TimePanel } from './time-panel';
import { loadViewState, saveViewState, type Order, type TimelineViewState } from './view-state';
import { EVENT_TYPE_CHOICES, REPAIRS_FILTER } from './type-choices';
import { CrashReviewState } from './crash-review-state';
import { renderPendingRows } from './pending-rows';
import { formatNumber, label, t } from './strings';
import type { WebviewString } from '../../src/protocol/webview-strings';

const LIST_ID = 'timeline-list';
/** How long a selection waits for the inspector's content before it is drawn on its own. */
const SLOW_DETAIL_MS = 100;
const ORDERS: { order: Order; label: WebviewString; key: string }[] = [
  { order: 'surface', label: 'Model view', key: '1' },
  { order: 'log', label: 'Full log', key: '2' },
  { order: 'transcript', label: 'Transcript', key: '3' },
];

export class TimelineApp extends LitElement {
  readonly client = new HostClient();
  private readonly announcer = new Announcer();
  private view: TimelineViewState = loadViewState();
  private loading: LoadingMessage | undefined;
  private failed: string | undefined;
  private summary: SessionSummary | undefined;
  private total = 0;
  private cache: RowCache<TimelineRow> = this.newCache();
  private activeIndex = 0;
  private detail: EventDetail | undefined;
  private detailLoading = false;
  private provenance: ProvenanceView | undefined;
  private highlighted = new Set<number>();
  private brackets = new Map<number, ShadowBracket>();
  private readonly expandedBrackets = new Set<number>();
  private readonly bracketRowCache = new Map<number, TimelineRow>();
  private readonly expandedRuns = new Set<number>();
  private readonly history = new NavHistory<number>();
  readonly search = new SearchState(this);
  private overview: Overview | undefined;
  private readonly strip = new OverviewStrip((seq) => void this.jumpTo(seq, { record: true, focusList: false }));
  readonly asOf = new AsOfPanel(this);
  readonly time = new TimePanel(this);
  private restoredScroll = false;
  private sideLoadsPending = false;
  private firstPaintReported = false;
  private lastVisible = { first: 0, last: 0 };
  /** The rows the list draws (the viewport and its overscan). */
  private drawn = { first: 0, last: 0 };
  private listRedrawPending = false;
  /** The list's scroll offset at its last reported range. */
  private lastOffset: number | undefined;
  /** Events appended since the list stopped following the end (offered with "Follow the end"). */
  private appendedUnseen = 0;
  private readonly crash = new CrashReviewState(this);
  private pendingEvents: readonly PendingEventRow[] = [];
  private rangeAnchor: number | undefined;
  /** False until the first window of the current view answers: an empty list is then "loading", not "no events". */
  private rowsArrived = false;
  /** Child sessions of this one in the sessions folder (asked once per load). */
  private childSessions = 0;

  override createRenderRoot(): this {
    return this; // light DOM: the page's stylesheet and the codicon font apply, tests and AT see plain DOM
  }

  // ---- host traffic ---------------------------------------------------------------------------

  onLoading(m: LoadingMessage): void {
    this.loading = m;
    this.failed = undefined;
    document.body.dataset.progressDrawn = String(Number(document.body.dataset.progressDrawn ?? '0') + 1);
    this.requestUpdate();
  }

  onFailed(message: string): void {
    this.failed = message;
    this.loading = undefined;
    this.requestUpdate();
  }

  onSummary(s: SessionSummary): void {
    const first = !this.summary || this.summary.generation.load !== s.generation.load;
    const wasLive = this.summary?.liveText;
    this.summary = s;
    this.loading = undefined;
    this.failed = undefined;
    if (first) {
      // A closed log opens at its start; a live one at its end, following appends.
      if (this.view.topSeq === undefined && this.view.selectedSeq === undefined) this.setFollowing(s.live === 'live');
      (window as unknown as { __timelineLoadDone?: number }).__timelineLoadDone = performance.now();
      this.resetView();
      // Rows first: the brackets and the overview are asked for once the first rows are drawn.
      this.sideLoadsPending = true;
      void this.loadChildren();
      if (this.view.selectedSeq !== undefined) void this.select(this.view.selectedSeq, { scroll: false });
    } else if (wasLive !== s.liveText) {
      this.announcer.say(label(s.liveText));
    }
    void this.crash.load();
    this.requestUpdate();
  }

  onAppended(m: AppendedMessage): void {
    if (!this.summary) return;
    const liveChanged = this.summary.liveText !== m.liveText;
    // The appended note carries numbers; the header shows them as worded facts, so word the counts
    // that an append changes in the display language, as the summary's were.
    const counted: Record<string, number> = { events: m.counts.events, turns: m.counts.turns, packedRows: m.counts.packedRows };
    const facts = this.summary.facts.map((f) => (f.name in counted ? { ...f, value: formatNumber(counted[f.name]), full: undefined } : f));
    this.summary = { ...this.summary, facts, counts: m.counts, live: m.live, liveText: m.liveText, file: m.file, generation: m.generation };
    if (liveChanged) this.announcer.say(label(m.liveText));
    if (!this.view.following) this.appendedUnseen += m.added;
    if (m.surfaceChanged) void this.loadBrackets();
    this.cache.stale(generationKey(m.generation));
    this.cache.ensure(this.lastVisible.first, this.lastVisible.last);
    void this.refreshTotal();
    void this.loadOverview();
    this.asOf.onAppended();
    this.crash.onAppended();
    this.requestUpdate();
  }

  onPendingEdits(events: readonly PendingEventRow[]): void {
    this.pendingEvents = events;
    this.requestUpdate();
  }

  onSearchProgress(m: SearchProgressMessage): void {
    this.search.onProgress(m);
  }

  // ---- rows -----------------------------------------------------------------------------------

  private filter(): RowFilter {
    const types = this.view.filter.filter((f) => f !== REPAIRS_FILTER);
    const filter: RowFilter = { types: types.length ? types : undefined, collapseChunkRuns: true, expandedRuns: [...this.expandedRuns] };
    if (this.view.filter.includes(REPAIRS_FILTER)) filter.repairsOnly = true;
    return filter;
  }

  private newCache(): RowCache<TimelineRow> {
    return new RowCache<TimelineRow>(
      async (start, count) => {
        const order = this.view.order;
        const { result, generation } = await this.client.request('rows', { order, start, count, filter: this.filter() });
        return { rows: result.rows, total: result.total, generation: generationKey(generation) };
      },
      (total, firstArrived, lastArrived) => {
        const first = !this.rowsArrived;
        this.rowsArrived = true;
        if (total !== this.total) this.setTotal(total);
        // Rows arriving for the same list change only the rows: the list redraws, not the whole view,
        // at most once a frame, and only when they are drawn (a fast scroll leaves windows behind).
        if (first || !this.list) this.requestUpdate();
        else if (firstArrived <= this.drawn.last && lastArrived >= this.drawn.first) this.redrawListSoon();
        this.afterRowsArrive();
      },
    );
  }

  /** Starts the current order/filter from nothing (first load, order or filter change). */
  private resetView(): void {
    this.rowsArrived = false;
    this.cache.close();
    this.cache = this.newCache();
    if (this.summary) this.cache.stale(generationKey(this.summary.generation));
    this.restoredScroll = false;
    this.lastOffset = undefined;
    // One round trip to the first rows: the first page brings the total with it. A followed log
    // starts from its end instead, which needs the total first.
    if (this.view.following) void this.refreshTotal();
    else this.cache.ensure(0, 0);
    // When the total does not change (a reload of the same file), the list reports no new range, so
    // the rows on screen must be asked for here or they stay placeholders.
    this.cache.ensure(this.lastVisible.first, this.lastVisible.last);
    this.list?.forgetSizes();
  }

  private async refreshTotal(): Promise<void> {
    const order = this.view.order;
    const { result } = await this.client.request('rows', { order, start: Math.max(0, this.total - 50), count: 50, filter: this.filter() });
    if (order !== this.view.order) return;
    this.rowsArrived = true;
    if (result.total !== this.total) this.setTotal(result.total);
    else this.requestUpdate();
    if (this.view.following)
      this.cache.ensure(Math.max(0, this.total - 1 - (this.lastVisible.last - this.lastVisible.first)), this.total - 1);
    if (this.view.following && this.restoredScroll) this.scrollToIndex(this.total - 1, 'end');
  }

  private setTotal(total: number): void {
    this.total = total;
    // The list learns the count now, not at the next redraw: a scroll to the new last row may follow.
    if (this.list) this.list.count = total;
    this.activeIndex = Math.min(this.activeIndex, Math.max(0, total - 1));
    this.requestUpdate();
  }

  private afterRowsArrive(): void {
    if (!this.firstPaintReported && this.total > 0 && this.cache.get(this.lastVisible.first) !== undefined) {
      this.firstPaintReported = true;
      requestAnimationFrame(() => {
        const w = window as unknown as { __timelineFirstRows?: number; __timelineLoadDone?: number };
        w.__timelineFirstRows = performance.now();
        document.body.dataset.firstRowsPainted = 'true';
      });
    }
    if (this.sideLoadsPending && this.total > 0) {
      this.sideLoadsPending = false;
      setTimeout(() => {
        void this.loadBrackets();
        void this.loadOverview();
      }, 0);
    }
    if (!this.restoredScroll && this.total > 0) {
      this.restoredScroll = true;
      void this.restoreScroll();
    }
  }

  private async restoreScroll(): Promise<void> {
    const seq = this.view.selectedSeq ?? this.view.topSeq;
    if (seq !== undefined && !this.view.following) {
      const { result } = await this.client.request('rowOf', { order: this.view.order, seq, filter: this.filter() });
      if (result.index !== undefined) {
        this.activeIndex = result.index;
        this.scrollToIndex(result.index, 'center');
        this.requestUpdate();
        return;
      }
    }
    if (this.view.following) this.scrollToIndex(this.total - 1, 'end');
  }

  /** Whether the list follows the end; once it does again, nothing appended is left unseen. */
  private setFollowing(on: boolean): void {
    this.view.following = on;
    if (on) this.appendedUnseen = 0;
  }

  /** Rows that arrive in one frame (several pages, several answers) are drawn together, in the next. */
  private redrawListSoon(): void {
    if (this.listRedrawPending) return;
    this.listRedrawPending = true;
    requestAnimationFrame(() => {
      this.listRedrawPending = false;
      this.list?.requestUpdate();
    });
  }

  private onRange(e: RowsRangeEvent): void {
    const { first, last, visibleFirst, visibleLast, offset } = e.range;
    // A list moved further than a page in one frame (a scroll bar dragged fast) asks for its rows once
    // it stays put for a frame: windows the user only passes through are never fetched.
    const passing = Math.abs(first - this.drawn.first) > PAGE_SIZE;
    const drawn = (this.drawn = { first, last });
    if (!passing) this.cache.ensure(first, last + 20);
    else
      requestAnimationFrame(() =>
        // The next frame's callbacks run after its scroll events: the range held for a whole frame.
        requestAnimationFrame(() => {
          if (this.drawn === drawn) this.cache.ensure(first, last + 20);
        }),
      );
    this.onVisibility({ first: visibleFirst, last: visibleLast, offset });
  }

  private onVisibility(e: { first: number; last: number; offset: number }): void {
    this.lastVisible = { first: e.first, last: e.last };
    // Following the tail means the last row is in view; moving the list up stops it, scrolling back to
    // the end resumes it. A list that only got shorter (a banner above it opened) or longer (an append)
    // still follows: it is brought back to its end.
    const atEnd = this.total > 0 && e.last >= this.total - 1;
    const movedUp = this.lastOffset !== undefined && e.offset < this.lastOffset;
    this.lastOffset = e.offset;
    if (this.restoredScroll && this.view.following && !atEnd && !movedUp) this.scrollToIndex(this.total - 1, 'end');
    else if (atEnd !== this.view.following && this.restoredScroll) {
      this.setFollowing(atEnd);
      saveViewState(this.view);
      this.requestUpdate();
    }
    const top = this.cache.get(e.first);
    if (top && top.seq !== this.view.topSeq) {
      this.view.topSeq = top.seq;
      saveViewState(this.view);
    }
    this.afterRowsArrive();
  }

  private get list(): VirtualRows | null {
    return this.querySelector('virtual-rows');
  }

  scrollToIndex(index: number, block: ScrollBlock = 'nearest'): void {
    if (index < 0 || index >= this.total) return;
    const list = this.list;
    if (list && list.count > index) list.scrollToIndex(index, block);
    // The list is drawn, or learns its new count, at the next redraw.
    else void this.updateComplete.then(() => this.list?.scrollToIndex(index, block));
  }

  // ---- selection, inspector, provenance --------------------------------------------------------

  /**
   * Selects `seq` and shows it in the inspector. With `withDetail` the selection is drawn together with
   * the inspector's new content, in one redraw, when the host's answer comes (or after a short wait if
   * it is slow), instead of a redraw for each.
   */
  async select(
    seq: number,
    { scroll = true, index, withDetail = false }: { scroll?: boolean; index?: number; withDetail?: boolean } = {},
  ): Promise<void> {
    this.view.selectedSeq = seq;
    saveViewState(this.view);
    if (index !== undefined) this.activeIndex = index;
    this.detailLoading = true;
    const showSelection = withDetail ? setTimeout(() => this.requestUpdate(), SLOW_DETAIL_MS) : undefined;
    if (!withDetail) this.requestUpdate();
    if (scroll && index !== undefined) this.scrollToIndex(index);
    const [detail, provenance] = await Promise.allSettled([
      this.client.request('eventDetail', { seq }),
      this.client.request('provenance', { seq }),
    ]);
    clearTimeout(showSelection);
    if (this.view.selectedSeq !== seq) return;
    this.detailLoading = false;
    this.detail = detail.status === 'fulfilled' ? detail.value.result : undefined;
    this.provenance = provenance.status === 'fulfilled' ? provenance.value.result : undefined;
    this.highlighted = new Set(this.provenance?.highlight ?? []);
    this.requestUpdate();
  }

  /**
   * Shift+click or Shift+Enter grows the selection into a range of seqs from where it was (the anchor);
   * any other selection starts again. The rows' context menu then compacts exactly that range.
   */
  private extendRange(extend: boolean | undefined): void {
    this.rangeAnchor = extend ? (this.rangeAnchor ?? this.view.selectedSeq) : undefined;
    void this.updateComplete.then(() => {
      const r = this.range();
      if (r) this.announcer.say(t('Seqs {0}–{1} selected: Compact Range… in the context menu hides them', r.start, r.end));
    });
  }

  private range(): { start: number; end: number } | undefined {
    const a = this.rangeAnchor;
    const b = this.view.selectedSeq;
    if (a === undefined || b === undefined || a === b) return undefined;
    return { start: Math.min(a, b), end: Math.max(a, b) };
  }

  /** Moves to `seq` in the current order (the Full log when the order has no row for it). */
  async jumpTo(seq: number, { record = true, focusList = true } = {}): Promise<void> {
    this.rangeAnchor = undefined;
    if (record && this.view.selectedSeq !== undefined && this.view.selectedSeq !== seq) this.history.visit(this.view.selectedSeq);
    let { result } = await this.client.request('rowOf', { order: this.view.order, seq, filter: this.filter() });
    if (result.index === undefined && (this.view.order !== 'log' || this.view.filter.length)) {
      this.view.order = 'log';
      this.view.filter = [];
      this.resetView();
      ({ result } = await this.client.request('rowOf', { order: 'log', seq, filter: this.filter() }));
    }
    if (result.index === undefined) return;
    // The rows around the target first: the list then moves once, to drawn rows, not to placeholders.
    const around = Math.max(10, this.lastVisible.last - this.lastVisible.first);
    await this.cache.ready(result.index - around, result.index + around);
    this.activeIndex = result.index;
    this.setFollowing(false);
    await this.updateComplete;
    this.scrollToIndex(result.index, 'center');
    // A screen of rows drawn anew is a frame's work on its own: the selection and the inspector follow
    // in a later frame, drawn together.
    await this.list?.updateComplete;
    await nextFrame();
    await this.select(seq, { scroll: false, withDetail: true });
    if (focusList) this.focusList();
  }

  async back(): Promise<void> {
    const seq = this.history.goBack(this.view.selectedSeq);
    if (seq !== undefined) await this.jumpTo(seq, { record: false });
  }

  async forward(): Promise<void> {
    const seq = this.history.goForward(this.view.selectedSeq);
    if (seq !== undefined) await this.jumpTo(seq, { record: false });
  }

  /** Follows the next provenance link of the selection (`l`), cycling through them. */
  private linkCursor = 0;
  private async followNextLink(): Promise<void> {
    const links = this.detail?.links ?? [];
    if (!links.length) {
      this.announcer.say(t('This event has no links to follow.'));
      return;
    }
    const link = links[this.linkCursor++ % links.length];
    await this.jumpTo(link.target);
  }

  /** Brings the last row into view (ghost rows and the torn tail sit after it). */
  scrollToEnd(): void {
    this.scrollToIndex(this.total - 1, 'end');
  }

  async revealLine(line: number): Promise<void> {
    await this.reveal(line);
  }

  private async reveal(line: number): Promise<void> {
    await this.client.request('revealInTextEditor', { line }).catch(() => undefined);
  }

  // ---- brackets, chunk runs, overview -----------------------------------------------------------

  private async loadBrackets(): Promise<void> {
    const { result } = await this.client.request('shadowBrackets', {});
    this.brackets = new Map(result.brackets.map((b) => [b.replacementSeq, b]));
    this.requestUpdate();
  }

  private toggleBracket(replacementSeq: number): void {
    if (this.expandedBrackets.has(replacementSeq)) this.expandedBrackets.delete(replacementSeq);
    else {
      this.expandedBrackets.add(replacementSeq);
      void this.loadBracketRows(this.brackets.get(replacementSeq));
    }
    this.requestUpdate();
  }

  /** The shadowed nodes of a bracket, as rows of the unfiltered Full log (whose row index is the seq). */
  private async loadBracketRows(b: ShadowBracket | undefined): Promise<void> {
    if (!b) return;
    const wanted = b.shadowedSeqs.slice(0, 200).filter((seq) => !this.bracketRowCache.has(seq));
    // Nearby seqs share one window: a compaction usually shadows a contiguous stretch of the log.
    const runs: [number, number][] = [];
    for (const seq of wanted) {
      const last = runs[runs.length - 1];
      if (last && seq - last[1] <= 20 && seq - last[0] < 1000) last[1] = seq;
      else runs.push([seq, seq]);
    }
    for (const [first, last] of runs) {
      const { result } = await this.client.request('rows', { order: 'log', start: first, count: last - first + 1, filter: {} });
      for (const row of result.rows) this.bracketRowCache.set(row.seq, row);
      this.requestUpdate();
    }
  }

  private toggleRun(row: TimelineRow): void {
    if (this.expandedRuns.has(row.seq)) this.expandedRuns.delete(row.seq);
    else this.expandedRuns.add(row.seq);
    const seq = row.seq;
    this.resetView();
    void this.client.request('rowOf', { order: this.view.order, seq, filter: this.filter() }).then(({ result }) => {
      if (result.index !== undefined) {
        this.activeIndex = result.index;
        this.scrollToIndex(result.index, 'center');
      }
    });
  }

  private async loadChildren(): Promise<void> {
    const { result } = await this.client.request('lineage', {});
    this.childSessions = result.children;
    this.requestUpdate();
  }

  private async loadOverview(): Promise<void> {
    const { result } = await this.client.request('overview', { buckets: 400 });
    this.overview = result;
    this.requestUpdate();
  }

  // ---- order, filter --------------------------------------------------------------------------

  async setOrder(order: Order): Promise<void> {
    if (order === this.view.order) return;
    const keep = this.view.selectedSeq;
    this.view.order = order;
    saveViewState(this.view);
    this.resetView();
    this.search.onViewChanged();
    this.announcer.say(t(orderLabel(order)));
    if (keep !== undefined) {
      const { result } = await this.client.request('rowOf', { order, seq: keep, filter: this.filter() });
      if (result.index !== undefined) {
        this.activeIndex = result.index;
        await this.updateComplete;
        this.scrollToIndex(result.index, 'center');
      } else this.activeIndex = 0;
    }
    this.requestUpdate();
  }

  private setTypeFilter(type: string): void {
    this.view.filter = type ? [type] : [];
    saveViewState(this.view);
    this.activeIndex = 0;
    this.resetView();
    this.search.onViewChanged();
  }

  get currentOrder(): Order {
    return this.view.order;
  }
  get currentFilter(): RowFilter {
    return this.filter();
  }
  get selectedSeq(): number | undefined {
    return this.view.selectedSeq;
  }
  get currentActiveIndex(): number {
    return this.activeIndex;
  }
  say(text: string): void {
    this.announcer.say(text);
  }

  // ---- keyboard -------------------------------------------------------------------------------

  focusList(): void {
    this.querySelector<HTMLElement>(`#${LIST_ID}`)?.focus();
  }

  private moveActive(to: number): void {
    if (!this.total) return;
    const index = Math.max(0, Math.min(this.total - 1, to));
    this.activeIndex = index;
    this.setFollowing(index === this.total - 1);
    this.scrollToIndex(index);
    const row = this.cache.get(index);
    if (row) void this.select(row.seq, { scroll: false, index });
    else this.cache.ensure(index, index);
    this.requestUpdate();
  }

  private onListKey(e: KeyboardEvent): void {
    const page = Math.max(1, this.lastVisible.last - this.lastVisible.first - 1);
    const row = this.cache.get(this.activeIndex);
    switch (e.key) {
      case 'ArrowDown':
      case 'j':
        // After the last event come the closers dsh would append: the keyboard reaches them too.
        if (this.activeIndex >= this.total - 1 && this.focusFirstGhost()) break;
        this.moveActive(this.activeIndex + 1);
        break;
      case 'ArrowUp':
      case 'k':
        this.moveActive(this.activeIndex - 1);
        break;
      case 'PageDown':
        this.moveActive(this.activeIndex + page);
        break;
      case 'PageUp':
        this.moveActive(this.activeIndex - page);
        break;
      case 'Home':
        this.moveActive(0);
        break;
      case 'End':
        this.moveActive(this.total - 1);
        break;
      case 'Enter':
        this.extendRange(e.shiftKey);
        if (row)
          void this.select(row.seq, { scroll: false, index: this.activeIndex }).then(() => {
            if (!e.shiftKey) this.openInspector();
          });
        break;
      case 'ArrowRight':
        if (e.altKey) return;
        if (row?.kind === 'chunkRun' && !this.expandedRuns.has(row.seq)) this.toggleRun(row);
        else if (row && this.brackets.has(row.seq) && !this.expandedBrackets.has(row.seq)) this.toggleBracket(row.seq);
        else return;
        break;
      case 'ArrowLeft':
        if (e.altKey) return;
        if (row && this.expandedBrackets.has(row.seq)) this.toggleBracket(row.seq);
        else if (row && this.expandedRuns.has(row.seq)) this.toggleRun(row);
        else return;
        break;
      case 'l':
        void this.followNextLink();
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  private focusFirstGhost(): boolean {
    const ghost = this.querySelector<HTMLElement>('#ghost-rows .ghost-row');
    ghost?.focus();
    return !!ghost;
  }

  private openInspector(): void {
    this.view.inspectorOpen = true;
    saveViewState(this.view);
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('#inspector')?.focus());
  }

  private readonly onGlobalKey = (e: KeyboardEvent): void => {
    const target = e.target as HTMLElement | null;
    const typing =
      !!target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
    if (e.altKey && e.key === 'ArrowLeft') {
      e.preventDefault();
      void this.back();
      return;
    }
    if (e.altKey && e.key === 'ArrowRight') {
      e.preventDefault();
      void this.forward();
      return;
    }
    if (e.altKey && ['1', '2', '3'].includes(e.key)) {
      e.preventDefault();
      void this.setOrder(ORDERS[Number(e.key) - 1].order);
      return;
    }
    if (typing) return;
    if (e.key === '/' && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      this.search.focus();
      return;
    }
    if (e.key === 'F3' || (e.key === 'n' && !e.ctrlKey)) {
      e.preventDefault();
      void this.search.step(e.shiftKey ? 'previous' : 'next');
      return;
    }
    if (e.key === 'Escape' && target?.closest('#inspector')) {
      e.preventDefault();
      this.focusList();
    }
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('keydown', this.onGlobalKey);
    this.crash.start();
  }

  override disconnectedCallback(): void {
    window.removeEventListener('keydown', this.onGlobalKey);
    this.crash.stop();
    super.disconnectedCallback();
  }

  // ---- drawing --------------------------------------------------------------------------------

  protected override updated(_changed: PropertyValues): void {
    // The strip draws its canvas for a new overview only; a new selection moves its marker.
    if (this.overview) this.strip.draw(this.overview, this.view.selectedSeq);
  }

  private rowContext(): RowContext {
    return {
      selectedSeq: this.view.selectedSeq,
      activeIndex: this.activeIndex,
      highlighted: this.highlighted,
      matches: this.search.matchedSeqs,
      brackets: this.brackets,
      expandedBrackets: this.expandedBrackets,
      bracketRows: (b) => b.shadowedSeqs.slice(0, 200).map((s) => this.bracketRowCache.get(s)),
      listId: LIST_ID,
      total: this.total,
      range: this.range(),
    };
  }

  /** One listener for every row of the list: a click selects (Shift+click grows a range), a twist expands. */
  private onListClick(e: MouseEvent): void {
    const hit = rowClick(e);
    if (!hit) return;
    const row = this.cache.get(hit.index);
    if (hit.twist && row?.kind === 'chunkRun') return this.toggleRun(row);
    this.extendRange(e.shiftKey);
    this.activeIndex = hit.index;
    void this.select(hit.seq, { scroll: false, index: hit.index });
    this.focusList();
  }

  private readonly handlers: RowHandlers = {
    toggleBracket: (seq) => this.toggleBracket(seq),
    jump: (seq) => void this.jumpTo(seq),
  };

  protected override render(): TemplateResult {
    if (this.failed !== undefined) {
      return html`<section id="load-failed" role="alert" class="notice error">
          <h2>${t('Could not open the log')}</h2>
          <p>${this.failed}</p>
          <vscode-button id="reload" @click=${() => void this.client.request('reload', {})}>${t('Reload from disk')}</vscode-button>
        </section>
        ${this.announcer.render()}`;
    }
    if (!this.summary)
      return html`${this.loading ? renderLoading(this.loading) : html`<p class="muted">${t('Starting…')}</p>`}${this.announcer.render()}`;
    const ctx = this.rowContext();
    const activeId = this.total ? rowDomId(LIST_ID, this.activeIndex) : '';
    return html`<div class="session-top">
        ${renderHealth(
          this.summary,
          this.childSessions,
          {
            reload: () => void this.client.request('reload', {}),
            reveal: (line) => void this.reveal(line),
            openLineage: (to) => void this.client.request('openLineage', { to }),
          },
          this.crash.openTurnActivity,
        )}
        ${this.crash.renderHealthLists()} ${this.crash.renderBanner()}
      </div>
      ${this.renderToolbar()}
      <div class="timeline-body ${this.view.inspectorOpen ? 'with-inspector' : ''}">
        <div class="list-column">
          <div class="list-head" aria-hidden="true">
            <span></span><span class="seq">${t('seq')}</span><span>${t('turn')}</span><span>${t('time')}</span><span>${t('type')}</span
            ><span>${t('summary')}</span>
          </div>
          <div class="list-area">
            <div
              id=${LIST_ID}
              class="timeline-list"
              role="listbox"
              tabindex="0"
              aria-label=${t('Events, {0}: {1} rows', t(orderLabel(this.view.order)), this.total)}
              aria-activedescendant=${activeId || nothing}
              data-order=${this.view.order}
              data-total=${this.total}
              @keydown=${(e: KeyboardEvent) => this.onListKey(e)}
              @click=${(e: MouseEvent) => this.onListClick(e)}
              @mousedown=${(e: MouseEvent) => {
                if (e.shiftKey && rowClick(e)) e.preventDefault(); /* Shift+click extends the range, not a text selection */
              }}
            >
              ${
                this.total === 0
                  ? html`<p class="muted empty">
                      ${!this.rowsArrived ? t('Loading rows…') : this.view.filter.length ? t('No events of this type.') : t('No events.')}
                    </p>`
                  : html` <virtual-rows
                      .count=${this.total}
                      .renderItem=${(i: number) => renderRow(this.cache.get(i), i, ctx, this.handlers)}
                      @rows-range=${(e: RowsRangeEvent) => this.onRange(e)}
                    ></virtual-rows>`
              }
            </div>
            ${
              // Offered while a live agent writes the log, or once the log grew while the list was elsewhere.
              this.view.following || (this.summary.live !== 'live' && this.appendedUnseen === 0)
                ? nothing
                : html`<vscode-button
                    id="follow-tail"
                    secondary
                    @click=${() => {
                      this.setFollowing(true);
                      this.scrollToIndex(this.total - 1, 'end');
                      this.requestUpdate();
                    }}
                  >
                    <span class="codicon codicon-arrow-down" aria-hidden="true"></span>
                    ${this.appendedUnseen ? t('Follow the end ({0} new)', formatNumber(this.appendedUnseen)) : t('Follow the end')}</vscode-button
                  >`
            }
          </div>
          ${this.crash.renderGhosts(this.view.filter.length > 0)} ${renderPendingRows(this.view.order, this.pendingEvents)}
        </div>
        <div id="overview-host" class="overview-column">${this.strip.element}</div>
        ${
          this.view.inspectorOpen
            ? renderInspector(this.detail, this.detailLoading, {
                jump: (seq) => void this.jumpTo(seq),
                reveal: (line) => void this.reveal(line),
                close: () => {
                  this.view.inspectorOpen = false;
                  saveViewState(this.view);
                  this.requestUpdate();
                },
              })
            : nothing
        }
      </div>
      ${this.time.render()} ${this.asOf.render()} ${this.announcer.render()}`;
  }

  private renderToolbar(): TemplateResult {
    return html`<div class="toolbar" role="toolbar" aria-label=${t('Timeline')}>
      <div class="orders" role="radiogroup" aria-label=${t('Order')}>
        ${ORDERS.map(
          (o) =>
            html`<button
              type="button"
              role="radio"
              class="order-button"
              id="order-${o.order}"
              aria-checked=${this.view.order === o.order ? 'true' : 'false'}
              title=${t('{0} (Alt+{1})', t(o.label), o.key)}
              @click=${() => void this.setOrder(o.order)}
            >
              ${t(o.label)}
            </button>`,
        )}
      </div>
      <label class="filter"
        >${t('Type')}
        <select id="type-filter" @change=${(e: Event) => this.setTypeFilter((e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${!this.view.filter.length}>${t('All types')}</option>
          ${EVENT_TYPE_CHOICES.map((type) => html`<option value=${type} ?selected=${this.view.filter[0] === type}>${type}</option>`)}
          <option value=${REPAIRS_FILTER} ?selected=${this.view.filter[0] === REPAIRS_FILTER}>
            ${t('Repairs (events a crash repair wrote)')}
          </option>
        </select></label
      >
      ${this.search.render()}
      <span class="nav">
        <button
          type="button"
          class="icon-button"
          id="nav-back"
          title=${t('Back (Alt+Left)')}
          aria-label=${t('Back')}
          ?disabled=${!this.history.canGoBack}
          @click=${() => void this.back()}
        >
          <span class="codicon codicon-arrow-left" aria-hidden="true"></span>
        </button>
        <button
          type="button"
          class="icon-button"
          id="nav-forward"
          title=${t('Forward (Alt+Right)')}
          aria-label=${t('Forward')}
          ?disabled=${!this.history.canGoForward}
          @click=${() => void this.forward()}
        >
          <span class="codicon codicon-arrow-right" aria-hidden="true"></span>
        </button>
      </span>
      <button
        type="button"
        class="toggle"
        id="toggle-inspector"
        aria-pressed=${this.view.inspectorOpen ? 'true' : 'false'}
        @click=${() => {
          this.view.inspectorOpen = !this.view.inspectorOpen;
          saveViewState(this.view);
          this.requestUpdate();
        }}
      >
        <span class="codicon codicon-layout-sidebar-right" aria-hidden="true"></span> ${t('Inspector')}
      </button>
      ${this.time.renderToggle()} ${this.asOf.renderToggle()}
    </div>`;
  }
}

function orderLabel(order: Order): WebviewString {
  return ORDERS.find((o) => o.order === order)?.label ?? 'Full log';
}

function generationKey(g: { events: number; replaceGeneration: number; load: number }): string {
  return `${g.load}:${g.replaceGeneration}:${g.events}`;
}

customElements.define('timeline-app', TimelineApp);

/** Resolves at the next animation frame, or after a while when there is none (a hidden webview draws no frames). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      clearTimeout(fallback);
      resolve();
    });
  });
}
