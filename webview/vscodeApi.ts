// The one handle the webview has on its host. acquireVsCodeApi may be called only once per page.
import type { HostToWebview, WebviewToHost } from '../src/protocol/messages';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(message: WebviewToHost): void {
  api.postMessage(message);
}

/** The view state VS Code kept for this webview (survives hiding the tab and reloading the webview). */
export function getState(): unknown {
  return api.getState();
}

export function setState(state: unknown): void {
  api.setState(state);
}

export type { HostToWebview };
