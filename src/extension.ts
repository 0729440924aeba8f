// Entry point of the extension host side: registers the session editor, its commands and the
// Problems-panel diagnostics. The returned object is a small read-only API for the in-host tests, returned
// only when the extension runs under tests.
import * as vscode from 'vscode';
import { registerCommands } from './host/commands';
import { SessionProblems } from './host/problems';
import { SessionEditorProvider } from './host/sessionEditorProvider';
import { ActiveSession } from './host/activeSession';
import { createSessionLog, logSessionDocuments } from './host/output';
import { registerSessions } from './host/sessions';
import { registerEditorAssociations } from './host/editorAssociations';
import { registerNavigation } from './host/navigation';
import { registerStatusBar } from './host/statusBar';
import { registerSampleSession } from './host/sampleSession';
import type { SessionCatalog } from './host/sessions/sessionCatalog';

export interface SessionSurfaceApi {
  readonly provider: SessionEditorProvider;
  readonly problems: SessionProblems;
  readonly sessions: SessionCatalog;
}

export function activate(context: vscode.ExtensionContext): SessionSurfaceApi | undefined {
  const provider = new SessionEditorProvider(context.extensionUri);
  SessionEditorProvider.register(context, provider);
  registerCommands(context, provider);
  const problems = new SessionProblems(provider);
  context.subscriptions.push(problems);
  const log = createSessionLog();
  const active = new ActiveSession(provider);
  context.subscriptions.push(log, active, logSessionDocuments(provider, log));
  const sessions = registerSessions(context, provider, active, log);
  registerEditorAssociations(context);
  registerNavigation(context, active);
  registerStatusBar(context, active);
  registerSampleSession(context);
  // The read-only API is a test hook: only extension tests (ExtensionMode.Test) get it.
  return context.extensionMode === vscode.ExtensionMode.Test ? { provider, problems, sessions } : undefined;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
