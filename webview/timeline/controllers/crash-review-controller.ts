// The crash review of the shown log, kept fresh: asked for when a summary arrives, once a burst of
// appends settles, and every little while while a turn is open (a quiet file turns "live agent" into
// "crash" as time passes). The banner, the ghost rows and the health lists are drawn from it; their
// jumps go to an event row, a ghost row, the torn tail, or a file line in the text editor.
import type { CrashReviewView, HealthTarget, RepairAction } from '../../../src/protocol';
import type { ListController } from './list-controller';
import type { NavigationController } from './navigation-controller';
import { TimelineController, type TimelineHost } from './timeline-host';

/** How often an open turn's review is asked again. */
const REFRESH_MS = 20_000;
/** Appends come in bursts while an agent writes: the review waits this long after the last one. */
const SETTLE_MS = 1000;

export interface CrashReviewOptions {
  /** Scrolls to and focuses an element below the list (a ghost row, the torn tail), once it is drawn. */
  focusBelowList(selector: string): void;
}

export class CrashReviewController extends TimelineController {
  review: CrashReviewView | undefined;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    host: TimelineHost,
    private readonly list: ListController,
    private readonly navigation: NavigationController,
    private readonly options: CrashReviewOptions,
  ) {
    super(host);
  }

  override hostConnected(): void {
    this.refreshTimer = setInterval(() => {
      if (this.review?.openTurn) void this.load();
    }, REFRESH_MS);
  }

  hostDisconnected(): void {
    clearInterval(this.refreshTimer);
    clearTimeout(this.settleTimer);
  }

  async load(): Promise<void> {
    try {
      this.review = (await this.host.request('crashReview', {})).result;
    } catch {
      this.review = undefined;
    }
    this.host.requestUpdate();
  }

  onAppended(): void {
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      void this.load();
    }, SETTLE_MS);
  }

  /** Whether an open last turn is still being written ('growing') or looks like a crash ('still'). */
  get openTurnActivity(): 'growing' | 'still' | undefined {
    return this.review?.openTurn?.activity;
  }

  /** The commands ask in a modal before they write; nothing here waits for the answer. */
  run(action: RepairAction): void {
    void this.host.request('repairAction', { action }).catch(() => undefined);
  }

  go(target: HealthTarget): void {
    switch (target.kind) {
      case 'event':
        void this.navigation.jumpTo(target.seq);
        break;
      case 'ghost':
        void this.belowList(`#ghost-rows .ghost-row[data-seq="${target.seq}"]`, true);
        break;
      case 'tornTail':
        void this.belowList('#torn-tail', false);
        break;
      case 'line':
        void this.navigation.reveal(target.line);
        break;
    }
  }

  /** Ghost rows and the torn tail are not rows of the list: bring the list to its end, then focus them. */
  private async belowList(selector: string, needsGhosts: boolean): Promise<void> {
    if (needsGhosts && this.list.order === 'transcript') await this.list.setOrder('log');
    this.list.scrollToEnd();
    await this.host.updateComplete;
    this.options.focusBelowList(selector);
  }
}
