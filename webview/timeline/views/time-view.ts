// The Time panel: the legend, the canvas of spans (views/time-canvas.ts), what a chosen interval held,
// and the usage table per turn or per step, drawn from the TimeController. The wheel zooms around the
// pointer; dragging an interval selects what was active in it and moves the list to the first of it.
import { html, nothing, type TemplateResult } from 'lit';
import type { TimeController } from '../controllers/time-controller';
import { counted, formatNumber, t } from '../strings';
import { toggleButton } from './buttons';
import type { TimeCanvas } from './time-canvas';

export interface TimeHandlers {
  jump(seq: number): void;
}

export function renderTimeToggle(time: TimeController): TemplateResult {
  return toggleButton({
    id: 'toggle-time',
    icon: 'watch',
    text: t('Time'),
    pressed: time.open,
    controls: 'time-panel',
    onClick: () => void time.toggle(),
  });
}

export function renderTime(time: TimeController, canvas: TimeCanvas, on: TimeHandlers): TemplateResult | typeof nothing {
  if (!time.open) return nothing;
  const u = time.usage;
  const n = (v: number | undefined) => (v === undefined ? '' : formatNumber(v));
  return html`<section id="time-panel" class="panel" aria-label=${t('Time and usage')}>
    <p class="muted legend">
      <span class="swatch ttft"></span> ${t('time to first token')} <span class="swatch assistant"></span> ${t('decoding')}
      <span class="swatch tool"></span> ${t('tool call → result.')}
      ${t('Wheel or +/− zooms; drag an interval to go to what was active in it.')}
    </p>
    ${time.spans?.ignoredNote ? html`<p id="time-ignored" class="muted" data-count=${time.spans.ignoredTimes ?? 0}>${time.spans.ignoredNote}</p>` : nothing}
    ${canvas.element}
    ${time.chosen.length ? html`<p id="time-selection">${counted(time.chosen.length, '1 span active in the interval.', '{0} spans active in the interval.')}</p>` : nothing}
    ${
      u
        ? html`<div class="usage-head">
              <h3>${time.usageLevel === 'turn' ? t('Usage per turn') : t('Usage per step')}</h3>
              <button
                type="button"
                class="toggle"
                aria-pressed=${time.usageLevel === 'turn' ? 'true' : 'false'}
                @click=${() => void time.setUsageLevel('turn')}
              >
                ${t('Turns')}
              </button>
              <button
                type="button"
                class="toggle"
                aria-pressed=${time.usageLevel === 'step' ? 'true' : 'false'}
                @click=${() => void time.setUsageLevel('step')}
              >
                ${t('Steps')}
              </button>
            </div>
            <div class="usage-scroll">
              <table id="usage-table">
                <thead>
                  <tr>
                    <th>${time.usageLevel === 'turn' ? t('turn') : t('step')}</th>
                    <th>${t('input')}</th>
                    <th>${t('cached')}</th>
                    <th>${t('output')}</th>
                    <th>${t('reasoning')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${u.rows.map(
                    (r) =>
                      html`<tr>
                        <td>
                          <a
                            href="#"
                            @click=${(e: Event) => {
                              e.preventDefault();
                              on.jump(r.seq);
                            }}
                            >${r.turn}${r.step !== undefined ? `.${r.step}` : ''}</a
                          >
                        </td>
                        <td>${n(r.usage.input)}</td>
                        <td>${n(r.usage.cachedInput)}</td>
                        <td>${n(r.usage.output)}</td>
                        <td>${n(r.usage.reasoning)}</td>
                      </tr>`,
                  )}
                </tbody>
                <tfoot>
                  <tr>
                    <th>${t('all')}</th>
                    <td>${n(u.sum.input)}</td>
                    <td>${n(u.sum.cachedInput)}</td>
                    <td>${n(u.sum.output)}</td>
                    <td>${n(u.sum.reasoning)}</td>
                  </tr>
                </tfoot>
              </table>
            </div>`
        : nothing
    }
  </section>`;
}
