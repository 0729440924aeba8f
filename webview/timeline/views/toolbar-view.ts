// The toolbar above the list: the three orders, the type filter, the search box, back and forward, and
// the toggles of the inspector, the Time panel and the As of… panel.
import { html, type TemplateResult } from 'lit';
import type { AsOfController } from '../controllers/as-of-controller';
import type { ListController } from '../controllers/list-controller';
import type { NavigationController } from '../controllers/navigation-controller';
import type { SearchController } from '../controllers/search-controller';
import type { TimeController } from '../controllers/time-controller';
import { ORDERS, type ViewState } from '../controllers/view-state';
import { t } from '../strings';
import { EVENT_TYPE_CHOICES, REPAIRS_FILTER } from '../type-choices';
import { renderAsOfToggle } from './as-of-view';
import { renderSearch } from './search-view';
import { renderTimeToggle } from './time-view';

export interface ToolbarParts {
  view: ViewState;
  list: ListController;
  navigation: NavigationController;
  search: SearchController;
  time: TimeController;
  asOf: AsOfController;
}

export interface ToolbarHandlers {
  toggleInspector(): void;
  focusList(): void;
}

export function renderToolbar({ view, list, navigation, search, time, asOf }: ToolbarParts, on: ToolbarHandlers): TemplateResult {
  return html`<div class="toolbar" role="toolbar" aria-label=${t('Timeline')}>
    <div class="orders" role="radiogroup" aria-label=${t('Order')}>
      ${ORDERS.map(
        (o) =>
          html`<button
            type="button"
            role="radio"
            class="order-button"
            id="order-${o.order}"
            aria-checked=${view.order === o.order ? 'true' : 'false'}
            title=${t('{0} (Alt+{1})', t(o.label), o.key)}
            @click=${() => void list.setOrder(o.order)}
          >
            ${t(o.label)}
          </button>`,
      )}
    </div>
    <label class="filter"
      >${t('Type')}
      <select id="type-filter" @change=${(e: Event) => list.setTypeFilter((e.target as HTMLSelectElement).value)}>
        <option value="" ?selected=${!view.filter.length}>${t('All types')}</option>
        ${EVENT_TYPE_CHOICES.map((type) => html`<option value=${type} ?selected=${view.filter[0] === type}>${type}</option>`)}
        <option value=${REPAIRS_FILTER} ?selected=${view.filter[0] === REPAIRS_FILTER}>
          ${t('Repairs (events a crash repair wrote)')}
        </option>
      </select></label
    >
    ${renderSearch(search, { focusList: on.focusList })}
    <span class="nav">
      <button
        type="button"
        class="icon-button"
        id="nav-back"
        title=${t('Back (Alt+Left)')}
        aria-label=${t('Back')}
        ?disabled=${!navigation.history.canGoBack}
        @click=${() => void navigation.back()}
      >
        <span class="codicon codicon-arrow-left" aria-hidden="true"></span>
      </button>
      <button
        type="button"
        class="icon-button"
        id="nav-forward"
        title=${t('Forward (Alt+Right)')}
        aria-label=${t('Forward')}
        ?disabled=${!navigation.history.canGoForward}
        @click=${() => void navigation.forward()}
      >
        <span class="codicon codicon-arrow-right" aria-hidden="true"></span>
      </button>
    </span>
    <button
      type="button"
      class="toggle"
      id="toggle-inspector"
      aria-pressed=${view.inspectorOpen ? 'true' : 'false'}
      @click=${on.toggleInspector}
    >
      <span class="codicon codicon-layout-sidebar-right" aria-hidden="true"></span> ${t('Inspector')}
    </button>
    ${renderTimeToggle(time)} ${renderAsOfToggle(asOf)}
  </div>`;
}
