// The legend of the overview strip's lanes and of the marks a row carries (its dot, its band, dashed
// rows). Opened from the button at the top of the strip; the swatches take their colours from the same
// stylesheet variables the strip and the rows are drawn with.
import { html, type TemplateResult } from 'lit';
import type { WebviewString } from '../../../src/protocol';
import { t } from '../strings';
import { STRIP_LANES, type StripLane } from './overview-strip';

export const LEGEND_ID = 'overview-legend';

const LANE_WORDS: Record<StripLane | 'warning' | 'info', WebviewString> = {
  surface: 'On the surface: what the model sees',
  shadowed: 'Shadowed: hidden from the model by a compaction or prune',
  compaction: 'Compactions and other replacements',
  prune: 'Prunes',
  repair: 'Crash repairs',
  problem: 'Errors',
  warning: 'Warnings',
  info: 'Information',
};

export function renderLegendToggle(open: boolean, toggle: () => void): TemplateResult {
  return html`<button
    type="button"
    class="icon-button legend-toggle"
    id="toggle-legend"
    aria-expanded=${open ? 'true' : 'false'}
    aria-controls=${LEGEND_ID}
    aria-label=${t('Legend')}
    title=${t('Legend: the colours of the overview strip and the marks of the rows')}
    @click=${toggle}
  >
    <span class="codicon codicon-symbol-color" aria-hidden="true"></span>
  </button>`;
}

export function renderLegend(close: () => void): TemplateResult {
  const lanes = [...STRIP_LANES.slice(0, -1), 'problem', 'warning', 'info'] as const;
  return html`<section
    id=${LEGEND_ID}
    class="legend-popup"
    role="dialog"
    tabindex="-1"
    aria-label=${t('Legend')}
    @keydown=${(e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        close();
      }
    }}
  >
    <h3>${t('Overview strip')}</h3>
    <p class="muted">
      ${t('The whole log from top to bottom, one lane per kind; a lane is stronger where more of the log holds its kind.')}
    </p>
    <ul class="legend-list">
      ${lanes.map(
        (lane) =>
          html`<li data-lane=${lane}><span class="legend-swatch strip-ink ${lane}" aria-hidden="true"></span>${t(LANE_WORDS[lane])}</li>`,
      )}
      <li><span class="legend-swatch selection" aria-hidden="true"></span>${t('The selected event')}</li>
    </ul>
    <h3>${t('Rows')}</h3>
    <ul class="legend-list">
      <li><span class="legend-dot node" aria-hidden="true"></span>${t('On the surface: the model sees it')}</li>
      <li><span class="legend-dot shadowed" aria-hidden="true"></span>${t('Shadowed: the model no longer sees it')}</li>
      <li><span class="legend-dot" aria-hidden="true"></span>${t('No dot: in the log only, never a message to the model')}</li>
      <li><span class="legend-band" aria-hidden="true"></span>${t('The band at the left: one colour per turn, lighter on odd steps')}</li>
      <li>
        <span class="legend-dashed" aria-hidden="true"></span
        >${t('Dashed rows after the list: not in the file yet (closers dsh would append, pending edits)')}
      </li>
    </ul>
  </section>`;
}
