// The crash review of the shown log, kept fresh: asked for when a summary arrives, once a burst of
// appends settles, and every little while while a turn is open (a quiet file turns "live agent" into
// "crash" as time passes). It draws the banner, the ghost rows and the health lists, and takes their
// jumps: to an event row, a ghost row, the torn tail, or a file line in the text editor.
import { html, nothing, type TemplateResult } from 'lit';
import type { CrashReviewView, HealthTarget, RepairAction } from '../../src/protocol/messages';
import { renderCrashBanner } from './crash-banner';
import { renderGhostRows } from './ghost-rows';
import { renderHealthLists } from './health-lists';
import type { TimelineApp } from './timeline-app';

/** How often an open turn's review is asked again. */
const REFRESH_MS = 20_000;
/** Appends come in bursts while an agent writes: the review waits this long after the last one. */
const SETTLE_MS = 1000;

export class CrashReviewState {
  private review: CrashReviewView | undefined;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly app: TimelineApp) {}

  start(): void {
    this.refreshTimer = setInterval(() => {
      if (this.review?.openTurn) void this.load();
    }, REFRESH_MS);
  }

  stop(): void {
    clearInterval(this.refreshTimer);
    clearTimeout(this.settleTimer);
  }

  async load(): Promise<void> {
    try {
      this.review = (await this.app.client.request('crashReview', {})).result;
    } catch {
      this.review = undefined;
    }
    this.app.requestUpdate();
  }

  onAppended(): void {
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      void this.load();
    }, SETTLE_MS);
  }

  /** The commands ask in a modal before they write; nothing here waits for the answer. */
  private run(action: RepairAction): void {
    void this.app.client.request('repairAction', { action }).catch(() => undefined);
  }

  private go(target: HealthTarget): void {
    switch (target.kind) {
      case 'event':
        void this.app.jumpTo(target.seq);
        break;
      case 'ghost':
        void this.focusBelowList(`#ghost-rows .ghost-row[data-seq="${target.seq}"]`, true);
        break;
      case 'tornTail':
        void this.focusBelowList('#torn-tail', false);
        break;
      case 'line':
        void this.app.revealLine(target.line);
        break;
    }
  }

  /** Ghost rows and the torn tail are not rows of the list: bring the list to its end, then focus them. */
  private async focusBelowList(selector: string, needsGhosts: boolean): Promise<void> {
    if (needsGhosts && this.app.currentOrder === 'transcript') await this.app.setOrder('log');
    this.app.scrollToEnd();
    await this.app.updateComplete;
    const el = this.app.querySelector<HTMLElement>(selector);
    el?.scrollIntoView({ block: 'nearest' });
    el?.focus();
  }

  /** Whether an open last turn is still being written ('growing') or looks like a crash ('still'). */
  get openTurnActivity(): 'growing' | 'still' | undefined {
    return this.review?.openTurn?.activity;
  }

  renderHealthLists(): TemplateResult {
    return renderHealthLists(this.review, { go: (target) => this.go(target) });
  }

  renderBanner(): TemplateResult {
    return renderCrashBanner(this.review?.openTurn, this.review?.tornTail, {
      jump: (seq) => void this.app.jumpTo(seq),
      apply: () => this.run('apply'),
      removeTornTail: () => this.run('removeTornTail'),
    });
  }

  /** Ghost closers follow the whole log; a filtered list shows none. */
  renderGhosts(filtered: boolean): TemplateResult | typeof nothing {
    const open = this.review?.openTurn;
    if (!open || filtered) return nothing;
    return html`${renderGhostRows(this.app.currentOrder, open.ghosts, {
      jump: (seq) => void this.app.jumpTo(seq),
      backToList: () => this.app.focusList(),
    })}`;
  }
}
