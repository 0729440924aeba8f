// The list column: the column heads, the list itself (a listbox of virtual rows, one tab stop, the
// active row named by aria-activedescendant), "Follow the end" while a live log grows out of sight, and
// below the list the rows that are not the file's: ghost closers of an open turn and pending edits.
import { html, nothing, type TemplateResult } from 'lit';
import type { CrashReviewController } from '../controllers/crash-review-controller';
import type { ListController } from '../controllers/list-controller';
import type { SessionController } from '../controllers/session-controller';
import { orderLabel, type ViewState } from '../controllers/view-state';
import { formatNumber, t } from '../strings';
import { renderGhostRows } from './ghost-rows';
import { renderPendingRows } from './pending-rows';
import { renderRow, rowClick, rowDomId, type RowContext, type RowHandlers } from './row-view';
import './virtual-rows';
import type { RowsRangeEvent } from './virtual-rows';

export const LIST_ID = 'timeline-list';
/** Nothing in the list is editable text: its context menu offers no Cut, Copy or Paste. */
const LIST_CONTEXT = JSON.stringify({ preventDefaultContextMenuItems: true });
const HEAD_WORDS = { seq: 'seq', turn: 'turn', time: 'time', label: 'type', summary: 'summary' } as const;

export interface ListParts {
  view: ViewState;
  list: ListController;
  session: SessionController;
  crash: CrashReviewController;
  rows: RowContext;
}

export interface ListHandlers extends RowHandlers {
  key(e: KeyboardEvent): void;
  click(e: MouseEvent): void;
  focusList(): void;
}

export function renderListColumn({ view, list, session, crash, rows }: ListParts, on: ListHandlers): TemplateResult {
  const total = list.total;
  const live = session.summary?.live === 'live';
  const open = crash.review?.openTurn;
  return html`<div class="list-column">
    <div class="list-head" aria-hidden="true">
      <span class="surface-mark"></span><span class="type-icon"></span>
      ${(['seq', 'turn', 'time', 'label', 'summary'] as const).map(
        (column) => html`<span class="cell ${column}"><span class="head-text">${t(HEAD_WORDS[column])}</span></span>`,
      )}
    </div>
    <div class="list-area">
      <div
        id=${LIST_ID}
        class="timeline-list"
        role="listbox"
        tabindex="0"
        aria-label=${t('Events, {0}: {1} rows', t(orderLabel(view.order)), total)}
        aria-activedescendant=${total ? rowDomId(LIST_ID, list.activeIndex) : nothing}
        data-order=${view.order}
        data-total=${total}
        data-vscode-context=${LIST_CONTEXT}
        @keydown=${on.key}
        @click=${on.click}
        @mousedown=${(e: MouseEvent) => {
          if (e.shiftKey && rowClick(e)) e.preventDefault(); /* Shift+click extends the range, not a text selection */
        }}
      >
        ${
          total === 0
            ? html`<p class="muted empty">
                ${!list.rowsArrived ? t('Loading rows…') : view.filter.length ? t('No events of this type.') : t('No events.')}
              </p>`
            : html`<virtual-rows
                .count=${total}
                .renderItem=${(i: number) => renderRow(list.row(i), i, rows, on)}
                @rows-range=${(e: RowsRangeEvent) => list.onRange(e.range)}
              ></virtual-rows>`
        }
      </div>
      ${
        // Offered while a live agent writes the log, or once the log grew while the list was elsewhere.
        view.following || (!live && list.appendedUnseen === 0)
          ? nothing
          : html`<vscode-button id="follow-tail" secondary @click=${() => list.followEnd()}>
              <span class="codicon codicon-arrow-down" aria-hidden="true"></span>
              ${list.appendedUnseen ? t('Follow the end ({0} new)', formatNumber(list.appendedUnseen)) : t('Follow the end')}</vscode-button
            >`
      }
    </div>
    ${
      // Ghost closers follow the whole log; a filtered list shows none.
      open && !view.filter.length ? renderGhostRows(view.order, open.ghosts, { jump: on.jump, backToList: on.focusList }) : nothing
    }
    ${renderPendingRows(view.order, session.pendingEvents)}
  </div>`;
}
