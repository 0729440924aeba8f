// The crash-tail banner above the timeline: an open final turn (a crash, or a live agent still
// writing), its pending tool calls with links to them, and the repair actions — offered, never run
// on their own; each command asks in a modal before it writes. Below it, a torn tail: its size, why
// it is not part of the session, and an inert, bounded preview.
import { html, nothing, type TemplateResult } from 'lit';
import type { OpenTurnView, TornTailView } from '../../../src/protocol';
import { oneLine } from '../safe-text';
import { t } from '../strings';

export interface BannerHandlers {
  jump(seq: number): void;
  apply(): void;
  removeTornTail(): void;
}

export function renderCrashBanner(open: OpenTurnView | undefined, tail: TornTailView | undefined, on: BannerHandlers): TemplateResult {
  if (!open && !tail) return html``;
  return html`<div id="crash-tail" class="crash-tail">
    ${open ? renderOpenTurn(open, !!tail, on) : nothing} ${tail ? renderTornTail(tail, !open, on) : nothing}
  </div>`;
}

function renderOpenTurn(open: OpenTurnView, torn: boolean, on: BannerHandlers): TemplateResult {
  const crash = open.activity === 'still';
  const turn = open.turn !== undefined ? t('Turn {0} is open', open.turn) : t('The last turn is open');
  const looks = crash ? t('it looks like a crash') : t('it looks like a live agent');
  return html`<section
    id="crash-banner"
    class="crash-banner ${open.activity}"
    role="region"
    aria-label=${t('Open turn')}
    data-activity=${open.activity}
  >
    <div class="banner-line">
      <span class="codicon codicon-${crash ? 'debug-disconnect' : 'pulse'}" aria-hidden="true"></span>
      <h2 id="crash-heading">${turn}: ${looks}</h2>
    </div>
    <p id="crash-activity" class="muted">${oneLine(open.activityText, 300)}</p>
    ${
      open.pendingCalls.length
        ? html`<h3>${t('Pending tool calls')}</h3>
            <ul id="pending-calls" class="pending-calls">
              ${open.pendingCalls.map(
                (c) =>
                  html`<li data-call-id=${c.callId} data-code=${c.code}>
                    <span class="code-pill">${c.code}</span> <span>${oneLine(c.text, 400)}</span> ${
                      c.jumpSeq !== undefined
                        ? html` <a
                            href="#"
                            class="pending-link"
                            data-seq=${c.jumpSeq}
                            @click=${(e: Event) => {
                              e.preventDefault();
                              on.jump(c.jumpSeq!);
                            }}
                            >${t('Show seq {0}', c.jumpSeq)}</a
                          >`
                        : nothing
                    }
                  </li>`,
              )}
            </ul>`
        : html`<p class="muted">${t('No tool call is pending; the closers end the step and the turn.')}</p>`
    }
    ${open.blockedText ? html`<p id="repair-blocked" class="muted">${t('The repair cannot be appended yet: {0}', oneLine(open.blockedText, 600))}</p>` : nothing}
    <div class="banner-actions">
      <vscode-button id="apply-crash-repair" @click=${on.apply}>${t('Apply Crash Repair…')}</vscode-button>
      ${torn ? html`<vscode-button id="remove-torn-tail" secondary @click=${on.removeTornTail}>${t('Remove Torn Tail…')}</vscode-button>` : nothing}
      <span class="muted">${t('Each action shows what it will write and asks first.')}</span>
    </div>
  </section>`;
}

function renderTornTail(tail: TornTailView, withAction: boolean, on: BannerHandlers): TemplateResult {
  return html`<section
    id="torn-tail"
    class="torn-tail ${tail.refusesLog ? 'refuses' : ''}"
    role="region"
    aria-label=${t('Torn tail')}
    tabindex="-1"
    data-kind=${tail.kind}
  >
    <div class="banner-line">
      <span class="codicon codicon-${tail.refusesLog ? 'error' : 'warning'}" aria-hidden="true"></span>
      <h2 id="torn-heading">${oneLine(tail.heading, 300)}</h2>
    </div>
    <p id="torn-why">${oneLine(tail.why, 400)}</p>
    <p id="torn-kept" class="muted">${oneLine(tail.keptText, 300)}</p>
    <div class="torn-preview-label muted">
      ${tail.previewIsHex ? t('First bytes of the torn frame (hex, shown as text only)') : t('Start of the tail (shown as text only)')}${tail.previewTruncated ? ` — ${t('cut')}` : ''}
    </div>
    <pre id="torn-preview" class="torn-preview">${tail.preview.slice(0, 2000)}</pre>
    ${
      tail.beyond.length
        ? html`<h3>${t('Lines that are not part of the session')}</h3>
            <ul id="torn-beyond">
              ${tail.beyond.map((l) => html`<li>${oneLine(l, 300)}</li>`)}
            </ul>`
        : nothing
    }
    ${
      withAction
        ? html`<div class="banner-actions">
            <vscode-button id="remove-torn-tail" secondary @click=${on.removeTornTail}>${t('Remove Torn Tail…')}</vscode-button>
            <span class="muted">${t('A backup of the whole file is written and checked first.')}</span>
          </div>`
        : nothing
    }
  </section>`;
}
