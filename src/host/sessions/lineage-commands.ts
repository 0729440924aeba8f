// Following an agent that delegated: from a child session (a fork or a subagent) to its parent's log,
// and from a parent to its children. Reached from the Sessions view's context menu and, for the
// focused session editor, from the palette.
import * as vscode from 'vscode';
import { ActiveSession } from '../active-session';
import { openInSessionEditor, type SessionEditorProvider } from '../session-editor-provider';
import { formatAgo } from './format';
import type { CatalogEntry, SessionCatalog } from './session-catalog';

export const LINEAGE_COMMANDS = {
  openParent: 'sessionSurface.openParentSession',
  openChildren: 'sessionSurface.openChildSessions',
  refresh: 'sessionSurface.refreshSessions',
} as const;

export const HAS_PARENT_KEY = 'sessionSurface.activeSessionHasParent';
export const HAS_CHILDREN_KEY = 'sessionSurface.activeSessionHasChildren';

/** A tree node or a URI (from a command argument), else the active session editor. */
function subject(
  arg: unknown,
  catalog: SessionCatalog,
  provider: SessionEditorProvider,
): { id?: string; parentSession?: string } | undefined {
  const node = arg as { kind?: string; entry?: CatalogEntry } | undefined;
  if (node?.kind === 'session' && node.entry) return node.entry;
  const uri = arg instanceof vscode.Uri ? arg : ActiveSession.activeUri();
  if (!uri) return undefined;
  const listed = catalog.byUri(uri);
  if (listed) return listed;
  const header = provider.documents.get(uri.toString())?.view?.header;
  return header ? { id: header.id, parentSession: header.parentSession } : undefined;
}

export function registerLineageCommands(
  context: vscode.ExtensionContext,
  catalog: SessionCatalog,
  provider: SessionEditorProvider,
  active: ActiveSession,
): void {
  const updateKeys = () => {
    const s = subject(undefined, catalog, provider);
    void vscode.commands.executeCommand('setContext', HAS_PARENT_KEY, !!s?.parentSession);
    void vscode.commands.executeCommand('setContext', HAS_CHILDREN_KEY, !!(s?.id && catalog.lineage.children.get(s.id)?.length));
  };
  context.subscriptions.push(
    active.onDidChange(updateKeys),
    catalog.onDidChange(updateKeys),
    vscode.commands.registerCommand(LINEAGE_COMMANDS.refresh, () => catalog.refresh()),
    vscode.commands.registerCommand(LINEAGE_COMMANDS.openParent, async (arg?: unknown) => {
      const s = subject(arg, catalog, provider);
      if (!s?.parentSession) {
        void vscode.window.showInformationMessage(vscode.l10n.t('This session has no parent session.'));
        return;
      }
      await catalog.whenListed;
      const parent = catalog.byId(s.parentSession);
      if (!parent) {
        void vscode.window.showWarningMessage(vscode.l10n.t('The parent session {0} is not in the sessions folder.', s.parentSession));
        return;
      }
      await openInSessionEditor(parent.file);
    }),
    vscode.commands.registerCommand(LINEAGE_COMMANDS.openChildren, async (arg?: unknown) => {
      const s = subject(arg, catalog, provider);
      await catalog.whenListed;
      const children = s?.id ? (catalog.lineage.children.get(s.id) ?? []) : [];
      if (children.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No child sessions of this session are in the sessions folder.'));
        return;
      }
      if (children.length === 1) return openInSessionEditor(children[0].file);
      const picked = await vscode.window.showQuickPick(
        children.map((c) => ({
          label: c.title ?? c.id,
          description: [c.header?.origin === 'subagent' ? vscode.l10n.t('subagent') : vscode.l10n.t('fork'), formatAgo(c.mtimeMs)].join(
            ' · ',
          ),
          detail: c.id,
          entry: c,
        })),
        { title: vscode.l10n.t('Open a child session'), matchOnDetail: true },
      );
      if (picked) await openInSessionEditor(picked.entry.file);
    }),
  );
  updateKeys();
  // The session editor's own links: the seed's parent and the children, opened by the same commands.
  provider.lineage = {
    childCount: async (uri) => {
      await catalog.whenListed;
      const s = subject(uri, catalog, provider);
      return s?.id ? (catalog.lineage.children.get(s.id)?.length ?? 0) : 0;
    },
    openById: async (id) => {
      await catalog.whenListed;
      const entry = catalog.byId(id);
      if (!entry) {
        void vscode.window.showWarningMessage(vscode.l10n.t('The session {0} is not in the sessions folder.', id));
        return false;
      }
      await openInSessionEditor(entry.file);
      return true;
    },
    open: async (uri, to) => {
      const s = subject(uri, catalog, provider);
      if (to === 'parent' ? !s?.parentSession : !s?.id) return false;
      await vscode.commands.executeCommand(to === 'parent' ? LINEAGE_COMMANDS.openParent : LINEAGE_COMMANDS.openChildren, uri);
      return true;
    },
  };
  context.subscriptions.push({
    dispose: () => {
      provider.lineage = undefined;
    },
  });
}
