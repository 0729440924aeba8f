// Entry point of the extension host side on Node (VS Code desktop, code-server): installs the Node
// platform (local files, the write layer) and activates. The browser entry is extension-web.ts.
import type * as vscode from 'vscode';
import { activateHost, type SessionSurfaceApi } from './host/activate';
import { installPlatform } from './host/platform';
import { nodePlatform } from './host/node-platform';

export type { SessionSurfaceApi } from './host/activate';

export function activate(context: vscode.ExtensionContext): SessionSurfaceApi | undefined {
  installPlatform(nodePlatform());
  return activateHost(context);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
