// Text search over the whole log, done by the host (the browser's find cannot see rows that are not
// drawn). Typing starts a search after a pause; progress and the match count show while it runs; the
// next and previous match are each scrolled into view and selected. Matches are rows of the order and
// filter searched, so a change of either searches again.
import type { SearchMatch, SearchProgress } from '../../../src/protocol';
import { counted, t } from '../strings';
import type { ListController } from './list-controller';
import type { NavigationController } from './navigation-controller';
import { TimelineController, type TimelineHost } from './timeline-host';

/** Typing waits this long for the next key before it searches. */
const TYPING_PAUSE_MS = 250;

export class SearchController extends TimelineController {
  text = '';
  searchId: number | undefined;
  running = false;
  scanned = 0;
  /** Events to search, as the last progress said. */
  toScan = 0;
  matchCount = 0;
  current: SearchMatch | undefined;
  matchedSeqs = new Set<number>();
  private typing: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by each search, so the answer of an older one is dropped. */
  private generation = 0;

  constructor(
    host: TimelineHost,
    private readonly list: ListController,
    private readonly navigation: NavigationController,
  ) {
    super(host);
  }

  hostDisconnected(): void {
    clearTimeout(this.typing);
  }

  /** The words of the status beside the box: progress, no match, "3 of 12", or the count. */
  get status(): string {
    if (this.running)
      return t('Searching… {0} % · {1} so far', this.toScan ? Math.round((this.scanned / this.toScan) * 100) : 0, this.matchCount);
    if (this.searchId === undefined) return '';
    if (this.matchCount === 0) return t('No matches');
    if (this.current) return t('{0} of {1}', this.current.matchIndex + 1, this.matchCount);
    return counted(this.matchCount, '1 match', '{0} matches');
  }

  onProgress(p: SearchProgress): void {
    if (p.searchId !== this.searchId) return;
    this.scanned = p.scanned;
    this.toScan = p.total;
    this.matchCount = p.matchCount;
    this.host.requestUpdate();
  }

  /** The order or filter changed: matches are row indexes of the old view, so search again. */
  onViewChanged(): void {
    if (this.text) void this.start(this.text);
  }

  /** The box's text changed: a search starts once typing pauses. */
  type(value: string): void {
    this.text = value;
    clearTimeout(this.typing);
    this.typing = setTimeout(() => {
      this.typing = undefined;
      void this.start(value);
    }, TYPING_PAUSE_MS);
  }

  /** Enter (Shift: backwards): the search the typing waits for starts now, then the next match is shown. */
  submit(direction: 'next' | 'previous'): void {
    if (this.typing) {
      clearTimeout(this.typing);
      this.typing = undefined;
      void this.start(this.text).then(() => this.step(direction));
      return;
    }
    void this.step(direction);
  }

  async start(text: string): Promise<SearchMatch | undefined> {
    const mine = ++this.generation;
    if (this.searchId !== undefined && this.running)
      void this.host.request('cancelSearch', { searchId: this.searchId }).catch(() => undefined);
    this.current = undefined;
    this.matchedSeqs = new Set();
    if (!text) {
      this.searchId = undefined;
      this.matchCount = 0;
      this.running = false;
      this.host.requestUpdate();
      return undefined;
    }
    this.running = true;
    this.scanned = 0;
    this.matchCount = 0;
    this.host.requestUpdate();
    try {
      const { result } = await this.host.request('search', { text, order: this.list.order, filter: this.list.filter() });
      if (mine !== this.generation) return undefined;
      this.searchId = result.searchId;
      this.matchCount = result.matchCount;
      this.running = false;
      this.matchedSeqs = new Set(result.first.map((m) => m.seq));
      this.host.say(
        result.matchCount ? counted(result.matchCount, '1 match for {1}', '{0} matches for {1}', text) : t('No match for {0}', text),
      );
      this.host.requestUpdate();
      return result.first[0];
    } catch {
      if (mine === this.generation) {
        this.running = false;
        this.host.requestUpdate();
      }
      return undefined;
    }
  }

  async step(direction: 'next' | 'previous'): Promise<void> {
    if (this.searchId === undefined) {
      if (this.text) await this.start(this.text);
      if (this.searchId === undefined) return;
    }
    const fromRow = this.current ? this.current.rowIndex : Math.max(0, this.list.activeIndex - (direction === 'next' ? 1 : -1));
    const { result } = await this.host.request('searchStep', { searchId: this.searchId, fromRow, direction });
    if (!result.match) return;
    this.current = result.match;
    this.matchedSeqs.add(result.match.seq);
    this.host.say(t('Match {0} of {1}', result.match.matchIndex + 1, result.matchCount));
    await this.navigation.jumpTo(result.match.seq, { record: true, focusList: false });
    this.host.requestUpdate();
  }
}
