// Webview entry: registers the web components it uses, says `ready`, then routes what the host sends:
// answers to requests go to the client, notifications (load progress, the summary, appends, search
// progress) to the timeline. Every message is validated by the shared protocol before it is used.
import { VscodeBadge } from '@vscode-elements/elements/dist/vscode-badge/index.js';
import { VscodeButton } from '@vscode-elements/elements/dist/vscode-button/index.js';
import { VscodeProgressBar } from '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import { isHostNotification, isHostToWebview, PROTOCOL_VERSION } from '../src/protocol/messages';
import { setNumberLocale, setStrings } from './timeline/strings';
import { TimelineApp } from './timeline/timeline-app';
import { send } from './vscodeApi';

// Referencing the classes keeps the bundler from dropping the modules that define the elements.
const components = [VscodeBadge, VscodeButton, VscodeProgressBar, TimelineApp];
void components;

const root = document.getElementById('app')!;
const app = document.createElement('timeline-app') as TimelineApp;
root.replaceChildren(app);

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const m = event.data;
  if (isHostNotification(m)) {
    // The strings table (VS Code's display language) and keyboard jumps (Go to Seq, problems, health).
    if (m.type === 'strings') {
      setStrings(m.strings, m.language);
      app.requestUpdate();
    } else if (m.type === 'pendingEdits') app.onPendingEdits(m.events);
    else if (m.seq !== undefined) void app.jumpTo(m.seq);
    return;
  }
  if (!isHostToWebview(m)) return;
  switch (m.type) {
    case 'response':
      app.client.receive(m);
      break;
    case 'loading':
      root.setAttribute('aria-busy', 'true');
      app.onLoading(m);
      break;
    case 'loadFailed':
      root.setAttribute('aria-busy', 'false');
      app.onFailed(m.message);
      break;
    case 'summary':
      root.setAttribute('aria-busy', 'false');
      setNumberLocale(m.summary.locale);
      app.onSummary(m.summary);
      requestAnimationFrame(() => send({ type: 'rendered', events: m.summary.counts.events, hasHeader: !!m.summary.headerFields }));
      break;
    case 'appended':
      app.onAppended(m);
      break;
    case 'searchProgress':
      app.onSearchProgress(m);
      break;
    case 'snapshot':
      break; // protocol 1's whole summary; the timeline reads `summary` instead
  }
});

send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
