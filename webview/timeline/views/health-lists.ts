// Below the Session health header: the Repairs list (crash repairs dsh already wrote, each a jump to
// its closers) and the session health entries (open turn, pending calls, torn bytes, unknown types,
// legacy shapes, invariant warnings), each a jump to its place: an event row, a ghost row, the torn
// tail, or a file line shown in the text editor.
import { html, nothing, type TemplateResult } from 'lit';
import type { CrashReviewView, HealthEntryView, HealthTarget } from '../../../src/protocol';
import { oneLine } from '../safe-text';
import { t } from '../strings';

export interface HealthListHandlers {
  go(target: HealthTarget): void;
}

export function renderHealthLists(review: CrashReviewView | undefined, on: HealthListHandlers): TemplateResult {
  if (!review || (!review.repairs.length && !review.health.length)) return html``;
  const link = (target: HealthTarget, text: string, cls: string) =>
    html`<a
      href="#"
      class=${cls}
      data-target-kind=${target.kind}
      data-seq=${'seq' in target ? target.seq : nothing}
      @click=${(e: Event) => {
        e.preventDefault();
        on.go(target);
      }}
      >${text}</a
    >`;
  return html`<div id="health-lists" class="health-lists">
    ${
      review.repairs.length
        ? html`<details id="repairs-list" open>
            <summary>${t('Repairs dsh already wrote ({0})', review.repairs.length)}</summary>
            <ul>
              ${review.repairs.map(
                (r) =>
                  html`<li data-turn-end=${r.turnEndSeq}>
                    ${link({ kind: 'event', seq: r.firstSeq }, t('seqs {0}–{1}', r.firstSeq, r.turnEndSeq), 'repair-link')}
                    <span>${oneLine(r.text, 400)}</span>
                    ${r.endSeedSeq !== undefined ? link({ kind: 'event', seq: r.endSeedSeq }, t('reopened at seq {0}', r.endSeedSeq), 'repair-seed-link') : nothing}
                  </li>`,
              )}
            </ul>
          </details>`
        : nothing
    }
    ${
      review.health.length
        ? html`<details id="health-entries">
            <summary>${t('Session health entries ({0})', review.health.length)}</summary>
            <ul>
              ${review.health.map((e) => entry(e, link))}
              ${review.healthOmitted ? html`<li class="muted">${t('{0} more not listed', review.healthOmitted)}</li>` : nothing}
            </ul>
          </details>`
        : nothing
    }
  </div>`;
}

function entry(e: HealthEntryView, link: (target: HealthTarget, text: string, cls: string) => TemplateResult): TemplateResult {
  const icon = e.severity === 'info' ? 'info' : e.severity;
  return html`<li class="health-entry" data-kind=${e.kind} data-severity=${e.severity}>
    <span class="codicon codicon-${icon} sev" role="img" aria-label=${t(e.severity)}></span>
    ${e.target ? link(e.target, oneLine(e.message, 400), 'health-link') : html`<span>${oneLine(e.message, 400)}</span>`}
  </li>`;
}
