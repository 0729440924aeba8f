// Webview entry: registers the web components it uses, says `ready`, then draws whatever the host
// sends. It holds no session data of its own beyond the last message, and asks the host for actions.
import { VscodeBadge } from '@vscode-elements/elements/dist/vscode-badge/index.js';
import { VscodeButton } from '@vscode-elements/elements/dist/vscode-button/index.js';
import { VscodeProgressBar } from '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import { isHostToWebview, PROTOCOL_VERSION, type HostToWebview } from '../src/protocol/messages';
import { renderFailed, renderLoading, renderSnapshot, type Actions } from './render';
import { send } from './vscodeApi';

// Referencing the classes keeps the bundler from dropping the modules that define the elements.
const components = [VscodeBadge, VscodeButton, VscodeProgressBar];
void components;

const app = document.getElementById('app')!;

const actions: Actions = {
  reload: () => send({ type: 'reload' }),
  revealLine: (line) => send({ type: 'revealLine', line }),
};

/** Re-drawing replaces the DOM; keep keyboard focus on the same control when it still exists. */
function focusKey(el: Element | null): string | undefined {
  if (!el || el === document.body) return undefined;
  if (el.id) return `#${el.id}`;
  const line = el.getAttribute('data-line');
  return line ? `[data-line="${line}"]` : undefined;
}

function draw(message: HostToWebview): void {
  const key = focusKey(document.activeElement);
  let content: HTMLElement;
  switch (message.type) {
    case 'loading':
      content = renderLoading(message);
      break;
    case 'loadFailed':
      content = renderFailed(message, actions);
      break;
    case 'snapshot':
      content = renderSnapshot(message.snapshot, actions);
      break;
  }
  app.replaceChildren(content);
  app.setAttribute('aria-busy', String(message.type === 'loading'));
  if (key) (app.querySelector(key) as HTMLElement | null)?.focus();
  if (message.type === 'snapshot') {
    // Tell the host once the browser has painted, so "open -> header shown" can be timed.
    requestAnimationFrame(() => send({ type: 'rendered', events: message.snapshot.counts.events, hasHeader: !!message.snapshot.header }));
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isHostToWebview(event.data)) draw(event.data);
});

send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
