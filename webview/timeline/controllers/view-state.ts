// What survives hiding and showing the tab: VS Code keeps the object given to setState while the
// webview is hidden or reloaded. Only small view facts go in (never session data). The controllers
// share one ViewState: the list reads the order and the filter, navigation the selection.
import type { RowOrder, WebviewString } from '../../../src/protocol';

export type Order = RowOrder;

/** The orders of the toolbar, with their words and their Alt+digit keys. */
export const ORDERS: readonly { order: Order; label: WebviewString; key: string }[] = [
  { order: 'surface', label: 'Model view', key: '1' },
  { order: 'log', label: 'Full log', key: '2' },
  { order: 'transcript', label: 'Transcript', key: '3' },
];

export function orderLabel(order: Order): WebviewString {
  return ORDERS.find((o) => o.order === order)?.label ?? 'Full log';
}

/**
 * The order an arrow key moves to in the orders' radio group (one tab stop; the arrows move and choose,
 * wrapping at the ends; Home and End go to the first and the last), or undefined for any other key.
 */
export function orderByKey(order: Order, key: string): Order | undefined {
  const at = ORDERS.findIndex((o) => o.order === order);
  const step = key === 'ArrowRight' || key === 'ArrowDown' ? 1 : key === 'ArrowLeft' || key === 'ArrowUp' ? -1 : 0;
  if (step) return ORDERS[(at + step + ORDERS.length) % ORDERS.length].order;
  if (key === 'Home') return ORDERS[0].order;
  if (key === 'End') return ORDERS[ORDERS.length - 1].order;
  return undefined;
}

export interface TimelineViewState {
  order: Order;
  /** The selected event, by seq (stable across appends, unlike an index). */
  selectedSeq?: number;
  /** The first visible row, by seq. */
  topSeq?: number;
  filter: string[];
  inspectorOpen: boolean;
  following: boolean;
}

/** Where the state is kept: VS Code's getState/setState in the page, a plain object in tests. */
export interface StateStorage {
  get(): unknown;
  set(state: TimelineViewState): void;
}

/** The state as saved, checked field by field (a state from an older build may lack or misname some). */
export function restoreViewState(saved: unknown): TimelineViewState {
  const s = (typeof saved === 'object' && saved !== null ? saved : {}) as Partial<Record<keyof TimelineViewState, unknown>>;
  const seq = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
  return {
    order: s.order === 'surface' || s.order === 'transcript' ? s.order : 'log',
    selectedSeq: seq(s.selectedSeq),
    topSeq: seq(s.topSeq),
    filter: Array.isArray(s.filter) ? s.filter.filter((t): t is string => typeof t === 'string') : [],
    inspectorOpen: s.inspectorOpen !== false,
    following: s.following !== false,
  };
}

export class ViewState implements TimelineViewState {
  order: Order;
  selectedSeq: number | undefined;
  topSeq: number | undefined;
  filter: string[];
  inspectorOpen: boolean;
  following: boolean;
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly storage: StateStorage,
    /** Saves wait this long for the next change: scrolling changes topSeq on every frame. */
    private readonly delayMs = 150,
  ) {
    ({
      order: this.order,
      selectedSeq: this.selectedSeq,
      topSeq: this.topSeq,
      filter: this.filter,
      inspectorOpen: this.inspectorOpen,
      following: this.following,
    } = restoreViewState(storage.get()));
  }

  /** Saves the state soon (at most a few times a second). */
  save(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.storage.set(this.snapshot());
    }, this.delayMs);
  }

  snapshot(): TimelineViewState {
    const { order, selectedSeq, topSeq, filter, inspectorOpen, following } = this;
    return { order, selectedSeq, topSeq, filter: [...filter], inspectorOpen, following };
  }
}
