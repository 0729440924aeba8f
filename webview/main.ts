// Webview entry: registers the web components it uses, makes the client of the host and the timeline,
// hands the client what the page receives and says `ready`. The client checks every message against
// the shared protocol; notifications go to the timeline's handlers, answers to the requests waiting.
import { VscodeBadge } from '@vscode-elements/elements/dist/vscode-badge/index.js';
import { VscodeButton } from '@vscode-elements/elements/dist/vscode-button/index.js';
import { VscodeProgressBar } from '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import { PROTOCOL_VERSION } from '../src/protocol';
import { HostClient } from './host-client';
import { TimelineApp } from './timeline/timeline-app';
import { vscodePort } from './vscode-api';

// Referencing the classes keeps the bundler from dropping the modules that define the elements.
const components = [VscodeBadge, VscodeButton, VscodeProgressBar, TimelineApp];
void components;

const client = new HostClient(vscodePort);
const app = document.createElement('timeline-app') as TimelineApp;
app.client = client;
client.listen(app.c.notifications);
document.getElementById('app')!.replaceChildren(app);

window.addEventListener('message', (event: MessageEvent<unknown>) => client.receive(event.data));
client.send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
