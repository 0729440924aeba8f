// Entry point of the extension host side: registers the session editor, its commands, the read-only
// decompressed view of zstd logs and the Problems-panel diagnostics. The returned object is a small
// read-only API used by the in-host tests.
import * as vscode from 'vscode';
import { registerCommands } from './host/commands';
import { DecompressedLogProvider } from './host/log-text';
import { SessionProblems } from './host/problems';
import { SessionEditorProvider } from './host/sessionEditorProvider';

export interface SessionSurfaceApi {
  readonly provider: SessionEditorProvider;
  readonly problems: SessionProblems;
}

/**
 * Test hooks (render reports, webview test reports, progress markers) are active only under the
 * extension test runner or when SESSION_SURFACE_TEST_MODE=1 (set by the end-to-end harness).
 */
function isTestMode(context: vscode.ExtensionContext): boolean {
  return context.extensionMode === vscode.ExtensionMode.Test || process.env.SESSION_SURFACE_TEST_MODE === '1';
}

export function activate(context: vscode.ExtensionContext): SessionSurfaceApi {
  const provider = new SessionEditorProvider(context.extensionUri, isTestMode(context));
  SessionEditorProvider.register(context, provider);
  registerCommands(context, provider);
  const decompressed = DecompressedLogProvider.register(context);
  const problems = new SessionProblems(provider, decompressed);
  context.subscriptions.push(problems);
  return { provider, problems };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
