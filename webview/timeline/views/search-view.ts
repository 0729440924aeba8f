// The search box of the toolbar: the text, the status (progress, "3 of 12"), a progress bar while the
// host searches, and the previous/next buttons. Enter goes to the next match (Shift: the previous);
// Escape goes back to the list.
import { html, nothing, type TemplateResult } from 'lit';
import type { SearchController } from '../controllers/search-controller';
import { t } from '../strings';
import { iconButton } from './buttons';

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
    ${iconButton({
      id: 'search-previous',
      icon: 'arrow-up',
      label: t('Previous match'),
      title: t('Previous match (Shift+Enter)'),
      disabled: !search.matchCount,
      onClick: () => void search.step('previous'),
    })}
    ${iconButton({
      id: 'search-next',
      icon: 'arrow-down',
      label: t('Next match'),
      title: t('Next match (Enter)'),
      disabled: !search.matchCount,
      onClick: () => void search.step('next'),
    })}
  </span>`;
}
