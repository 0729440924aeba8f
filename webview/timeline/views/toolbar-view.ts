// The toolbar above the list: the three orders, the type filter, the search box, back and forward, and
// the toggles of the inspector, the Time panel and the As of… panel.
import { html, type TemplateResult } from 'lit';
import type { AsOfController } from '../controllers/as-of-controller';
import type { ListController } from '../controllers/list-controller';
import type { NavigationController } from '../controllers/navigation-controller';
import type { SearchController } from '../controllers/search-controller';
import type { TimeController } from '../controllers/time-controller';
import { orderByKey, ORDERS, type ViewState } from '../controllers/view-state';
import { t } from '../strings';
import { EVENT_TYPE_CHOICES, REPAIRS_FILTER } from '../type-choices';
import { renderAsOfToggle } from './as-of-view';
import { iconButton, toggleButton } from './buttons';
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
    <div class="orders" role="radiogroup" aria-label=${t('Order')} @keydown=${(e: KeyboardEvent) => onOrderKey(e, view, list)}>
      ${ORDERS.map(
        (o) =>
          html`<button
            type="button"
            role="radio"
            class="order-button"
            id="order-${o.order}"
            tabindex=${view.order === o.order ? '0' : '-1'}
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
      ${iconButton({
        id: 'nav-back',
        icon: 'arrow-left',
        label: t('Back'),
        title: t('Back (Alt+Left)'),
        disabled: !navigation.history.canGoBack,
        onClick: () => void navigation.back(),
      })}
      ${iconButton({
        id: 'nav-forward',
        icon: 'arrow-right',
        label: t('Forward'),
        title: t('Forward (Alt+Right)'),
        disabled: !navigation.history.canGoForward,
        onClick: () => void navigation.forward(),
      })}
    </span>
    ${toggleButton({
      id: 'toggle-inspector',
      icon: 'layout-sidebar-right',
      text: t('Inspector'),
      pressed: view.inspectorOpen,
      onClick: on.toggleInspector,
    })}
    ${renderTimeToggle(time)} ${renderAsOfToggle(asOf)}
  </div>`;
}

/** The orders are one radio group and one tab stop: the arrows (and Home, End) choose and focus another. */
function onOrderKey(e: KeyboardEvent, view: ViewState, list: ListController): void {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const next = orderByKey(view.order, e.key);
  if (!next) return;
  e.preventDefault();
  const group = e.currentTarget as HTMLElement;
  void list.setOrder(next);
  group.querySelector<HTMLElement>(`#order-${next}`)?.focus();
}
