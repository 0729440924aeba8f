// Time: each record drawn at its real start and duration (turns, steps, assistant spans split into
// time to first token and decoding, tool spans from call to result). The wheel zooms around the
// pointer; dragging an interval selects what was active in it and moves the list to the first of it.
// Usage per turn and per step sits below.
import { html, nothing, type TemplateResult } from 'lit';
import type { TimeSpan, TimeSpans, UsageTable } from '../../src/protocol/messages';
import type { TimelineApp } from './timeline-app';
import { counted, formatNumber, t } from './strings';

const LANES: TimeSpan['kind'][] = ['turn', 'step', 'assistant', 'tool'];
const LANE_H = 18;

export class TimePanel {
  private open = false;
  private spans: TimeSpans | undefined;
  private usage: UsageTable | undefined;
  private usageLevel: 'turn' | 'step' = 'turn';
  private view = { from: 0, to: 1 };
  private drag: { x0: number; x1: number } | undefined;
  private activeInDrag: TimeSpan[] = [];
  private readonly canvas: HTMLCanvasElement;

  constructor(private readonly app: TimelineApp) {
    const c = document.createElement('canvas');
    c.id = 'time-canvas';
    c.tabIndex = 0;
    c.setAttribute('role', 'img');
    c.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    c.addEventListener('pointerdown', (e) => {
      c.setPointerCapture(e.pointerId);
      this.drag = { x0: e.offsetX, x1: e.offsetX };
    });
    c.addEventListener('pointermove', (e) => {
      if (this.drag) {
        this.drag.x1 = e.offsetX;
        this.draw();
      }
    });
    c.addEventListener('pointerup', () => this.endDrag());
    c.addEventListener('keydown', (e) => this.onKey(e));
    this.canvas = c;
  }

  renderToggle(): TemplateResult {
    return html`<button
      type="button"
      class="toggle"
      id="toggle-time"
      aria-pressed=${this.open ? 'true' : 'false'}
      aria-controls="time-panel"
      @click=${() => void this.toggle()}
    >
      <span class="codicon codicon-watch" aria-hidden="true"></span> ${t('Time')}
    </button>`;
  }

  async toggle(): Promise<void> {
    this.open = !this.open;
    this.app.requestUpdate();
    if (this.open) {
      await this.load();
      await this.app.updateComplete;
      this.canvas.focus();
    }
  }

  private async load(): Promise<void> {
    const [spans, usage] = await Promise.all([
      this.app.client.request('timeSpans', { maxSpans: 20_000 }),
      this.app.client.request('usage', { level: this.usageLevel, start: 0, count: 500 }),
    ]);
    this.spans = spans.result;
    this.usage = usage.result;
    this.view = { from: this.spans.first ?? 0, to: Math.max(this.spans.last ?? 1, (this.spans.first ?? 0) + 1) };
    this.app.requestUpdate();
    await this.app.updateComplete;
    this.draw();
  }

  private x(t: number, width: number): number {
    return ((t - this.view.from) / (this.view.to - this.view.from)) * width;
  }

  private timeAt(x: number): number {
    return this.view.from + (x / Math.max(1, this.canvas.clientWidth)) * (this.view.to - this.view.from);
  }

  private zoom(factor: number, anchorX: number): void {
    const t = this.timeAt(anchorX);
    const span = Math.max(5, (this.view.to - this.view.from) * factor);
    const left = (anchorX / Math.max(1, this.canvas.clientWidth)) * span;
    this.view = { from: t - left, to: t - left + span };
    this.draw();
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    this.zoom(e.deltaY > 0 ? 1.25 : 0.8, e.offsetX);
  }

  private onKey(e: KeyboardEvent): void {
    const w = this.canvas.clientWidth;
    const shift = (this.view.to - this.view.from) * 0.1;
    if (e.key === '+' || e.key === '=') this.zoom(0.8, w / 2);
    else if (e.key === '-') this.zoom(1.25, w / 2);
    else if (e.key === 'ArrowLeft' && !e.altKey) {
      this.view = { from: this.view.from - shift, to: this.view.to - shift };
      this.draw();
    } else if (e.key === 'ArrowRight' && !e.altKey) {
      this.view = { from: this.view.from + shift, to: this.view.to + shift };
      this.draw();
    } else if (e.key === 'Enter') {
      this.selectInterval(this.view.from, this.view.to);
    } else return;
    e.preventDefault();
  }

  private endDrag(): void {
    const d = this.drag;
    this.drag = undefined;
    if (!d) return;
    if (Math.abs(d.x1 - d.x0) < 3) {
      // A click: the span under the pointer.
      const t = this.timeAt(d.x0);
      const hit = this.spans?.spans.find((s) => s.kind !== 'turn' && s.start <= t && t <= s.start + (s.duration ?? 0));
      if (hit) void this.app.jumpTo(hit.seq, { record: true, focusList: false });
      this.draw();
      return;
    }
    this.selectInterval(this.timeAt(Math.min(d.x0, d.x1)), this.timeAt(Math.max(d.x0, d.x1)));
  }

  /** Spans active in [from, to]: the list moves to the first of them; the count is announced. */
  private selectInterval(from: number, to: number): void {
    const active = (this.spans?.spans ?? []).filter((s) => s.kind !== 'turn' && s.start <= to && s.start + (s.duration ?? 0) >= from);
    this.activeInDrag = active;
    this.app.say(counted(active.length, '1 span was active in the selected interval', '{0} spans were active in the selected interval'));
    const first = active.reduce<TimeSpan | undefined>((a, s) => (!a || s.seq < a.seq ? s : a), undefined);
    if (first) void this.app.jumpTo(first.seq, { record: true, focusList: false });
    this.app.requestUpdate();
    this.draw();
  }

  private draw(): void {
    const c = this.canvas;
    const spans = this.spans;
    if (!spans || !c.isConnected) return;
    const width = Math.max(100, c.clientWidth);
    const height = LANES.length * LANE_H + 18;
    const ratio = window.devicePixelRatio || 1;
    c.width = Math.round(width * ratio);
    c.height = Math.round(height * ratio);
    c.style.height = `${height}px`;
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(document.body);
    const color = (v: string, f: string) => style.getPropertyValue(v).trim() || f;
    g.clearRect(0, 0, width, height);
    const fills: Record<string, string> = {
      turn: color('--vscode-charts-blue', '#48c'),
      step: color('--vscode-charts-green', '#4a4'),
      assistant: color('--vscode-charts-purple', '#a6c'),
      tool: color('--vscode-charts-orange', '#d84'),
    };
    const ttft = color('--vscode-charts-yellow', '#cc4');
    const active = new Set(this.activeInDrag.map((s) => s.seq));
    for (const s of spans.spans) {
      const lane = LANES.indexOf(s.kind);
      if (lane < 0) continue;
      const end = s.start + (s.duration ?? (spans.last ?? s.start) - s.start);
      const x0 = this.x(s.start, width);
      const x1 = this.x(end, width);
      if (x1 < 0 || x0 > width) continue;
      const y = lane * LANE_H + 2;
      g.globalAlpha = active.size && !active.has(s.seq) ? 0.35 : 1;
      g.fillStyle = fills[s.kind];
      g.fillRect(x0, y, Math.max(1, x1 - x0), LANE_H - 4);
      if (s.kind === 'assistant' && s.firstTokenMs !== undefined) {
        g.fillStyle = ttft;
        g.fillRect(x0, y, Math.max(1, this.x(s.start + s.firstTokenMs, width) - x0), LANE_H - 4);
      }
    }
    g.globalAlpha = 1;
    g.fillStyle = color('--vscode-foreground', '#888');
    g.font = `11px ${color('--vscode-font-family', 'sans-serif')}`;
    LANES.forEach((l, i) => g.fillText(l, 2, i * LANE_H + 13));
    g.fillText(t('{0} ms shown', formatNumber(Math.round(this.view.to - this.view.from))), 2, height - 4);
    if (this.drag) {
      g.fillStyle = color('--vscode-editor-selectionBackground', '#39f');
      g.globalAlpha = 0.35;
      g.fillRect(Math.min(this.drag.x0, this.drag.x1), 0, Math.abs(this.drag.x1 - this.drag.x0), height);
      g.globalAlpha = 1;
    }
  }

  private async setUsageLevel(level: 'turn' | 'step'): Promise<void> {
    this.usageLevel = level;
    const { result } = await this.app.client.request('usage', { level, start: 0, count: 500 });
    this.usage = result;
    this.app.requestUpdate();
  }

  render(): TemplateResult | typeof nothing {
    if (!this.open) return nothing;
    queueMicrotask(() => this.draw());
    // Labelled here rather than when made, so the strings table that arrives later applies.
    this.canvas.setAttribute(
      'aria-label',
      t('Time view: turns, steps, assistant and tool spans. Plus and minus zoom, Left and Right pan.'),
    );
    const u = this.usage;
    const n = (v: number | undefined) => (v === undefined ? '' : formatNumber(v));
    return html`<section id="time-panel" class="panel" aria-label=${t('Time and usage')}>
      <p class="muted legend">
        <span class="swatch ttft"></span> ${t('time to first token')} <span class="swatch assistant"></span> ${t('decoding')}
        <span class="swatch tool"></span> ${t('tool call → result.')}
        ${t('Wheel or +/− zooms; drag an interval to go to what was active in it.')}
      </p>
      ${this.canvas}
      ${this.activeInDrag.length ? html`<p id="time-selection">${counted(this.activeInDrag.length, '1 span active in the interval.', '{0} spans active in the interval.')}</p>` : nothing}
      ${
        u
          ? html`<div class="usage-head">
                <h3>${this.usageLevel === 'turn' ? t('Usage per turn') : t('Usage per step')}</h3>
                <button
                  type="button"
                  class="toggle"
                  aria-pressed=${this.usageLevel === 'turn' ? 'true' : 'false'}
                  @click=${() => void this.setUsageLevel('turn')}
                >
                  ${t('Turns')}
                </button>
                <button
                  type="button"
                  class="toggle"
                  aria-pressed=${this.usageLevel === 'step' ? 'true' : 'false'}
                  @click=${() => void this.setUsageLevel('step')}
                >
                  ${t('Steps')}
                </button>
              </div>
              <div class="usage-scroll">
                <table id="usage-table">
                  <thead>
                    <tr>
                      <th>${this.usageLevel === 'turn' ? t('turn') : t('step')}</th>
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
                                void this.app.jumpTo(r.seq);
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
}
