// The timeline list's scroller. @tanstack/virtual-core decides which rows are in view; this element
// draws only those. Each drawn row sits in a slot — an element placed at the row's own offset in the
// scrolled space — that it keeps for as long as it is drawn: scrolling leaves the rows already drawn
// untouched (the browser scrolls them as they are), and a row coming into view takes the slot of one
// that left, which is an update of that slot's text and attributes rather than new elements. Nothing
// is measured while scrolling: a plain row has a fixed height, and only items that hold more (a
// shadowed bracket) report their size, through a ResizeObserver, after the browser has laid them out.
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { elementScroll, observeElementOffset, observeElementRect, Virtualizer } from '@tanstack/virtual-core';
import type { RowsRange, ScrollBlock } from '../controllers/list-controller';

/** The height of a plain row, as media/session.css draws it (`.row { height: 22px }`). */
const ROW_HEIGHT = 22;
/** Rows drawn beyond each edge of the viewport, so a short scroll shows rows already drawn. */
const OVERSCAN = 4;
/** A slot that holds no row. */
const FREE = -1;

export class RowsRangeEvent extends Event {
  static readonly type = 'rows-range';
  constructor(readonly range: RowsRange) {
    super(RowsRangeEvent.type);
  }
}

export class VirtualRows extends LitElement {
  private total = 0;
  private draw: (index: number) => TemplateResult = () => html``;
  private reported: RowsRange | undefined;
  private cleanup: (() => void) | undefined;
  /** The row each slot holds (FREE when none), and the slot of each drawn row. */
  private slots: number[] = [];
  private readonly slotOf = new Map<number, number>();
  /** Where each slot's element was last placed, so a row that stays drawn is not placed again. */
  private placedAt: (number | undefined)[] = [];
  private pendingScroll: { index: number; block: ScrollBlock } | undefined;
  /** Items that hold more than a row report their height from here. */
  private readonly tallItems = new ResizeObserver((entries) => this.onTallResize(entries));
  private readonly observed = new Map<Element, number>();
  private readonly virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
    count: 0,
    getScrollElement: () => this,
    estimateSize: () => ROW_HEIGHT,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    overscan: OVERSCAN,
    indexAttribute: 'data-item',
    onChange: () => this.requestUpdate(),
  });

  override createRenderRoot(): this {
    return this; // light DOM: the page's stylesheet draws the rows
  }

  /** How many rows the list has. */
  set count(value: number) {
    if (value === this.total) return;
    this.total = value;
    this.virtualizer.setOptions({ ...this.virtualizer.options, count: value });
    this.requestUpdate();
  }
  get count(): number {
    return this.total;
  }

  /** Draws row `index`; set anew whenever what the rows show changes, so the drawn rows are redrawn. */
  set renderItem(draw: (index: number) => TemplateResult) {
    this.draw = draw;
    this.requestUpdate();
  }

  /**
   * Brings row `index` into view at the next redraw, once the scrolled space has its current size (a
   * count that just grew must be drawn before its last row can be scrolled to). The offset comes from
   * the rows' known sizes, so the list is moved once, by one write, without reading the page's layout.
   */
  scrollToIndex(index: number, block: ScrollBlock = 'nearest'): void {
    if (index < 0 || index >= this.total) return;
    this.pendingScroll = { index, block };
    this.requestUpdate();
  }

  /** Sizes measured for brackets no longer hold (another order or filter puts other rows at those indexes). */
  forgetSizes(): void {
    this.virtualizer.measure();
    this.placedAt = [];
    this.requestUpdate();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A scrollable element is a tab stop of its own in Chromium; the list around it is the one tab stop.
    this.tabIndex = -1;
    this.cleanup = this.virtualizer._didMount();
  }

  override disconnectedCallback(): void {
    this.cleanup?.();
    this.cleanup = undefined;
    this.tallItems.disconnect();
    this.observed.clear();
    super.disconnectedCallback();
  }

  protected override render(): TemplateResult {
    this.assignSlots();
    // Not keyed: the n-th slot is always the n-th element, so a slot's element is reused whatever row
    // it holds; a free slot keeps its element, empty and hidden.
    return html`<div class="virtual-space">
      ${this.slots.map(
        (index) =>
          html`<div class="item" ?hidden=${index === FREE} data-item=${index === FREE ? nothing : index}>
            ${index === FREE ? nothing : this.draw(index)}
          </div>`,
      )}
    </div>`;
  }

  /** Rows that stay in view keep their slot; rows coming into view take the slots of rows that left. */
  private assignSlots(): void {
    const items = this.virtualizer.getVirtualItems();
    const wanted = new Set<number>();
    for (const item of items) wanted.add(item.index);
    const free: number[] = [];
    for (let slot = 0; slot < this.slots.length; slot++) {
      const index = this.slots[slot];
      if (index !== FREE && wanted.has(index)) continue;
      if (index !== FREE) this.slotOf.delete(index);
      this.slots[slot] = FREE;
      free.push(slot);
    }
    let nextFree = 0;
    for (const item of items) {
      if (this.slotOf.has(item.index)) continue;
      const slot = nextFree < free.length ? free[nextFree++] : this.slots.length;
      this.slots[slot] = item.index;
      this.slotOf.set(item.index, slot);
    }
  }

  /** The scrolled space, whose children are the slots in order. */
  private get space(): HTMLElement | null {
    return this.querySelector<HTMLElement>(':scope > .virtual-space');
  }

  /** Where the list scrolls to at the end of this update (a pending scrollToIndex), if anywhere. */
  private scrollTarget: number | undefined;

  protected override willUpdate(): void {
    this.scrollTarget = this.takeScrollTarget();
    if (this.scrollTarget !== undefined) this.virtualizer.scrollOffset = this.scrollTarget;
  }

  protected override updated(): void {
    this.place();
    // One write, after the rows at the new offset are in place (the scrolled space has its new size).
    if (this.scrollTarget !== undefined) this.scrollTop = this.scrollTarget;
    this.virtualizer._willUpdate();
    this.watchTallItems();
    this.reportRange();
  }

  /**
   * Sizes the scrolled space and puts each slot's element at its row's offset. Set through the style
   * object: a style attribute written as text is refused by the webview's Content-Security-Policy.
   */
  private place(): void {
    const space = this.space;
    if (!space) return;
    space.style.height = `${this.virtualizer.getTotalSize()}px`;
    const measured = this.virtualizer.measurementsCache;
    let slot = 0;
    for (let el = space.firstElementChild as HTMLElement | null; el; el = el.nextElementSibling as HTMLElement | null, slot++) {
      const start = this.slots[slot] === FREE ? undefined : measured[this.slots[slot]]?.start;
      if (start === undefined || this.placedAt[slot] === start) continue;
      this.placedAt[slot] = start;
      el.style.transform = `translateY(${start}px)`;
    }
  }

  /**
   * The offset a pending scroll asks for, from the rows' known sizes (no layout is read). The
   * virtualizer is told it before the rows are drawn, so the rows at the new offset are drawn in this
   * same update and the list is laid out once; otherwise the rows of the old offset would be drawn, then
   * laid out again when the browser's scroll event reports the new one.
   */
  private takeScrollTarget(): number | undefined {
    const wanted = this.pendingScroll;
    this.pendingScroll = undefined;
    const item = wanted && this.virtualizer.measurementsCache[wanted.index];
    if (!item) return undefined;
    const viewport = this.virtualizer.scrollRect?.height ?? this.clientHeight;
    const now = this.virtualizer.scrollOffset ?? this.scrollTop;
    let top: number;
    if (wanted.block === 'start') top = item.start;
    else if (wanted.block === 'end') top = item.end - viewport;
    else if (wanted.block === 'center') top = item.start - (viewport - item.size) / 2;
    else if (item.start < now) top = item.start;
    else if (item.end > now + viewport) top = item.end - viewport;
    else return undefined;
    top = Math.round(Math.max(0, Math.min(top, this.virtualizer.getTotalSize() - viewport)));
    return top === Math.round(now) ? undefined : top;
  }

  /**
   * Items that hold a row and what hangs under it (a shadowed bracket) are watched for their height;
   * a slot that starts holding another row is watched anew, so its first size is reported even when
   * it equals the last row's.
   */
  private watchTallItems(): void {
    const space = this.space;
    if (!space) return;
    let slot = 0;
    for (let el = space.firstElementChild; el; el = el.nextElementSibling, slot++) {
      const index = this.slots[slot];
      const tall = index !== FREE && el.childElementCount > 1;
      const watching = this.observed.get(el);
      if (tall && watching === index) continue;
      if (watching !== undefined) {
        this.tallItems.unobserve(el);
        this.observed.delete(el);
      }
      if (tall) {
        this.tallItems.observe(el);
        this.observed.set(el, index);
      }
    }
  }

  private onTallResize(entries: ResizeObserverEntry[]): void {
    const sizes = this.virtualizer.itemSizeCache;
    for (const entry of entries) {
      const index = this.observed.get(entry.target);
      if (index === undefined) continue;
      const height = entry.borderBoxSize?.[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
      if (height > 0 && height !== (sizes.get(index) ?? ROW_HEIGHT)) this.virtualizer.resizeItem(index, height);
    }
  }

  private reportRange(): void {
    const items = this.virtualizer.getVirtualItems();
    if (!items.length) return;
    const visible = this.virtualizer.range ?? { startIndex: items[0].index, endIndex: items[items.length - 1].index };
    const range: RowsRange = {
      first: items[0].index,
      last: items[items.length - 1].index,
      visibleFirst: visible.startIndex,
      visibleLast: visible.endIndex,
      offset: this.virtualizer.scrollOffset ?? 0,
    };
    const was = this.reported;
    if (
      was &&
      was.first === range.first &&
      was.last === range.last &&
      was.visibleFirst === range.visibleFirst &&
      was.visibleLast === range.visibleLast
    )
      return;
    this.reported = range;
    this.dispatchEvent(new RowsRangeEvent(range));
  }
}

customElements.define('virtual-rows', VirtualRows);
