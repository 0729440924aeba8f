// The "As of…" panel: the surface and derived messages as of a seq, and the derived messages of two
// points compared, drawn from the AsOfController; every seq in them jumps to its event.
import { html, nothing, type TemplateResult } from 'lit';
import type { MessagesDiff, SurfaceAsOf, WebviewString } from '../../../src/protocol';
import type { AsOfController } from '../controllers/as-of-controller';
import { oneLine } from '../safe-text';
import { toggleButton } from './buttons';
import { formatNumber, t } from '../strings';

export interface AsOfHandlers {
  jump(seq: number): void;
}

export function renderAsOfToggle(asOf: AsOfController): TemplateResult {
  return toggleButton({
    id: 'toggle-asof',
    icon: 'history',
    text: t('As of…'),
    pressed: asOf.open,
    controls: 'asof-panel',
    title: t('Surface and derived messages as of a seq, and a diff of two points'),
    onClick: () => asOf.toggle(),
  });
}

export function renderAsOf(asOf: AsOfController, on: AsOfHandlers): TemplateResult | typeof nothing {
  if (!asOf.open) return nothing;
  const input = (id: string, caption: WebviewString, value: string, set: (v: string) => void, go: () => void) =>
    html`<label
      >${t(caption)}
      <input
        id=${id}
        type="number"
        min="0"
        inputmode="numeric"
        .value=${value}
        @input=${(e: Event) => set((e.target as HTMLInputElement).value)}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            go();
          }
        }}
    /></label>`;
  return html`<section id="asof-panel" class="panel" aria-label=${t('Surface as of a seq')}>
    <div class="panel-row">
      ${input(
        'asof-seq',
        'As of seq',
        asOf.asOfSeq,
        (v) => {
          asOf.asOfSeq = v;
        },
        () => void asOf.show(),
      )}
      <vscode-button id="asof-show" @click=${() => void asOf.show()}>${t('Show surface')}</vscode-button>
      ${input(
        'diff-from',
        'Compare seq',
        asOf.fromSeq,
        (v) => {
          asOf.fromSeq = v;
        },
        () => void asOf.compare(),
      )}
      ${input(
        'diff-to',
        'with seq',
        asOf.toSeq,
        (v) => {
          asOf.toSeq = v;
        },
        () => void asOf.compare(),
      )}
      <vscode-button id="diff-show" secondary @click=${() => void asOf.compare()}>${t('Compare messages')}</vscode-button>
      <vscode-button id="asof-use-selection" secondary ?disabled=${asOf.selection === undefined} @click=${() => asOf.useSelection()}
        >${t('Use the selected event')}</vscode-button
      >
    </div>
    ${asOf.error ? html`<p class="error-text" role="alert">${asOf.error}</p>` : nothing}
    <div class="panel-columns">
      ${asOf.result ? renderSurface(asOf.result, on) : nothing} ${asOf.diff ? renderDiff(asOf.diff, on) : nothing}
    </div>
  </section>`;
}

function renderSurface(r: SurfaceAsOf, on: AsOfHandlers): TemplateResult {
  return html`<div id="asof-result" data-as-of=${r.asOfSeq} data-surface-length=${r.surfaceLength} data-messages=${r.messageCount}>
    <h3>
      ${t('As of seq {0}: {1} surface nodes, {2} derived messages', r.asOfSeq, formatNumber(r.surfaceLength), formatNumber(r.messageCount))}
    </h3>
    <ol class="asof-nodes" start=${r.start + 1}>
      ${r.nodes.map(
        (n) =>
          html`<li data-seq=${n.seq}>
            <a
              href="#"
              @click=${(e: Event) => {
                e.preventDefault();
                on.jump(n.seq);
              }}
              >seq ${n.seq}</a
            >
            <span class="label">${n.label}</span> <span class="summary">${oneLine(n.summary, 160)}</span>
          </li>`,
      )}
    </ol>
    ${r.surfaceLength > r.nodes.length ? html`<p class="muted">${t('First {0} of {1} nodes.', formatNumber(r.nodes.length), formatNumber(r.surfaceLength))}</p>` : nothing}
  </div>`;
}

function renderDiff(d: MessagesDiff, on: AsOfHandlers): TemplateResult {
  return html`<div id="diff-result" data-added=${d.added} data-removed=${d.removed}>
    <h3>
      ${t(
        'Messages at seq {0} ({1}) → seq {2} ({3}): {4} added, {5} removed',
        d.fromSeq,
        formatNumber(d.fromCount),
        d.toSeq,
        formatNumber(d.toCount),
        formatNumber(d.added),
        formatNumber(d.removed),
      )}
    </h3>
    <ul class="diff">
      ${d.entries.map((e) => {
        if (e.kind === 'same') return html`<li class="same muted">${t('{0} unchanged', formatNumber(e.count))}</li>`;
        const sign = e.kind === 'added' ? '+' : '−';
        return html`<li class=${e.kind} data-seq=${e.seq}>
          <span class="sign" aria-label=${e.kind === 'added' ? t('added') : t('removed')}>${sign}</span>
          <a
            href="#"
            @click=${(ev: Event) => {
              ev.preventDefault();
              on.jump(e.seq);
            }}
            >seq ${e.seq}</a
          >
          ${oneLine(e.summary, 200)}
        </li>`;
      })}
    </ul>
    ${d.truncated ? html`<p class="muted">${t('Only the first differences are listed; the counts are whole.')}</p>` : nothing}
  </div>`;
}
