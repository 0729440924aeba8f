// The sessions found under the sessions folder and in the open workspace folders (a folder of logs, or
// of session folders), kept for the Sessions view and the lineage commands. Listing runs in the
// background and fills the catalogue batch by batch; a new refresh cancels the old.
import * as vscode from 'vscode';
import { buildLineage, listFolderLogs, listSessions, type Lineage, type SessionEntry } from '../../core/internal';
import type { SessionLog } from '../output';
import { folderExists, sessionsRoot, workspaceCatalogFs, type SessionsRoot } from './sessions-root';

export type CatalogEntry = SessionEntry<vscode.Uri> & {
  parentSession?: string;
  /** Set for a log found in an open workspace folder (not under the sessions folder): the folder's name. */
  workspaceFolder?: string;
};

export type FolderState = 'unknown' | 'missing' | 'empty' | 'listed';

export class SessionCatalog implements vscode.Disposable {
  private entries: CatalogEntry[] = [];
  private lineageCache: Lineage<CatalogEntry> | undefined;
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  root: SessionsRoot = { uri: undefined, source: 'none' };
  /** Whether the sessions folder exists (the workspace folders may hold sessions without it). */
  rootFound = false;
  state: FolderState = 'unknown';
  loading = false;
  /** Resolves when the current listing has finished. */
  whenListed: Promise<void> = Promise.resolve();

  constructor(private readonly log?: SessionLog) {}

  get all(): readonly CatalogEntry[] {
    return this.entries;
  }

  get lineage(): Lineage<CatalogEntry> {
    return (this.lineageCache ??= buildLineage(this.entries));
  }

  byId(id: string): CatalogEntry | undefined {
    return this.lineage.byId.get(id);
  }

  byUri(uri: vscode.Uri): CatalogEntry | undefined {
    const key = uri.toString();
    return this.entries.find((e) => e.file.toString() === key);
  }

  refresh(): Promise<void> {
    this.whenListed = this.list(++this.generation);
    return this.whenListed;
  }

  private async list(generation: number): Promise<void> {
    const stale = () => generation !== this.generation;
    this.root = sessionsRoot();
    this.entries = [];
    this.lineageCache = undefined;
    const root = this.root.uri;
    const started = Date.now();
    this.loading = true;
    const folderLogs = this.listWorkspaceFolders(stale);
    this.rootFound = !!root && (await folderExists(root));
    if (stale()) return;
    let pendingFire: ReturnType<typeof setTimeout> | undefined;
    let fromRoot: SessionEntry<vscode.Uri>[] = [];
    if (root && this.rootFound) {
      this.state = 'listed';
      this.changed.fire();
      fromRoot = await listSessions(workspaceCatalogFs, root, {
        isCancelled: stale,
        onBatch: (batch) => {
          if (stale()) return;
          this.entries.push(...batch.map((e) => withParent(e)));
          this.lineageCache = undefined;
          // Draw the first sessions at once, then at most a few times a second.
          pendingFire ??= setTimeout(
            () => {
              pendingFire = undefined;
              if (!stale()) this.changed.fire();
            },
            this.entries.length <= batch.length ? 0 : 250,
          );
        },
      });
    }
    const inFolders = await folderLogs;
    if (stale()) return;
    clearTimeout(pendingFire);
    const seen = new Set(fromRoot.map((e) => e.file.toString()));
    this.entries = [...fromRoot.map((e) => withParent(e)), ...inFolders.filter((e) => !seen.has(e.file.toString()))];
    this.lineageCache = undefined;
    this.loading = false;
    this.state = this.entries.length ? 'listed' : this.rootFound ? 'empty' : 'missing';
    this.log?.info(
      `listed ${this.entries.length} sessions (${inFolders.length} in the workspace folders) under ${root?.toString(true) ?? 'no sessions folder'} in ${Date.now() - started} ms`,
    );
    this.changed.fire();
  }

  /** The session logs in the open workspace folders themselves (loose logs and session folders). */
  private async listWorkspaceFolders(stale: () => boolean): Promise<CatalogEntry[]> {
    const lists = await Promise.all(
      (vscode.workspace.workspaceFolders ?? []).map(async (folder) =>
        (await listFolderLogs(workspaceCatalogFs, folder.uri, { isCancelled: stale })).map((e) => withParent(e, folder.name)),
      ),
    );
    return lists.flat();
  }

  dispose(): void {
    this.generation++;
    this.changed.dispose();
  }
}

function withParent(e: SessionEntry<vscode.Uri>, workspaceFolder?: string): CatalogEntry {
  return { ...e, parentSession: e.header?.parentSession, ...(workspaceFolder !== undefined ? { workspaceFolder } : {}) };
}
