// The keymap. Keys in the list move the active row, select, open and close what a row holds and
// follow links; keys anywhere go back and forward, switch the order, search. A key is described as a
// KeyPress (the page turns each keyboard event into one) and the answer says whether it was taken, so
// the page cancels exactly the keys used here.
import type { ExpansionController } from './expansion-controller';
import type { ListController } from './list-controller';
import type { NavigationController } from './navigation-controller';
import { TimelineController, type TimelineHost } from './timeline-host';
import { ORDERS } from './view-state';

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** The key went to a text field (an input, a select, an editable element). */
  typing: boolean;
  /** The key went to the inspector. */
  inInspector: boolean;
}

/** Keys pressed anywhere in the page, for as long as the listener is kept. */
export interface KeySource {
  /** Calls `onKey` for each key; returns the function that stops it. */
  listen(onKey: (key: KeyPress) => boolean): () => void;
}

export interface KeyboardOptions {
  keys: KeySource;
  /** Next or previous search match (F3, n). */
  searchStep(direction: 'next' | 'previous'): void;
  focusSearch(): void;
  focusList(): void;
  /** Shows the inspector and puts the focus in it. */
  openInspector(): void;
  /** Puts the focus on the first ghost row below the list; false when there is none. */
  focusFirstGhost(): boolean;
}

export class KeyboardController extends TimelineController {
  private stop: (() => void) | undefined;

  constructor(
    host: TimelineHost,
    private readonly list: ListController,
    private readonly navigation: NavigationController,
    private readonly expansion: ExpansionController,
    private readonly options: KeyboardOptions,
  ) {
    super(host);
  }

  override hostConnected(): void {
    this.stop = this.options.keys.listen((key) => this.pageKey(key));
  }

  hostDisconnected(): void {
    this.stop?.();
    this.stop = undefined;
  }

  /** A key pressed in the list; true when it was taken. */
  listKey(k: KeyPress): boolean {
    const list = this.list;
    const nav = this.navigation;
    const active = list.activeIndex;
    const row = list.row(active);
    switch (k.key) {
      case 'ArrowDown':
      case 'j':
        // After the last event come the closers dsh would append: the keyboard reaches them too.
        if (active >= list.total - 1 && this.options.focusFirstGhost()) return true;
        nav.moveActive(active + 1);
        return true;
      case 'ArrowUp':
      case 'k':
        nav.moveActive(active - 1);
        return true;
      case 'PageDown':
        nav.moveActive(active + list.page);
        return true;
      case 'PageUp':
        nav.moveActive(active - list.page);
        return true;
      case 'Home':
        nav.moveActive(0);
        return true;
      case 'End':
        nav.moveActive(list.total - 1);
        return true;
      case 'Enter':
        nav.extendRange(k.shiftKey);
        if (row)
          void nav.select(row.seq, { scroll: false, index: active }).then(() => {
            if (!k.shiftKey) this.options.openInspector();
          });
        return true;
      case 'ArrowRight':
        return !k.altKey && !!row && this.expansion.open(row);
      case 'ArrowLeft':
        return !k.altKey && !!row && this.expansion.close(row);
      case 'l':
        void nav.followNextLink();
        return true;
      default:
        return false;
    }
  }

  /** A key pressed anywhere in the page; true when it was taken. */
  pageKey(k: KeyPress): boolean {
    if (k.altKey && k.key === 'ArrowLeft') {
      void this.navigation.back();
      return true;
    }
    if (k.altKey && k.key === 'ArrowRight') {
      void this.navigation.forward();
      return true;
    }
    const order = k.altKey ? ORDERS.find((o) => o.key === k.key) : undefined;
    if (order) {
      void this.list.setOrder(order.order);
      return true;
    }
    if (k.typing) return false;
    if (k.key === '/' && !k.ctrlKey && !k.metaKey) {
      this.options.focusSearch();
      return true;
    }
    if (k.key === 'F3' || (k.key === 'n' && !k.ctrlKey)) {
      this.options.searchStep(k.shiftKey ? 'previous' : 'next');
      return true;
    }
    if (k.key === 'Escape' && k.inInspector) {
      this.options.focusList();
      return true;
    }
    return false;
  }
}
