// Entry point of the extension host side: registers the session editor, its commands and the
// Problems-panel diagnostics. The returned object is a small read-only API used by the in-host tests.
import * as vscode from 'vscode';
import { registerCommands } from './host/commands';
import { registerCrashRepairCommands, type CrashRepairOutcome } from './host/crash-repair-commands';
import { SessionProblems } from './host/problems';
import { SessionEditorProvider } from './host/session-editor-provider';
import { ActiveSession } from './host/active-session';
import { createSessionLog, logSessionDocuments } from './host/output';
import { registerSessions } from './host/sessions';
import type { SessionCatalog } from './host/sessions/session-catalog';

export interface SessionSurfaceApi {
  readonly provider: SessionEditorProvider;
  readonly problems: SessionProblems;
  readonly sessions: SessionCatalog;
  /** What the crash-repair commands did, oldest first. */
  readonly crashRepairOutcomes: readonly CrashRepairOutcome[];
}

export function activate(context: vscode.ExtensionContext): SessionSurfaceApi {
  const provider = new SessionEditorProvider(context.extensionUri);
  SessionEditorProvider.register(context, provider);
  registerCommands(context, provider);
  const crashRepairOutcomes: CrashRepairOutcome[] = [];
  registerCrashRepairCommands(context, provider, (outcome) => crashRepairOutcomes.push(outcome));
  const problems = new SessionProblems(provider);
  context.subscriptions.push(problems);
  const log = createSessionLog();
  const active = new ActiveSession(provider);
  context.subscriptions.push(log, active, logSessionDocuments(provider, log));
  const sessions = registerSessions(context, provider, active, log);
  return { provider, problems, sessions, crashRepairOutcomes };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
