// The Sessions view and what goes with it: the catalogue of the sessions folder, the lineage commands,
// and refreshing when the folder setting or the workspace folders change.
import * as vscode from 'vscode';
import type { ActiveSession } from '../active-session';
import type { SessionLog } from '../output';
import type { SessionEditorProvider } from '../session-editor-provider';
import { affects } from '../settings';
import { registerLineageCommands } from './lineage-commands';
import { SessionCatalog } from './session-catalog';
import { SessionsView } from './sessions-view';

export function registerSessions(
  context: vscode.ExtensionContext,
  provider: SessionEditorProvider,
  active: ActiveSession,
  log: SessionLog,
): SessionCatalog {
  const catalog = new SessionCatalog(log);
  const view = new SessionsView(catalog);
  context.subscriptions.push(
    catalog,
    view,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affects(e, 'sessionsFolder')) void catalog.refresh();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void catalog.refresh()),
  );
  registerLineageCommands(context, catalog, provider, active);
  void catalog.refresh();
  return catalog;
}
