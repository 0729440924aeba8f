// Surface as of seq N: the surface and the derived messages after folding every event up to N; and
// the derived messages of two points compared (for instance just before and just after a compaction).
import { html, nothing, type TemplateResult } from 'lit';
import type { MessagesDiff, SurfaceAsOf } from '../../src/protocol/messages';
import { oneLine } from './safe-text';
import { counted, formatNumber, label, t } from './strings';
import type { WebviewString } from '../../src/protocol/webview-strings';
import type { TimelineApp } from './timeline-app';

const NODES_SHOWN = 300;

export class AsOfPanel {
  private open = false;
  private asOfSeq = '';
  private fromSeq = '';
  private toSeq = '';
  private result: SurfaceAsOf | undefined;
  private diff: MessagesDiff | undefined;
  private error = '';

  constructor(private readonly app: TimelineApp) {}

  renderToggle(): TemplateResult {
    return html`<button
      type="button"
      class="toggle"
      id="toggle-asof"
      aria-pressed=${this.open ? 'true' : 'false'}
      aria-controls="asof-panel"
      title=${t('Surface and derived messages as of a seq, and a diff of two points')}
      @click=${() => this.toggle()}
    >
      <span class="codicon codicon-history" aria-hidden="true"></span> ${t('As of…')}
    </button>`;
  }

  toggle(): void {
    this.open = !this.open;
    if (this.open && !this.asOfSeq && this.app.selectedSeq !== undefined) this.asOfSeq = String(this.app.selectedSeq);
    this.app.requestUpdate();
    if (this.open) void this.app.updateComplete.then(() => this.app.querySelector<HTMLInputElement>('#asof-seq')?.focus());
  }

  onAppended(): void {
    // An as-of view of an earlier point does not change with appends; the diff neither.
  }

  private async show(): Promise<void> {
    const seq = Number(this.asOfSeq);
    if (!Number.isSafeInteger(seq) || seq < 0) {
      this.error = t('Enter a seq (a whole number).');
      this.app.requestUpdate();
      return;
    }
    try {
      const { result } = await this.app.client.request('surfaceAsOf', { seq, start: 0, count: NODES_SHOWN });
      this.result = result;
      this.error = '';
      this.app.say(t('As of seq {0}: {1} surface nodes, {2} messages', seq, result.surfaceLength, result.messageCount));
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.app.requestUpdate();
  }

  private async compare(): Promise<void> {
    const from = Number(this.fromSeq);
    const to = Number(this.toSeq);
    if (![from, to].every((n) => Number.isSafeInteger(n) && n >= 0)) {
      this.error = t('Enter two seqs to compare.');
      this.app.requestUpdate();
      return;
    }
    try {
      const { result } = await this.app.client.request('diffAsOf', { fromSeq: from, toSeq: to });
      this.diff = result;
      this.error = '';
      this.app.say(
        counted(
          result.added,
          '1 message added, {1} removed between seq {2} and seq {3}',
          '{0} messages added, {1} removed between seq {2} and seq {3}',
          result.removed,
          from,
          to,
        ),
      );
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.app.requestUpdate();
  }

  private useSelection(): void {
    const s = this.app.selectedSeq;
    if (s === undefined) return;
    this.asOfSeq = String(s);
    this.fromSeq = String(Math.max(0, s - 1));
    this.toSeq = String(s);
    this.app.requestUpdate();
  }

  render(): TemplateResult | typeof nothing {
    if (!this.open) return nothing;
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
          this.asOfSeq,
          (v) => {
            this.asOfSeq = v;
          },
          () => void this.show(),
        )}
        <vscode-button id="asof-show" @click=${() => void this.show()}>${t('Show surface')}</vscode-button>
        ${input(
          'diff-from',
          'Compare seq',
          this.fromSeq,
          (v) => {
            this.fromSeq = v;
          },
          () => void this.compare(),
        )}
        ${input(
          'diff-to',
          'with seq',
          this.toSeq,
          (v) => {
            this.toSeq = v;
          },
          () => void this.compare(),
        )}
        <vscode-button id="diff-show" secondary @click=${() => void this.compare()}>${t('Compare messages')}</vscode-button>
        <vscode-button id="asof-use-selection" secondary ?disabled=${this.app.selectedSeq === undefined} @click=${() => this.useSelection()}
          >${t('Use the selected event')}</vscode-button
        >
      </div>
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      <div class="panel-columns">
        ${this.result ? this.renderAsOf(this.result) : nothing} ${this.diff ? this.renderDiff(this.diff) : nothing}
      </div>
    </section>`;
  }

  private renderAsOf(r: SurfaceAsOf): TemplateResult {
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
                  void this.app.jumpTo(n.seq);
                }}
                >seq ${n.seq}</a
              >
              <span class="label">${label(n.label)}</span> <span class="summary">${oneLine(n.summary, 160)}</span>
            </li>`,
        )}
      </ol>
      ${r.surfaceLength > r.nodes.length ? html`<p class="muted">${t('First {0} of {1} nodes.', formatNumber(r.nodes.length), formatNumber(r.surfaceLength))}</p>` : nothing}
    </div>`;
  }

  private renderDiff(d: MessagesDiff): TemplateResult {
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
                void this.app.jumpTo(e.seq);
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
}
