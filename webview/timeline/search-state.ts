// Text search over the whole log, done by the host (the browser's find cannot see rows that are not
// drawn). Typing starts a search after a pause; progress and the match count show while it runs;
// Enter / F3 / n go to the next match, Shift the previous one, each scrolled into view and selected.
import { html, nothing, type TemplateResult } from 'lit';
import type { SearchMatch, SearchProgressMessage } from '../../src/protocol/messages';
import type { TimelineApp } from './timeline-app';
import { counted, t } from './strings';

export class SearchState {
  text = '';
  private searchId: number | undefined;
  private running = false;
  private scanned = 0;
  private total = 0;
  private matchCount = 0;
  private current: SearchMatch | undefined;
  matchedSeqs = new Set<number>();
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor(private readonly app: TimelineApp) {}

  focus(): void {
    const input = this.app.querySelector<HTMLInputElement>('#search-input');
    input?.focus();
    input?.select();
  }

  onProgress(m: SearchProgressMessage): void {
    if (m.searchId !== this.searchId) return;
    this.scanned = m.scanned;
    this.total = m.total;
    this.matchCount = m.matchCount;
    this.app.requestUpdate();
  }

  /** The order or filter changed: matches are row indexes of the old view, so search again. */
  onViewChanged(): void {
    if (this.text) void this.start(this.text);
  }

  private onInput(value: string): void {
    this.text = value;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.start(value), 250);
  }

  async start(text: string): Promise<SearchMatch | undefined> {
    const mine = ++this.generation;
    if (this.searchId !== undefined && this.running)
      void this.app.client.request('cancelSearch', { searchId: this.searchId }).catch(() => undefined);
    this.current = undefined;
    this.matchedSeqs = new Set();
    if (!text) {
      this.searchId = undefined;
      this.matchCount = 0;
      this.running = false;
      this.app.requestUpdate();
      return undefined;
    }
    this.running = true;
    this.scanned = 0;
    this.matchCount = 0;
    this.app.requestUpdate();
    try {
      const pending = this.app.client.request('search', { text, order: this.app.currentOrder, filter: this.app.currentFilter });
      const { result } = await pending;
      if (mine !== this.generation) return undefined;
      this.searchId = result.searchId;
      this.matchCount = result.matchCount;
      this.running = false;
      this.matchedSeqs = new Set(result.first.map((m) => m.seq));
      this.app.say(
        result.matchCount ? counted(result.matchCount, '1 match for {1}', '{0} matches for {1}', text) : t('No match for {0}', text),
      );
      this.app.requestUpdate();
      return result.first[0];
    } catch {
      if (mine === this.generation) {
        this.running = false;
        this.app.requestUpdate();
      }
      return undefined;
    }
  }

  async step(direction: 'next' | 'previous'): Promise<void> {
    if (this.searchId === undefined) {
      if (this.text) await this.start(this.text);
      if (this.searchId === undefined) return;
    }
    const fromRow = this.current ? this.current.rowIndex : Math.max(0, this.app.currentActiveIndex - (direction === 'next' ? 1 : -1));
    const { result } = await this.app.client.request('searchStep', { searchId: this.searchId, fromRow, direction });
    if (!result.match) return;
    this.current = result.match;
    this.matchedSeqs.add(result.match.seq);
    this.app.say(t('Match {0} of {1}', result.match.matchIndex + 1, result.matchCount));
    await this.app.jumpTo(result.match.seq, { record: true, focusList: false });
    this.app.requestUpdate();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Enter' || e.key === 'F3') {
      e.preventDefault();
      if (this.debounce) {
        clearTimeout(this.debounce);
        this.debounce = undefined;
        void this.start(this.text).then(() => this.step(e.shiftKey ? 'previous' : 'next'));
        return;
      }
      void this.step(e.shiftKey ? 'previous' : 'next');
    } else if (e.key === 'Escape') {
      e.preventDefault();
      this.app.focusList();
    }
  }

  render(): TemplateResult {
    const status = this.running
      ? t('Searching… {0} % · {1} so far', this.total ? Math.round((this.scanned / this.total) * 100) : 0, this.matchCount)
      : this.searchId === undefined
        ? ''
        : this.matchCount === 0
          ? t('No matches')
          : this.current
            ? t('{0} of {1}', this.current.matchIndex + 1, this.matchCount)
            : counted(this.matchCount, '1 match', '{0} matches');
    return html`<span class="search" role="search">
      <span class="codicon codicon-search" aria-hidden="true"></span>
      <input
        id="search-input"
        type="search"
        placeholder=${t('Search the whole log (/)')}
        aria-label=${t('Search the whole log')}
        .value=${this.text}
        @input=${(e: Event) => this.onInput((e.target as HTMLInputElement).value)}
        @keydown=${(e: KeyboardEvent) => this.onKey(e)}
      />
      <span id="search-status" class="muted" aria-hidden="true">${status}</span>
      ${this.running ? html`<vscode-progress-bar class="search-progress" indeterminate aria-label=${t('Searching')}></vscode-progress-bar>` : nothing}
      <button
        type="button"
        class="icon-button"
        id="search-previous"
        title=${t('Previous match (Shift+Enter)')}
        aria-label=${t('Previous match')}
        ?disabled=${!this.matchCount}
        @click=${() => void this.step('previous')}
      >
        <span class="codicon codicon-arrow-up" aria-hidden="true"></span>
      </button>
      <button
        type="button"
        class="icon-button"
        id="search-next"
        title=${t('Next match (Enter)')}
        aria-label=${t('Next match')}
        ?disabled=${!this.matchCount}
        @click=${() => void this.step('next')}
      >
        <span class="codicon codicon-arrow-down" aria-hidden="true"></span>
      </button>
    </span>`;
  }
}
