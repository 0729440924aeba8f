// The sessions found under the sessions folder, kept for the Sessions view and the lineage commands.
// Listing runs in the background and fills the catalogue batch by batch; a new refresh cancels the old.
import * as vscode from 'vscode';
import { buildLineage, listSessions, type Lineage, type SessionEntry } from '../../core/catalog';
import type { SessionLog } from '../output';
import { folderExists, sessionsRoot, workspaceCatalogFs, type SessionsRoot } from './sessions-root';

export type CatalogEntry = SessionEntry<vscode.Uri> & { parentSession?: string };

export type FolderState = 'unknown' | 'missing' | 'empty' | 'listed';

export class SessionCatalog implements vscode.Disposable {
  private entries: CatalogEntry[] = [];
  private lineageCache: Lineage<CatalogEntry> | undefined;
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  root: SessionsRoot = { uri: undefined, source: 'none' };
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
    if (!root || !(await folderExists(root))) {
      if (stale()) return;
      this.state = 'missing';
      this.loading = false;
      this.changed.fire();
      return;
    }
    this.loading = true;
    this.state = 'listed';
    this.changed.fire();
    const started = Date.now();
    let pendingFire: ReturnType<typeof setTimeout> | undefined;
    const all = await listSessions(workspaceCatalogFs, root, {
      isCancelled: stale,
      onBatch: (batch) => {
        if (stale()) return;
        this.entries.push(...batch.map(withParent));
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
    if (stale()) return;
    clearTimeout(pendingFire);
    this.entries = all.map(withParent);
    this.lineageCache = undefined;
    this.loading = false;
    this.state = this.entries.length ? 'listed' : 'empty';
    this.log?.info(`listed ${this.entries.length} sessions under ${root.toString(true)} in ${Date.now() - started} ms`);
    this.changed.fire();
  }

  dispose(): void {
    this.generation++;
    this.changed.dispose();
  }
}

function withParent(e: SessionEntry<vscode.Uri>): CatalogEntry {
  return { ...e, parentSession: e.header?.parentSession };
}
