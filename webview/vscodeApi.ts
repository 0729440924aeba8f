// The one handle the webview has on its host. acquireVsCodeApi may be called only once per page.
import type { HostToWebview, WebviewToHost } from '../src/protocol/messages';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(message: WebviewToHost): void {
  api.postMessage(message);
}

export type { HostToWebview };
