// Activation of the extension host side, whatever runtime it runs in: registers the session editor,
// its commands, the read-only decompressed view of zstd logs and the Problems-panel diagnostics. The
// returned object is a small read-only API used by the in-host tests.
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { DecompressedLogProvider } from './log-text';
import { registerAuthoringCommands } from './authoring/authoring-commands';
import { registerCrashRepairCommands, type CrashRepairOutcome } from './crash-repair-commands';
import { SessionProblems } from './problems';
import { SessionEditorProvider } from './session-editor-provider';
import { ActiveSession } from './active-session';
import { createSessionLog, logSessionDocuments } from './output';
import { registerSessions } from './sessions';
import { registerEditorAssociations } from './editor-associations';
import { registerNavigation } from './navigation';
import { registerStatusBar } from './status-bar';
import { registerSampleSession } from './sample-session';
import type { SessionCatalog } from './sessions/session-catalog';

export interface SessionSurfaceApi {
  readonly provider: SessionEditorProvider;
  readonly problems: SessionProblems;
  readonly sessions: SessionCatalog;
  /** What the crash-repair commands did, oldest first. */
  readonly crashRepairOutcomes: readonly CrashRepairOutcome[];
}

/**
 * Test hooks (render reports, webview test reports, progress markers) are active only under the
 * extension test runner or when SESSION_SURFACE_TEST_MODE=1 (set by the end-to-end harness).
 */
function isTestMode(context: vscode.ExtensionContext): boolean {
  // The browser extension host (a web worker) has no `process`.
  const env = typeof process === 'undefined' ? undefined : process.env;
  return context.extensionMode === vscode.ExtensionMode.Test || env?.SESSION_SURFACE_TEST_MODE === '1';
}

export function activateHost(context: vscode.ExtensionContext): SessionSurfaceApi | undefined {
  const provider = new SessionEditorProvider(context.extensionUri, isTestMode(context));
  SessionEditorProvider.register(context, provider);
  registerCommands(context, provider);
  const crashRepairOutcomes: CrashRepairOutcome[] = [];
  registerCrashRepairCommands(context, provider, (outcome) => crashRepairOutcomes.push(outcome));
  registerAuthoringCommands(context, provider);
  const decompressed = DecompressedLogProvider.register(context);
  const problems = new SessionProblems(provider, decompressed);
  context.subscriptions.push(problems);
  const log = createSessionLog();
  const active = new ActiveSession(provider);
  context.subscriptions.push(log, active, logSessionDocuments(provider, log));
  const sessions = registerSessions(context, provider, active, log);
  registerEditorAssociations(context);
  registerNavigation(context, active);
  registerStatusBar(context, active);
  registerSampleSession(context);
  // The read-only API is a test hook: only test mode gets it.
  return isTestMode(context) ? { provider, problems, sessions, crashRepairOutcomes } : undefined;
}
