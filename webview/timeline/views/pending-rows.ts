// The events the document's pending edits would append: applied in the editor (the tab is dirty) but
// not in the file until Save. Drawn after the log's own rows, apart from them (dashed, like the
// closers a repair would add), and named "pending" for screen readers, so nobody mistakes them for
// history; Undo takes them back, Save appends exactly these.
import { html, nothing, type TemplateResult } from 'lit';
import type { PendingEventRow } from '../../../src/protocol';
import type { Order } from '../controllers/view-state';
import { safeIcon } from './row-view';
import { oneLine } from '../safe-text';
import { t } from '../strings';

/** Pending events belong to the log order; the Model view and the transcript show the file's surface. */
export function renderPendingRows(order: Order, events: readonly PendingEventRow[]): TemplateResult | typeof nothing {
  if (!events.length || order !== 'log') return nothing;
  const title = t('Pending edits — not in the file until Save');
  return html`<section id="pending-rows" class="ghost-rows pending-rows" aria-label=${title}>
    <div class="ghost-head muted">${title}</div>
    <ul role="list">
      ${events.map(
        (e) =>
          html`<li
            class="row ghost-row pending-row"
            role="listitem"
            data-seq=${e.seq}
            data-type=${e.type}
            aria-label=${`seq ${e.seq} ${e.label}, ${t('pending')}, ${oneLine(e.edit, 200)}`}
          >
            <div class="ghost-main">
              <span class="codicon codicon-${safeIcon(e.icon)} type-icon" aria-hidden="true"></span>
              <span class="cell seq">${e.seq}</span>
              <span class="cell label">${e.label}</span>
              <span class="cell summary" title=${e.edit}>${oneLine(e.edit, 300)}</span>
            </div>
          </li>`,
      )}
    </ul>
  </section>`;
}
