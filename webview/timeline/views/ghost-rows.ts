// Ghost rows at the end of the timeline: the closers dsh's repair would append to an open final
// turn. They are not in the file, so they are drawn apart from the event rows (dashed, italic) and
// every accessible name says "not in the file yet". Each links to what it closes: following the link
// selects that row, like a provenance link.
import { html, nothing, type TemplateResult } from 'lit';
import type { GhostRow } from '../../../src/protocol';
import type { Order } from '../controllers/view-state';
import { safeIcon } from './row-view';
import { oneLine } from '../safe-text';
import { t } from '../strings';

export interface GhostHandlers {
  jump(seq: number): void;
  /** Up from the first ghost row: back to the list's last row. */
  backToList(): void;
}

/** The ghosts an order shows: all in the Full log, the tool results (messages) in the Model view. */
export function ghostsFor(order: Order, ghosts: readonly GhostRow[]): GhostRow[] {
  if (order === 'log') return [...ghosts];
  if (order === 'surface') return ghosts.filter((g) => g.onSurface);
  return [];
}

export function ghostName(g: GhostRow): string {
  return [`seq ${g.seq} ${g.type}`, t('not in the file yet'), g.code, oneLine(g.summary, 200)].filter(Boolean).join(', ');
}

export function renderGhostRows(order: Order, ghosts: readonly GhostRow[], on: GhostHandlers): TemplateResult {
  const shown = ghostsFor(order, ghosts);
  if (!shown.length) return html``;
  return html`<section id="ghost-rows" class="ghost-rows" aria-label=${t('Closers dsh would append — not in the file yet')}>
    <div class="ghost-head muted">${t('Closers dsh would append — not in the file yet')}</div>
    <ul role="list" @keydown=${(e: KeyboardEvent) => onGhostKey(e, on)}>
      ${shown.map(
        (g) =>
          html`<li
            class="row ghost-row"
            role="listitem"
            tabindex="-1"
            data-seq=${g.seq}
            data-type=${g.type}
            data-code=${g.code ?? nothing}
            aria-label=${ghostName(g)}
          >
            <div class="ghost-main">
              <span class="codicon codicon-${safeIcon(g.icon)} type-icon" aria-hidden="true"></span>
              <span class="cell seq">${g.seq}</span>
              <span class="cell label">${g.label}</span>
              ${g.code ? html`<span class="code-pill">${g.code}</span>` : nothing}
              <span class="cell summary" title=${g.summary}>${oneLine(g.summary, 300)}</span>
              ${
                g.linkSeq !== undefined
                  ? html`<a
                      href="#"
                      class="ghost-link"
                      data-target=${g.linkSeq}
                      @click=${(e: Event) => {
                        e.preventDefault();
                        on.jump(g.linkSeq!);
                      }}
                      >${oneLine(g.linkText ?? `seq ${g.linkSeq}`, 120)}</a
                    >`
                  : nothing
              }
            </div>
            ${g.meaning ? html`<div class="ghost-meaning" title=${g.meaning}>${oneLine(g.meaning, 400)}</div>` : nothing}
          </li>`,
      )}
    </ul>
  </section>`;
}

/**
 * The ghost rows continue the list for the keyboard: up and down move between them (up from the first
 * goes back to the list), Enter follows the row's link.
 */
function onGhostKey(e: KeyboardEvent, on: GhostHandlers): void {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.ghost-row');
  if (!row) return;
  switch (e.key) {
    case 'ArrowDown':
    case 'j':
      e.preventDefault();
      (row.nextElementSibling as HTMLElement | null)?.focus();
      return;
    case 'ArrowUp':
    case 'k': {
      e.preventDefault();
      const previous = row.previousElementSibling as HTMLElement | null;
      if (previous) previous.focus();
      else on.backToList();
      return;
    }
    case 'Enter': {
      const target = row.querySelector<HTMLElement>('.ghost-link')?.dataset.target;
      if (target !== undefined) {
        e.preventDefault();
        on.jump(Number(target));
      }
    }
  }
}
