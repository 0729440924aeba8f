// Selection and navigation: the selected event and what the inspector shows for it (its detail, and
// the rows it links to, marked in the list), a range of seqs grown with Shift, jumps to an event in any
// order, back and forward through the places jumped from, and following the selection's links in turn.
import type { EventDetail } from '../../../src/protocol';
import { t } from '../strings';
import type { ListController } from './list-controller';
import { NavHistory } from './nav-history';
import { TimelineController, type TimelineHost } from './timeline-host';
import type { ViewState } from './view-state';

/** How long a selection waits for the inspector's content before it is drawn on its own. */
const SLOW_DETAIL_MS = 100;

export interface SelectOptions {
  /** Bring the row into view (with `index`). */
  scroll?: boolean;
  /** The selected row's index in the list, when known: it becomes the active row. */
  index?: number;
  /** Draw the selection together with the inspector's new content, in one redraw. */
  withDetail?: boolean;
}

export interface JumpOptions {
  /** Remember where the jump came from (Alt+Left returns there). */
  record?: boolean;
  /** Put the keyboard focus on the list afterwards. */
  focusList?: boolean;
}

export interface NavigationOptions {
  /** Puts the keyboard focus on the list. */
  focusList(): void;
}

export class NavigationController extends TimelineController {
  detail: EventDetail | undefined;
  detailLoading = false;
  /** Seqs the selection links to, marked in the list. */
  highlighted: ReadonlySet<number> = new Set();
  readonly history = new NavHistory<number>();
  /** Where a Shift-range started. */
  private rangeAnchor: number | undefined;
  /** Which link `l` follows next (it goes on counting across selections: back, then `l`, takes the next one). */
  private linkCursor = 0;

  constructor(
    host: TimelineHost,
    private readonly view: ViewState,
    private readonly list: ListController,
    private readonly options: NavigationOptions,
  ) {
    super(host);
  }

  get selectedSeq(): number | undefined {
    return this.view.selectedSeq;
  }

  /**
   * Selects `seq` and shows it in the inspector. With `withDetail` the selection is drawn together with
   * the inspector's new content, in one redraw, when the host's answer comes (or after a short wait if
   * it is slow), instead of a redraw for each.
   */
  async select(seq: number, { scroll = true, index, withDetail = false }: SelectOptions = {}): Promise<void> {
    this.view.selectedSeq = seq;
    this.view.save();
    if (index !== undefined) this.list.activeIndex = index;
    this.detailLoading = true;
    const showSelection = withDetail ? setTimeout(() => this.host.requestUpdate(), SLOW_DETAIL_MS) : undefined;
    if (!withDetail) this.host.requestUpdate();
    if (scroll && index !== undefined) this.list.scrollToIndex(index);
    const detail = await this.host.request('eventDetail', { seq }).then(
      (answer) => answer.result,
      () => undefined,
    );
    clearTimeout(showSelection);
    if (this.view.selectedSeq !== seq) return;
    this.detailLoading = false;
    this.detail = detail;
    this.highlighted = new Set(detail?.highlight ?? []);
    this.host.requestUpdate();
  }

  /** Moves the active row (the keyboard's place) and selects its event. */
  moveActive(to: number): void {
    const total = this.list.total;
    if (!total) return;
    const index = Math.max(0, Math.min(total - 1, to));
    this.list.activeIndex = index;
    this.list.setFollowing(index === total - 1);
    this.list.scrollToIndex(index);
    const row = this.list.row(index);
    if (row) void this.select(row.seq, { scroll: false, index });
    else this.list.cache.ensure(index, index);
    this.host.requestUpdate();
  }

  /**
   * Shift+click or Shift+Enter grows the selection into a range of seqs from where it was (the anchor);
   * any other selection starts again. The rows' context menu then compacts exactly that range.
   */
  extendRange(extend: boolean): void {
    this.rangeAnchor = extend ? (this.rangeAnchor ?? this.view.selectedSeq) : undefined;
    void this.host.updateComplete.then(() => {
      const r = this.range;
      if (r) this.host.say(t('Seqs {0}–{1} selected: Compact Range… in the context menu hides them', r.start, r.end));
    });
  }

  get range(): { start: number; end: number } | undefined {
    const a = this.rangeAnchor;
    const b = this.view.selectedSeq;
    if (a === undefined || b === undefined || a === b) return undefined;
    return { start: Math.min(a, b), end: Math.max(a, b) };
  }

  /** Moves to `seq` in the current order (the Full log when the order has no row for it). */
  async jumpTo(seq: number, { record = true, focusList = true }: JumpOptions = {}): Promise<void> {
    this.rangeAnchor = undefined;
    if (record && this.view.selectedSeq !== undefined && this.view.selectedSeq !== seq) this.history.visit(this.view.selectedSeq);
    let index = await this.list.rowOf(seq);
    if (index === undefined && (this.view.order !== 'log' || this.view.filter.length)) {
      this.list.showEveryEvent();
      index = await this.list.rowOf(seq, 'log');
    }
    if (index === undefined) return;
    // The rows around the target first: the list then moves once, to drawn rows, not to placeholders.
    const around = Math.max(10, this.list.visible.last - this.list.visible.first);
    await this.list.cache.ready(index - around, index + around);
    this.list.activeIndex = index;
    this.list.setFollowing(false);
    await this.host.updateComplete;
    this.list.scrollToIndex(index, 'center');
    // A screen of rows drawn anew is a frame's work on its own: the selection and the inspector follow
    // in a later frame, drawn together.
    await this.list.settled();
    await this.host.nextFrame();
    await this.select(seq, { scroll: false, withDetail: true });
    if (focusList) this.options.focusList();
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
  async followNextLink(): Promise<void> {
    const links = this.detail?.links ?? [];
    if (!links.length) {
      this.host.say(t('This event has no links to follow.'));
      return;
    }
    const link = links[this.linkCursor++ % links.length];
    await this.jumpTo(link.target);
  }

  /** Opens the log as text at a 1-based line (the host does; a failure changes nothing here). */
  async reveal(line: number): Promise<void> {
    await this.host.request('revealInTextEditor', { line }).catch(() => undefined);
  }
}
