// The Sessions view: the dsh sessions of the open workspace folder and of all folders, newest first,
// forks and subagent sessions under their parent, a session's older generations (history dsh keeps
// untouched) under it with what today's dsh would make of each. Items open in the session editor.
import * as vscode from 'vscode';
import { generationRelease } from '../../core';
import { isTranscriptName, projectDirName, transcriptGeneration } from '../../core/internal';
import { sessionEditorViewType } from '../session-editor-provider';
import { formatAgo, formatCount, formatDateTime, formatSize, stateIcon, stateLabel, stateWord } from './format';
import type { CatalogEntry, SessionCatalog } from './session-catalog';
import { displayText, hostFormatter } from '../words';
import { GenerationVerdicts } from './generation-verdicts';

export const SESSIONS_VIEW_ID = 'sessionSurface.sessions';
/** Context key for the welcome view: 'missing' | 'empty' | 'listed' | 'unknown'. */
export const FOLDER_STATE_KEY = 'sessionSurface.sessionsFolderState';

type Node =
  | { kind: 'group'; id: string; label: string; projectDirs?: readonly string[]; description?: string }
  | { kind: 'session'; entry: CatalogEntry; group: string }
  | { kind: 'generation'; entry: CatalogEntry; name: string; group: string }
  | { kind: 'loading' };

/**
 * A session's title is cut to this many characters in its row, so that its state and turns stay in view
 * in a sidebar of the default width (the whole title is in the tooltip).
 */
const TITLE_CHARS = 16;

export class SessionsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly verdicts = new GenerationVerdicts();
  readonly view: vscode.TreeView<Node>;

  constructor(private readonly catalog: SessionCatalog) {
    this.view = vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions.push(
      this.view,
      this.changed,
      this.verdicts,
      catalog.onDidChange(() => this.update()),
      // A generation's verdict arrived: its row is drawn again (the tree asks for every visible item).
      this.verdicts.onDidRead(() => this.changed.fire(undefined)),
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
    if (this.catalog.rootFound) groups.push({ kind: 'group', id: 'all', label: vscode.l10n.t('All folders') });
    return groups;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.groups();
    if (node.kind === 'group') {
      const lineage = this.catalog.lineage;
      const folder = node.id.startsWith('folder:') ? node.id.slice('folder:'.length) : undefined;
      // A workspace folder's group: the sessions dsh wrote for it under the sessions folder, and the logs in the folder itself.
      const inGroup = (e: CatalogEntry) =>
        e.workspaceFolder !== undefined ? e.workspaceFolder === folder : !node.projectDirs || node.projectDirs.includes(e.projectDir);
      const roots = lineage.roots
        .filter(inGroup)
        .sort((a, b) => b.mtimeMs - a.mtimeMs)
        .map((entry): Node => ({ kind: 'session', entry, group: node.id }));
      if (this.catalog.loading) roots.push({ kind: 'loading' });
      return roots;
    }
    if (node.kind === 'session') {
      const children = (this.catalog.lineage.children.get(node.entry.id) ?? []).map((entry): Node => ({
        kind: 'session',
        entry,
        group: node.group,
      }));
      const history = node.entry.otherGenerations.map((name): Node => ({ kind: 'generation', entry: node.entry, name, group: node.group }));
      return [...children, ...history];
    }
    return [];
  }

  getParent(node: Node): Node | undefined {
    if (node.kind === 'generation') return { kind: 'session', entry: node.entry, group: node.group };
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
    if (node.kind === 'generation') return this.generationItem(node);
    const e = node.entry;
    const children = this.catalog.lineage.children.get(e.id)?.length ?? 0;
    const title = e.title ?? e.id;
    // A log under a name of its own (a copy in a workspace folder) is known by that name; a session folder's by its title.
    const name = isTranscriptName(e.fileName) ? title : e.fileName;
    const item = new vscode.TreeItem(
      name.length > TITLE_CHARS ? `${name.slice(0, TITLE_CHARS - 1)}…` : name,
      children
        ? vscode.TreeItemCollapsibleState.Expanded
        : e.otherGenerations.length
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${node.group}|${e.file.toString()}`;
    item.resourceUri = e.file;
    // What tells sessions apart first — the state, the turns, the generation — then what a child is; the
    // age and the size are in the tooltip (a sidebar of the default width cuts the end of the row).
    const parts = [stateWord(e.state)];
    if (e.turns !== undefined) parts.push(hostFormatter().counted(e.turns, '{0} turn', '{0} turns'));
    if (e.generation !== undefined) parts.push(`v${e.generation}`);
    if (e.header?.origin === 'subagent') parts.push(vscode.l10n.t('subagent'));
    else if (e.parentSession) parts.push(vscode.l10n.t('fork'));
    item.description = parts.join(' · ');
    item.iconPath = stateIcon(e.state);
    item.tooltip = tooltip(e, children);
    item.contextValue = ['session', e.parentSession ? 'child' : '', children ? 'parent' : ''].filter(Boolean).join('.');
    item.accessibilityInformation = { label: name === title ? `${title}, ${item.description}` : `${name}, ${title}, ${item.description}` };
    item.command = { command: 'vscode.openWith', title: vscode.l10n.t('Open Session'), arguments: [e.file, sessionEditorViewType(e.file)] };
    return item;
  }

  /** An older generation of a session: history dsh keeps untouched, with what today's dsh would make of it. */
  private generationItem(node: Extract<Node, { kind: 'generation' }>): vscode.TreeItem {
    const file = vscode.Uri.joinPath(node.entry.file, '..', node.name);
    const version = transcriptGeneration(node.name);
    const release = generationRelease(version);
    const item = new vscode.TreeItem(release ? `v${version} · ${release.writers}` : `v${version}`, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.group}|${file.toString()}`;
    item.resourceUri = file;
    const stat = this.generationStats.get(file.toString());
    const verdict = stat ? this.verdicts.verdict(file, stat.size, stat.mtimeMs) : undefined;
    if (!stat) void this.statGeneration(file);
    item.description = [node.name, vscode.l10n.t('history, read-only'), verdict?.short ?? vscode.l10n.t('reading…')].join(' · ');
    item.iconPath = new vscode.ThemeIcon('history', verdict && !verdict.ok ? new vscode.ThemeColor('list.warningForeground') : undefined);
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${escape(node.name)}**\n\n`);
    md.appendText(
      vscode.l10n.t(
        'An older generation of this session. dsh reads and appends to {0} only and leaves this file as it is.',
        node.entry.fileName,
      ),
    );
    if (verdict) {
      md.appendMarkdown('\n\n');
      md.appendText(`${verdict.format}. ${verdict.text}${verdict.dshText ? ` ${verdict.dshText}` : ''}`);
    }
    item.tooltip = md;
    item.contextValue = 'sessionGeneration';
    item.accessibilityInformation = { label: `${item.label as string}, ${item.description}` };
    item.command = { command: 'vscode.openWith', title: vscode.l10n.t('Open Session'), arguments: [file, sessionEditorViewType(file)] };
    return item;
  }

  private readonly generationStats = new Map<string, { size: number; mtimeMs: number }>();

  private async statGeneration(file: vscode.Uri): Promise<void> {
    try {
      const s = await vscode.workspace.fs.stat(file);
      this.generationStats.set(file.toString(), { size: s.size, mtimeMs: s.mtime });
      this.verdicts.verdict(file, s.size, s.mtime);
    } catch {
      // The file went away: its row says it is still being read until the next refresh.
    }
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
  row(vscode.l10n.t('Last written'), `${formatDateTime(e.mtimeMs)} (${formatAgo(e.mtimeMs)})`);
  row(vscode.l10n.t('Size'), formatSize(e.size) + (e.compressed ? ' (zstd)' : ''));
  row(vscode.l10n.t('File'), e.fileName);
  if (e.events !== undefined) row(vscode.l10n.t('Events'), formatCount(e.events));
  if (e.turns !== undefined) row(vscode.l10n.t('Turns'), formatCount(e.turns));
  if (e.header?.cwd) row(vscode.l10n.t('Folder'), e.header.cwd);
  if (e.parentSession) row(vscode.l10n.t('Parent session'), e.parentSession);
  if (e.header?.seedLength !== undefined) row(vscode.l10n.t('Inherited events (seed)'), formatCount(e.header.seedLength));
  else if (e.header?.isSeeded) row(vscode.l10n.t('Inherited events (seed)'), vscode.l10n.t('yes (up to its end-of-seed marker)'));
  if (e.header?.delegationDepth) row(vscode.l10n.t('Delegation depth'), String(e.header.delegationDepth));
  if (children) row(vscode.l10n.t('Child sessions'), formatCount(children));
  if (e.otherGenerations.length) row(vscode.l10n.t('Older generations'), e.otherGenerations.join(', '));
  if (e.refusal) md.appendMarkdown(`\n${escape(vscode.l10n.t('dsh refuses it: {0}', displayText(e.refusal)))}`);
  return md;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
