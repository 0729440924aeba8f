// The session editor's main view: the timeline of the log with the surface as its spine. The element is
// a composition: each part of the view's state and behaviour is a controller (./controllers/, no DOM,
// unit-tested under Node) written against the small TimelineHost interface this element provides; the
// host's notifications go to them through one typed handler map; the views (./views/) draw them. Rows,
// details and everything else are asked of the host by window, and dropped when its generation moves on.
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { HostClient, Requester } from '../host-client';
import { countProgressDrawn, markFirstRowsPainted, markLoadDone, reportRendered } from '../test-hooks';
import type { KeyPress } from './controllers/keyboard-controller';
import type { ListSurface } from './controllers/list-controller';
import { TimelineControllers } from './controllers/timeline-controllers';
import type { TimelineHost } from './controllers/timeline-host';
import { isLanguageTag, t } from './strings';
import { Announcer } from './views/announcer';
import { ColumnWidths } from './views/column-widths';
import { renderAsOf } from './views/as-of-view';
import { renderCrashBanner } from './views/crash-banner';
import { renderHealthLists } from './views/health-lists';
import { renderHealth, renderLoading } from './views/health-view';
import { renderInspector } from './views/inspector-view';
import { LIST_ID, renderListColumn } from './views/list-view';
import { LEGEND_ID, renderLegend, renderLegendToggle } from './views/overview-legend';
import { OverviewStrip } from './views/overview-strip';
import { rowClick, type RowContext } from './views/row-view';
import { TimeCanvas } from './views/time-canvas';
import { renderTime } from './views/time-view';
import { renderToolbar } from './views/toolbar-view';
import type { VirtualRows } from './views/virtual-rows';
import { vscodeStateStorage } from '../vscode-api';

export class TimelineApp extends LitElement implements TimelineHost {
  /** Set by the page before the element is connected: the way to the host. */
  client!: HostClient;
  readonly request: Requester = (method, params) => this.client.request(method, params);
  private readonly announcer = new Announcer();
  private readonly strip = new OverviewStrip((seq) => void this.c.navigation.jumpTo(seq, { record: true, focusList: false }));
  private readonly timeCanvas = new TimeCanvas();
  private readonly columns = new ColumnWidths(() => this);
  private listRedrawPending = false;
  private legendOpen = false;
  /** The controllers, composed; the page's part of them is below. */
  readonly c = new TimelineControllers(this, vscodeStateStorage, {
    surface: this.listSurface(),
    keys: { listen: (onKey) => this.listenForKeys(onKey) },
    focusList: () => this.focusList(),
    focusSearch: () => this.focusSearch(),
    openInspector: () => this.openInspector(),
    focusFirstGhost: () => this.focusFirst('#ghost-rows .ghost-row'),
    focusAsOfInput: () => this.focusFirst('#asof-seq'),
    focusTimeCanvas: () => this.timeCanvas.element.focus(),
    redrawTimeCanvas: () => this.timeCanvas.draw(),
    focusBelowList: (selector) => {
      const el = this.querySelector<HTMLElement>(selector);
      el?.scrollIntoView({ block: 'nearest' });
      el?.focus();
    },
    setBusy: (busy) => this.parentElement?.setAttribute('aria-busy', String(busy)),
    setLanguage: (language) => {
      if (isLanguageTag(language)) document.documentElement.lang = language;
    },
    progressShown: () => countProgressDrawn(),
    summaryArrived: (summary, first) => {
      if (first) markLoadDone();
      reportRendered((m) => this.client.send(m), summary);
    },
    firstRowsShown: () => markFirstRowsPainted(),
  });

  constructor() {
    super();
    this.timeCanvas.attach(this.c.time);
  }

  override createRenderRoot(): this {
    return this; // light DOM: the page's stylesheet and the codicon font apply, tests and AT see plain DOM
  }

  say(text: string): void {
    this.announcer.say(text);
  }

  nextFrame(): Promise<void> {
    return new Promise((resolve) => {
      const fallback = setTimeout(resolve, 100);
      requestAnimationFrame(() => {
        clearTimeout(fallback);
        resolve();
      });
    });
  }

  // ---- the page's side of the controllers --------------------------------------------------------

  private get rows(): VirtualRows | null {
    return this.querySelector('virtual-rows');
  }

  private listSurface(): ListSurface {
    const rows = () => this.rows;
    return {
      scrollToIndex: (index, block) => {
        const rows = this.rows;
        if (rows && rows.count > index) rows.scrollToIndex(index, block);
        // The list is drawn, or learns its new count, at the next redraw.
        else void this.updateComplete.then(() => this.rows?.scrollToIndex(index, block));
      },
      setCount: (total) => {
        const rows = this.rows;
        if (rows) rows.count = total;
      },
      // Rows that arrive in one frame (several pages, several answers) are drawn together, in the next.
      redrawSoon: () => {
        if (this.listRedrawPending) return;
        this.listRedrawPending = true;
        requestAnimationFrame(() => {
          this.listRedrawPending = false;
          this.rows?.requestUpdate();
        });
      },
      forgetSizes: () => this.rows?.forgetSizes(),
      get drawn() {
        return rows() !== null;
      },
      settled: () => this.rows?.updateComplete ?? Promise.resolve(),
    };
  }

  private listenForKeys(onKey: (key: KeyPress) => boolean): () => void {
    const listener = (e: KeyboardEvent) => {
      if (onKey(keyPress(e))) e.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }

  focusList(): void {
    this.querySelector<HTMLElement>(`#${LIST_ID}`)?.focus();
  }

  private focusSearch(): void {
    const input = this.querySelector<HTMLInputElement>('#search-input');
    input?.focus();
    input?.select();
  }

  private focusFirst(selector: string): boolean {
    const el = this.querySelector<HTMLElement>(selector);
    el?.focus();
    return !!el;
  }

  private openInspector(): void {
    this.setInspector(true);
    void this.updateComplete.then(() => this.focusFirst('#inspector'));
  }

  /** Opens or closes the legend; it takes the focus when it opens, and gives it back to its button when closed by key. */
  private setLegend(open: boolean, focusToggle = false): void {
    this.legendOpen = open;
    this.requestUpdate();
    void this.updateComplete.then(() => {
      if (open) this.focusFirst(`#${LEGEND_ID}`);
      else if (focusToggle) this.focusFirst('#toggle-legend');
    });
  }

  private setInspector(open: boolean): void {
    this.c.view.inspectorOpen = open;
    this.c.view.save();
    this.requestUpdate();
  }

  // ---- drawing --------------------------------------------------------------------------------

  protected override updated(_changed: PropertyValues): void {
    // The strip draws its canvas for a new overview only; a new selection moves its marker.
    if (this.c.session.overview) this.strip.draw(this.c.session.overview, this.c.view.selectedSeq);
  }

  /** One listener for every row of the list: a click selects (Shift+click grows a range), a twist expands. */
  private onListClick(e: MouseEvent): void {
    const hit = rowClick(e);
    if (!hit) return;
    const { list, expansion, navigation } = this.c;
    const row = list.row(hit.index);
    if (hit.twist && row?.kind === 'chunkRun') return expansion.toggleRun(row);
    navigation.extendRange(e.shiftKey);
    list.activeIndex = hit.index;
    void navigation.select(hit.seq, { scroll: false, index: hit.index });
    this.focusList();
  }

  private rowContext(): RowContext {
    const { view, list, navigation, search, expansion } = this.c;
    return {
      selectedSeq: view.selectedSeq,
      activeIndex: list.activeIndex,
      highlighted: navigation.highlighted,
      matches: search.matchedSeqs,
      brackets: expansion.brackets,
      expandedBrackets: expansion.expandedBrackets,
      bracketRows: (b) => expansion.rowsOf(b),
      listId: LIST_ID,
      total: list.total,
      range: navigation.range,
      columns: this.columns,
    };
  }

  protected override render(): TemplateResult {
    const { view, list, session, crash, navigation, keyboard, expansion, time, asOf } = this.c;
    const jump = (seq: number) => void navigation.jumpTo(seq);
    const reveal = (line: number) => void navigation.reveal(line);
    if (session.failed !== undefined) {
      return html`<section id="load-failed" role="alert" class="notice error">
          <h2>${t('Could not open the log')}</h2>
          <p>${session.failed}</p>
          <vscode-button id="reload" @click=${() => void this.request('reload', {})}>${t('Reload from disk')}</vscode-button>
        </section>
        ${this.announcer.render()}`;
    }
    const summary = session.summary;
    if (!summary)
      return html`${session.loading ? renderLoading(session.loading) : html`<p class="muted">${t('Starting…')}</p>`}${this.announcer.render()}`;
    return html`<div class="session-top">
        ${renderHealth(
          summary,
          session.children,
          { reload: () => void this.request('reload', {}), reveal, openLineage: (to) => void this.request('openLineage', { to }) },
          crash.openTurnActivity,
        )}
        ${renderHealthLists(crash.review, { go: (target) => crash.go(target) })}
        ${renderCrashBanner(crash.review?.openTurn, crash.review?.tornTail, {
          jump,
          apply: () => crash.run('apply'),
          removeTornTail: () => crash.run('removeTornTail'),
        })}
      </div>
      ${renderToolbar(this.c, { toggleInspector: () => this.setInspector(!view.inspectorOpen), focusList: () => this.focusList() })}
      <div class="timeline-body ${view.inspectorOpen ? 'with-inspector' : ''}">
        ${renderListColumn(
          { view, list, session, crash, rows: this.rowContext() },
          {
            key: (e) => {
              if (keyboard.listKey(keyPress(e))) e.preventDefault();
            },
            click: (e) => this.onListClick(e),
            focusList: () => this.focusList(),
            toggleBracket: (seq) => expansion.toggleBracket(seq),
            jump,
          },
        )}
        <div id="overview-host" class="overview-column">
          ${renderLegendToggle(this.legendOpen, () => this.setLegend(!this.legendOpen))} ${this.strip.element}
          ${this.legendOpen ? renderLegend(() => this.setLegend(false, true)) : nothing}
        </div>
        ${
          view.inspectorOpen
            ? renderInspector(navigation.detail, navigation.detailLoading, {
                jump,
                reveal,
                close: () => this.setInspector(false),
                openSession: (id) => void this.request('openSession', { id }),
              })
            : nothing
        }
      </div>
      <div class="panels-below">${renderTime(time, this.timeCanvas, { jump })}${renderAsOf(asOf, { jump })}</div>
      ${this.announcer.render()}`;
  }
}

/** A keyboard event as the keymap reads it. */
function keyPress(e: KeyboardEvent): KeyPress {
  const target = e.target as HTMLElement | null;
  const typing =
    !!target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
  return {
    key: e.key,
    shiftKey: e.shiftKey,
    altKey: e.altKey,
    ctrlKey: e.ctrlKey,
    metaKey: e.metaKey,
    typing,
    inInspector: !!target?.closest?.('#inspector'),
  };
}

customElements.define('timeline-app', TimelineApp);
