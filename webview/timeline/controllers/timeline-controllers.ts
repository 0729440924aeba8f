// The timeline's controllers, composed: which one knows which, and where each notification of the
// host goes. The element (TimelineApp) makes one of these with itself as the host and the page's part
// (the drawn list, the keys, focus) as PageHooks, then draws it; the unit tests make one under Node
// with recorded hooks, so what they test is the composition the page runs.
import type { NotificationHandlers, SessionSummary } from '../../../src/protocol';
import { setNumberLocale, setStrings } from '../strings';
import { AsOfController } from './as-of-controller';
import { CrashReviewController } from './crash-review-controller';
import { ExpansionController } from './expansion-controller';
import { KeyboardController, type KeySource } from './keyboard-controller';
import { ListController, type ListSurface } from './list-controller';
import { NavigationController } from './navigation-controller';
import { SearchController } from './search-controller';
import { SessionController } from './session-controller';
import { TimeController } from './time-controller';
import type { TimelineHost } from './timeline-host';
import { ViewState, type StateStorage } from './view-state';

/** What the page does for the controllers: the drawn list, the keys, the focus, the page's own marks. */
export interface PageHooks {
  surface: ListSurface;
  keys: KeySource;
  focusList(): void;
  focusSearch(): void;
  /** Shows the inspector and puts the focus in it. */
  openInspector(): void;
  /** Puts the focus on the first ghost row below the list; false when there is none. */
  focusFirstGhost(): boolean;
  focusAsOfInput(): void;
  focusTimeCanvas(): void;
  redrawTimeCanvas(): void;
  /** Scrolls to and focuses an element below the list (a ghost row, the torn tail). */
  focusBelowList(selector: string): void;
  /** The view waits for the host (a load in progress) or not. */
  setBusy(busy: boolean): void;
  /** VS Code's display language, for the page's `lang`. */
  setLanguage(language: string): void;
  /** Load progress was drawn. */
  progressShown(): void;
  /** A summary arrived (before anything is done with it); `first` when it is the first of a load. */
  summaryArrived(summary: SessionSummary, first: boolean): void;
  /** The first rows of the list are on screen. */
  firstRowsShown(): void;
}

export class TimelineControllers {
  readonly view: ViewState;
  readonly session: SessionController;
  readonly list: ListController;
  readonly navigation: NavigationController;
  readonly expansion: ExpansionController;
  readonly search: SearchController;
  readonly keyboard: KeyboardController;
  readonly asOf: AsOfController;
  readonly time: TimeController;
  readonly crash: CrashReviewController;
  /** What the host tells the view, each notification to its handler. */
  readonly notifications: NotificationHandlers;

  constructor(host: TimelineHost, storage: StateStorage, page: PageHooks) {
    const view = (this.view = new ViewState(storage));
    const session = (this.session = new SessionController(host));
    const list: ListController = (this.list = new ListController(host, view, {
      surface: page.surface,
      generation: () => session.summary?.generation,
      expandedRuns: () => [...expansion.expandedRuns],
      onViewChanged: () => search.onViewChanged(),
    }));
    const navigation = (this.navigation = new NavigationController(host, view, list, { focusList: () => page.focusList() }));
    const expansion: ExpansionController = (this.expansion = new ExpansionController(host, list));
    const search = (this.search = new SearchController(host, list, navigation));
    this.keyboard = new KeyboardController(host, list, navigation, expansion, {
      keys: page.keys,
      searchStep: (direction) => void search.step(direction),
      focusSearch: () => page.focusSearch(),
      focusList: () => page.focusList(),
      openInspector: () => page.openInspector(),
      focusFirstGhost: () => page.focusFirstGhost(),
    });
    this.asOf = new AsOfController(host, navigation, { focusInput: () => page.focusAsOfInput() });
    this.time = new TimeController(host, navigation, { focusCanvas: () => page.focusTimeCanvas(), redraw: () => page.redrawTimeCanvas() });
    const crash = (this.crash = new CrashReviewController(host, list, navigation, { focusBelowList: (s) => page.focusBelowList(s) }));
    list.whenRowsShown(() => page.firstRowsShown());

    this.notifications = {
      strings: ({ strings, language }) => {
        setStrings(strings, language);
        page.setLanguage(language);
        host.requestUpdate();
      },
      loading: (progress) => {
        page.setBusy(true);
        page.progressShown();
        session.onLoading(progress);
      },
      loadFailed: ({ message }) => {
        page.setBusy(false);
        session.onFailed(message);
      },
      summary: ({ summary }) => {
        page.setBusy(false);
        setNumberLocale(summary.locale);
        page.summaryArrived(summary, session.startsLoad(summary));
        this.onSummary(summary);
      },
      appended: (note) => {
        if (!session.summary) return;
        session.onAppended(note);
        if (note.surfaceChanged) void expansion.loadBrackets();
        list.onAppended(note.added, note.generation);
        void session.loadOverview();
        crash.onAppended();
      },
      searchProgress: (progress) => search.onProgress(progress),
      reveal: ({ seq }) => {
        if (seq !== undefined) void navigation.jumpTo(seq);
      },
      pendingEdits: ({ events }) => session.onPendingEdits(events),
    };
  }

  /** A summary: the first of a load starts the list and its side loads; every one asks for the crash review. */
  private onSummary(s: SessionSummary): void {
    const { session, list, view, expansion, navigation } = this;
    const first = session.onSummary(s);
    if (first) {
      // A closed log opens at its start; a live one at its end, following appends.
      if (view.topSeq === undefined && view.selectedSeq === undefined) list.setFollowing(s.live === 'live');
      list.reset();
      // Rows first: the brackets and the overview are asked for once the first rows are shown.
      list.whenRowsShown(() =>
        setTimeout(() => {
          void expansion.loadBrackets();
          void session.loadOverview();
        }, 0),
      );
      void session.loadChildren();
      if (view.selectedSeq !== undefined) void navigation.select(view.selectedSeq, { scroll: false });
    }
    void this.crash.load();
  }
}
