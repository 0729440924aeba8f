// The timeline list's scroller. @tanstack/virtual-core decides which rows are in view; this element
// draws only those, stacked in one block that is moved to the first one's offset. A scroll frame
// therefore writes one transform and the rows that changed, and measures nothing: a plain row has a
// fixed height, and only items that hold more (a shadowed bracket) are measured, in one batch after
// they are drawn.
import { html, LitElement, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { elementScroll, observeElementOffset, observeElementRect, Virtualizer } from '@tanstack/virtual-core';

/** The height of a plain row, as media/session.css draws it (`.row { height: 22px }`). */
const ROW_HEIGHT = 22;
/** Rows drawn beyond each edge of the viewport, so a short scroll shows rows already drawn. */
const OVERSCAN = 4;

export interface RowsRange {
  /** First and last rows drawn (the viewport and the overscan). */
  first: number;
  last: number;
  /** First and last rows in the viewport. */
  visibleFirst: number;
  visibleLast: number;
}

export class RowsRangeEvent extends Event {
  static readonly type = 'rows-range';
  constructor(readonly range: RowsRange) {
    super(RowsRangeEvent.type);
  }
}

export type ScrollBlock = 'start' | 'center' | 'end' | 'nearest';

export class VirtualRows extends LitElement {
  private total = 0;
  private draw: (index: number) => TemplateResult = () => html``;
  private reported: RowsRange | undefined;
  private cleanup: (() => void) | undefined;
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

  scrollToIndex(index: number, block: ScrollBlock = 'nearest'): void {
    if (index < 0 || index >= this.total) return;
    this.virtualizer.scrollToIndex(index, { align: block === 'nearest' ? 'auto' : block });
  }

  /** Sizes measured for brackets no longer hold (another order or filter puts other rows at those indexes). */
  forgetSizes(): void {
    this.virtualizer.measure();
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
    super.disconnectedCallback();
  }

  protected override render(): TemplateResult {
    const items = this.virtualizer.getVirtualItems();
    return html`<div class="virtual-space">
      <div class="virtual-window">
        ${repeat(
          items,
          // Keyed by row: an element stands for one row for as long as it is drawn, so what a pointer
          // (or an assistive technology) holds does not turn into another row as the list scrolls.
          (item) => item.index,
          (item) => html`<div class="item" data-item=${item.index}>${this.draw(item.index)}</div>`,
        )}
      </div>
    </div>`;
  }

  protected override updated(): void {
    this.place();
    this.virtualizer._willUpdate();
    this.measureTallItems();
    this.reportRange();
  }

  /**
   * Sizes the scrolled space and moves the drawn block to its first row's offset. Set through the
   * style object: a style attribute written as text is refused by the webview's Content-Security-Policy.
   */
  private place(): void {
    const space = this.querySelector<HTMLElement>(':scope > .virtual-space');
    const block = space?.firstElementChild as HTMLElement | null | undefined;
    if (!space || !block) return;
    const items = this.virtualizer.getVirtualItems();
    space.style.height = `${this.virtualizer.getTotalSize()}px`;
    block.style.transform = `translateY(${items.length ? items[0].start : 0}px)`;
  }

  /** Items that hold more than a row report their height; a plain row keeps the fixed one. */
  private measureTallItems(): void {
    const window = this.querySelector(':scope > .virtual-space > .virtual-window');
    if (!window) return;
    const sizes = this.virtualizer.itemSizeCache;
    for (let el = window.firstElementChild as HTMLElement | null; el; el = el.nextElementSibling as HTMLElement | null) {
      const index = Number(el.dataset.item);
      const tall = el.childElementCount > 1; // a row and what hangs under it (a shadowed bracket)
      const known = sizes.get(index) ?? ROW_HEIGHT;
      const height = tall ? el.offsetHeight : ROW_HEIGHT;
      if (height > 0 && height !== known) this.virtualizer.resizeItem(index, height);
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
