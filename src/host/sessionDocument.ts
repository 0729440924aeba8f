// The host-owned model of one open session log. It is a CustomDocument, not a TextDocument, so that
// logs far beyond VS Code's 50 MB text-sync limit open. It reads the file through the core, remembers
// which bytes it read (size, mtime, the edges of the loaded prefix), follows the file and folds appended
// bytes in without a reload. If the file stops being an extension of what was read (truncated,
// rewritten, deleted) it keeps what it has, explains, and waits for an explicit reload.
// It never writes the log.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { extendLoadedFile, loadSessionFileAsync, type LoadedFile } from '../core';
import type { SessionLogView } from '../core/api';
import type { Diagnostic } from '../core/types';
import type { FileStatus, HostToWebview, SessionSnapshot } from '../protocol/messages';
import { readRange, readWholeFile, statFile } from './fileAccess';
import { FileFollower } from './fileFollower';
import { classifyChange, extendIdentity, identityOf, type LoadedIdentity } from './fileIdentity';
import { buildSnapshot, countTurns } from './snapshot';
import { readLimits } from './settings';

/** Files at least this large show their loading progress as a notification too. */
const NOTIFY_PROGRESS_BYTES = 8 * 2 ** 20;
/** How long a large load waits for a webview to be ready before it checks the log anyway. */
const VIEW_READY_WAIT_MS = 2500;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Share of the progress bar given to reading the bytes (the core's check takes the rest). */
const READ_SHARE = 0.25;

export type DocumentState =
  | { kind: 'loading'; phase: 'reading' | 'parsing'; fraction?: number; totalBytes: number }
  | { kind: 'loaded' }
  | { kind: 'failed'; message: string };

interface Loaded {
  view: SessionLogView;
  /** The loaded file as the core holds it (plain or zstd), which appended bytes extend. */
  source: LoadedFile;
  identity: LoadedIdentity;
  file: FileStatus;
  turns: number;
  loadMs: number;
}

export class SessionDocument implements vscode.CustomDocument {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires on load progress, when the load ends, and whenever the file changed what the view shows. */
  readonly onDidChange = this.changed.event;
  private readonly disposedEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposedEmitter.event;

  private state: DocumentState = { kind: 'loading', phase: 'reading', totalBytes: 0 };
  private loaded: Loaded | undefined;
  private follower: FileFollower | undefined;
  private loadGeneration = 0;
  private disposed = false;
  private markReady: () => void = () => {};
  /** Resolves when a webview showing this document has said `ready`. */
  private readonly viewReady = new Promise<void>((resolve) => { this.markReady = resolve; });
  /** Resolves when the current load has ended (loaded or failed). */
  whenLoaded: Promise<void>;

  constructor(readonly uri: vscode.Uri, private readonly isTrusted: () => boolean) {
    this.whenLoaded = this.load();
  }

  get fileName(): string {
    return path.posix.basename(this.uri.path);
  }

  get view(): SessionLogView | undefined {
    return this.loaded?.view;
  }

  get currentState(): DocumentState {
    return this.state;
  }

  /** Every core diagnostic of the file: those of the load and those of folded appends. */
  get diagnostics(): readonly Diagnostic[] {
    if (!this.loaded) return [];
    return this.loaded.view.diagnostics;
  }

  snapshot(): SessionSnapshot | undefined {
    const l = this.loaded;
    if (!l) return undefined;
    return buildSnapshot(l.view, {
      fileName: this.fileName,
      filePath: this.uri.scheme === 'file' ? this.uri.fsPath : this.uri.toString(true),
      turns: l.turns,
      file: l.file,
      restrictedMode: !this.isTrusted(),
      loadMs: l.loadMs,
    });
  }

  /** The message that brings a freshly (re)loaded webview up to date. */
  messageForWebview(): HostToWebview {
    const s = this.state;
    if (s.kind === 'failed') return { type: 'loadFailed', fileName: this.fileName, message: s.message };
    const snapshot = this.snapshot();
    if (s.kind === 'loaded' && snapshot) return { type: 'snapshot', snapshot };
    const loading = s.kind === 'loading' ? s : { phase: 'parsing' as const, fraction: undefined, totalBytes: 0 };
    return { type: 'loading', fileName: this.fileName, phase: loading.phase, fraction: loading.fraction, totalBytes: loading.totalBytes };
  }

  /** Called by a panel when its webview is ready to draw. */
  webviewReady(): void {
    this.markReady();
  }

  /** Reads the file again from the start (after a truncation, a rewrite or a deletion). */
  reload(): Promise<void> {
    this.whenLoaded = this.load();
    return this.whenLoaded;
  }

  private setState(state: DocumentState): void {
    this.state = state;
    if (!this.disposed) this.changed.fire();
  }

  private async load(): Promise<void> {
    const generation = ++this.loadGeneration;
    this.follower?.dispose();
    this.follower = undefined;
    const stale = () => this.disposed || generation !== this.loadGeneration;
    try {
      const stat = await statFile(this.uri);
      if (!stat) throw new Error(`${this.uri.fsPath || this.uri.toString()} does not exist`);
      this.setState({ kind: 'loading', phase: 'reading', fraction: 0, totalBytes: stat.size });
      const started = Date.now();
      // A large log takes seconds; the webview may still be starting, so the workbench shows the
      // progress too (a notification for large files, the status bar for small ones).
      const location = stat.size >= NOTIFY_PROGRESS_BYTES ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window;
      const title = `Opening ${this.fileName} (${(stat.size / 2 ** 20).toFixed(1)} MiB)`;
      const view = await vscode.window.withProgress({ location, title }, async (progress) => {
        // Progress is split: reading the bytes is the first READ_SHARE of the bar, the core's check the rest.
        let shown = 0;
        const report = (phase: 'reading' | 'parsing', fraction: number, totalBytes: number) => {
          const overall = phase === 'reading' ? fraction * READ_SHARE : READ_SHARE + fraction * (1 - READ_SHARE);
          if (overall - shown < 0.04 && fraction < 1) return; // a few dozen updates at most
          progress.report({ increment: (overall - shown) * 100, message: phase === 'reading' ? 'reading the file' : "checking dsh's rules" });
          shown = overall;
          if (!stale()) this.setState({ kind: 'loading', phase, fraction, totalBytes });
        };
        const bytes = await readWholeFile(this.uri, (fraction) => report('reading', fraction, stat.size));
        // On these 2-core machines a webview that boots while the core checks a large log stays blank
        // for seconds; let it come up first (bounded wait) so the user sees the progress bar.
        if (bytes.length >= NOTIFY_PROGRESS_BYTES) await Promise.race([this.viewReady, delay(VIEW_READY_WAIT_MS)]);
        if (stale()) return undefined;
        report('parsing', 0, bytes.length);
        // The core parses in slices and yields between them, so the host stays responsive.
        // Plain or zstd, told apart by content; the core decodes zstd frame by frame.
        const source = await loadSessionFileAsync(bytes, {
          fileName: this.fileName,
          limits: readLimits(),
          onProgress: (fraction) => report('parsing', fraction, bytes.length),
        });
        return { parsed: source.log as SessionLogView, source, bytes };
      });
      if (!view || stale()) return;
      const { parsed, source, bytes } = view;
      const after = await statFile(this.uri);
      if (stale()) return;
      this.loaded = {
        view: parsed,
        source,
        identity: identityOf(bytes, after && after.size === bytes.length ? after.mtimeMs : stat.mtimeMs),
        file: { state: 'following', size: bytes.length, mtimeMs: after?.mtimeMs ?? stat.mtimeMs },
        turns: countTurns(parsed, 0, parsed.eventCount),
        loadMs: Date.now() - started,
      };
      this.setState({ kind: 'loaded' });
      this.follower = new FileFollower(this.uri, () => this.checkFile(generation));
      this.follower.soon(); // catch anything appended while we parsed
    } catch (err) {
      if (stale()) return;
      this.loaded = undefined;
      this.setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Compares the file with what was read; folds appended bytes in, or explains why it cannot. */
  private async checkFile(generation: number): Promise<void> {
    const l = this.loaded;
    if (!l || generation !== this.loadGeneration || this.disposed || l.file.state !== 'following') return;
    try {
      const stat = await statFile(this.uri);
      const change = await classifyChange(l.identity, { stat, read: (a, b) => readRange(this.uri, a, b) });
      if (generation !== this.loadGeneration || this.disposed) return;
      switch (change.kind) {
        case 'unchanged':
          return;
        case 'appended': {
          const appended = await readRange(this.uri, change.from, change.to);
          if (generation !== this.loadGeneration || this.disposed || appended.length === 0) return;
          const before = l.view.eventCount;
          extendLoadedFile(l.source, appended);
          const mtimeMs = stat?.mtimeMs ?? l.file.mtimeMs;
          l.identity = extendIdentity(l.identity, appended, mtimeMs);
          l.turns += countTurns(l.view, before, l.view.eventCount);
          l.file = { state: 'following', size: l.identity.size, mtimeMs, lastAppendAt: Date.now() };
          this.setState({ kind: 'loaded' });
          return;
        }
        default:
          l.file = { ...l.file, state: change.kind, explanation: change.explanation, size: stat?.size ?? 0 };
          this.setState({ kind: 'loaded' });
      }
    } catch (err) {
      if (generation !== this.loadGeneration || this.disposed) return;
      l.file = {
        ...l.file,
        state: 'stopped',
        explanation: `Following the file stopped: ${err instanceof Error ? err.message : String(err)}. Reload to read it again.`,
      };
      this.setState({ kind: 'loaded' });
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.follower?.dispose();
    this.loaded = undefined;
    this.disposedEmitter.fire();
    this.disposedEmitter.dispose();
    this.changed.dispose();
  }
}
