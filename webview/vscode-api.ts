// The one handle the webview has on VS Code. acquireVsCodeApi may be called only once per page: the
// port to the host and the storage of the view state both come from it.
import type { HostPort } from './host-client';
import type { StateStorage } from './timeline/controllers/view-state';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export const vscodePort: HostPort = { postMessage: (message) => api.postMessage(message) };

/** The view state VS Code keeps for this webview (survives hiding the tab and reloading the webview). */
export const vscodeStateStorage: StateStorage = { get: () => api.getState(), set: (state) => api.setState(state) };
