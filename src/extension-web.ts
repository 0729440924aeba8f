// Entry point of the extension host in VS Code for the Web (a web worker): no Node platform, so logs
// are read through vscode.workspace.fs, followed by polling, decoded by the core's own zstd decoder, and
// never written in place.
import type * as vscode from 'vscode';
import { activateHost, type SessionSurfaceApi } from './host/activate';
import { installPlatform } from './host/platform';

export function activate(context: vscode.ExtensionContext): SessionSurfaceApi | undefined {
  installPlatform({});
  return activateHost(context);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
