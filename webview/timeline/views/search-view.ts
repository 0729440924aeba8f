// The search box of the toolbar: the text, the status (progress, "3 of 12"), a progress bar while the
// host searches, and the previous/next buttons. Enter goes to the next match (Shift: the previous);
// Escape goes back to the list.
import { html, nothing, type TemplateResult } from 'lit';
import type { SearchController } from '../controllers/search-controller';
import { t } from '../strings';

export interface SearchHandlers {
  focusList(): void;
}

export function renderSearch(search: SearchController, on: SearchHandlers): TemplateResult {
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === 'F3') {
      e.preventDefault();
      search.submit(e.shiftKey ? 'previous' : 'next');
    } else if (e.key === 'Escape') {
      e.preventDefault();
      on.focusList();
    }
  };
  return html`<span class="search" role="search">
    <span class="codicon codicon-search" aria-hidden="true"></span>
    <input
      id="search-input"
      type="search"
      placeholder=${t('Search the whole log (/)')}
      aria-label=${t('Search the whole log')}
      .value=${search.text}
      @input=${(e: Event) => search.type((e.target as HTMLInputElement).value)}
      @keydown=${onKey}
    />
    <span id="search-status" class="muted" aria-hidden="true">${search.status}</span>
    ${search.running ? html`<vscode-progress-bar class="search-progress" indeterminate aria-label=${t('Searching')}></vscode-progress-bar>` : nothing}
    <button
      type="button"
      class="icon-button"
      id="search-previous"
      title=${t('Previous match (Shift+Enter)')}
      aria-label=${t('Previous match')}
      ?disabled=${!search.matchCount}
      @click=${() => void search.step('previous')}
    >
      <span class="codicon codicon-arrow-up" aria-hidden="true"></span>
    </button>
    <button
      type="button"
      class="icon-button"
      id="search-next"
      title=${t('Next match (Enter)')}
      aria-label=${t('Next match')}
      ?disabled=${!search.matchCount}
      @click=${() => void search.step('next')}
    >
      <span class="codicon codicon-arrow-down" aria-hidden="true"></span>
    </button>
  </span>`;
}
