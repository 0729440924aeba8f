// The Sessions view: the dsh sessions of the open workspace folder and of all folders, newest first,
// forks and subagent sessions under their parent. Items open in the session editor.
import * as vscode from 'vscode';
import { projectDirName } from '../../core/catalog';
import { sessionEditorViewType } from '../session-editor-provider';
import { formatAgo, formatCount, formatDateTime, formatSize, stateIcon, stateLabel } from './format';
import type { CatalogEntry, SessionCatalog } from './session-catalog';
import { displayText, hostFormatter } from '../words';

export const SESSIONS_VIEW_ID = 'sessionSurface.sessions';
/** Context key for the welcome view: 'missing' | 'empty' | 'listed' | 'unknown'. */
export const FOLDER_STATE_KEY = 'sessionSurface.sessionsFolderState';

type Node =
  | { kind: 'group'; id: string; label: string; projectDirs?: readonly string[]; description?: string }
  | { kind: 'session'; entry: CatalogEntry; group: string }
  | { kind: 'loading' };

export class SessionsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  readonly view: vscode.TreeView<Node>;

  constructor(private readonly catalog: SessionCatalog) {
    this.view = vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions.push(
      this.view,
      this.changed,
      catalog.onDidChange(() => this.update()),
    );
    this.update();
  }

  private update(): void {
    void vscode.commands.executeCommand('setContext', FOLDER_STATE_KEY, this.catalog.state);
    const root = this.catalog.root.uri;
    this.view.description = this.catalog.loading
      ? hostFormatter().counted(this.catalog.all.length, 'reading {0} session…', 'reading {0} sessions…')
      : this.catalog.state === 'listed'
        ? hostFormatter().counted(this.catalog.all.length, '{0} session', '{0} sessions')
        : undefined;
    this.view.message =
      this.catalog.state === 'empty' && root
        ? vscode.l10n.t('No dsh sessions in {0} yet.', root.scheme === 'file' ? root.fsPath : root.toString(true))
        : undefined;
    this.changed.fire(undefined);
  }

  private groups(): Node[] {
    if (this.catalog.state !== 'listed') return [];
    const groups: Node[] = workspaceGroups().map(({ name, projectDirs }) => ({
      kind: 'group',
      id: `folder:${name}`,
      label: vscode.l10n.t('This folder: {0}', name),
      projectDirs,
    }));
    groups.push({ kind: 'group', id: 'all', label: vscode.l10n.t('All folders') });
    return groups;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.groups();
    if (node.kind === 'group') {
      const lineage = this.catalog.lineage;
      const inGroup = (e: CatalogEntry) => !node.projectDirs || node.projectDirs.includes(e.projectDir);
      const roots = lineage.roots.filter(inGroup).map((entry): Node => ({ kind: 'session', entry, group: node.id }));
      if (this.catalog.loading) roots.push({ kind: 'loading' });
      return roots;
    }
    if (node.kind === 'session') {
      return (this.catalog.lineage.children.get(node.entry.id) ?? []).map((entry) => ({ kind: 'session', entry, group: node.group }));
    }
    return [];
  }

  getParent(node: Node): Node | undefined {
    if (node.kind !== 'session') return undefined;
    const parentId = node.entry.parentSession;
    const parent = parentId !== undefined ? this.catalog.lineage.byId.get(parentId) : undefined;
    if (parent && this.catalog.lineage.children.get(parent.id)?.includes(node.entry))
      return { kind: 'session', entry: parent, group: node.group };
    return this.groups().find((g) => g.kind === 'group' && g.id === node.group);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'loading') {
      const item = new vscode.TreeItem(vscode.l10n.t('Reading more sessions…'));
      item.iconPath = new vscode.ThemeIcon('loading~spin');
      return item;
    }
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.id;
      item.iconPath = new vscode.ThemeIcon(node.projectDirs ? 'root-folder' : 'folder-library');
      item.contextValue = 'sessionGroup';
      return item;
    }
    const e = node.entry;
    const children = this.catalog.lineage.children.get(e.id)?.length ?? 0;
    const item = new vscode.TreeItem(
      e.title ?? e.id,
      children ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${node.group}|${e.file.toString()}`;
    item.resourceUri = e.file;
    const parts = [formatAgo(e.mtimeMs), formatSize(e.size)];
    if (e.turns !== undefined) parts.push(hostFormatter().counted(e.turns, '{0} turn', '{0} turns'));
    parts.push(stateLabel(e.state));
    if (e.header?.origin === 'subagent') parts.unshift(vscode.l10n.t('subagent'));
    else if (e.parentSession) parts.unshift(vscode.l10n.t('fork'));
    item.description = parts.join(' · ');
    item.iconPath = stateIcon(e.state);
    item.tooltip = tooltip(e, children);
    item.contextValue = ['session', e.parentSession ? 'child' : '', children ? 'parent' : ''].filter(Boolean).join('.');
    item.accessibilityInformation = { label: `${e.title ?? e.id}, ${item.description}` };
    item.command = { command: 'vscode.openWith', title: vscode.l10n.t('Open Session'), arguments: [e.file, sessionEditorViewType(e.file)] };
    return item;
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

/** The workspace folders, each with the project folder dsh would write its sessions into. */
function workspaceGroups(): { name: string; projectDirs: string[] }[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
    name: folder.name,
    projectDirs: [projectDirName(folder.uri.scheme === 'file' ? folder.uri.fsPath : folder.uri.path)],
  }));
}

function tooltip(e: CatalogEntry, children: number): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(e.title ?? e.id)}**\n\n`);
  const row = (label: string, value: string) => md.appendMarkdown(`${escape(label)}: ${escape(value)}  \n`);
  row(vscode.l10n.t('Session'), e.id);
  row(vscode.l10n.t('State'), stateLabel(e.state));
  if (e.header) row(vscode.l10n.t('Created'), formatDateTime(e.header.createdAt));
  row(vscode.l10n.t('Last written'), formatDateTime(e.mtimeMs));
  row(vscode.l10n.t('Size'), formatSize(e.size) + (e.compressed ? ' (zstd)' : ''));
  if (e.events !== undefined) row(vscode.l10n.t('Events'), formatCount(e.events));
  if (e.turns !== undefined) row(vscode.l10n.t('Turns'), formatCount(e.turns));
  if (e.header?.cwd) row(vscode.l10n.t('Folder'), e.header.cwd);
  if (e.parentSession) row(vscode.l10n.t('Parent session'), e.parentSession);
  if (e.header?.seedLength !== undefined) row(vscode.l10n.t('Inherited events (seed)'), formatCount(e.header.seedLength));
  if (e.header?.delegationDepth) row(vscode.l10n.t('Delegation depth'), String(e.header.delegationDepth));
  if (children) row(vscode.l10n.t('Child sessions'), formatCount(children));
  if (e.otherGenerations.length) row(vscode.l10n.t('Older generations'), e.otherGenerations.join(', '));
  if (e.refusal) md.appendMarkdown(`\n${escape(vscode.l10n.t('dsh refuses it: {0}', displayText(e.refusal)))}`);
  return md;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
