// The host-owned model of one open session log. It is a CustomDocument, not a TextDocument, so that
// logs far beyond VS Code's 50 MB text-sync limit open. It reads the file through the core at once
// (it never waits for a view), remembers which bytes it read (size, mtime, the edges of the loaded
// prefix), follows the file and folds appended bytes in without a reload. If the file stops being an
// extension of what was read (truncated, rewritten, deleted) it keeps what it has, explains, and
// waits for an explicit reload. It owns the user's edits (`edits`: undo/redo, save, revert, backups),
// and writes the log only through `appendWith`, which appends saved edits (see src/save/append-save.ts).
//
// Views learn about it through notifications (`onDidNotify`: load progress with the header as soon
// as it is read, the summary when the load ends, small `appended` notes, and what commands tell the
// views of this log, such as a reveal) and ask for everything else through the timeline's requests.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  currentGeneration,
  extendLoadedFile,
  loadSessionFileAsync,
  parseGenerationFileName,
  type Diagnostic,
  type LoadedFile,
  type SessionLogView,
} from '../core';
import { affects, followLiveLogs, readLimits } from './settings';
import { Formatter, headerFields } from '../present';
import { notification, type FileStatus, type LoadProgress, type NotificationMessage, type SessionSummary } from '../protocol';
import { readFileWithStat, readRange, readWholeFile, statFile } from './file-access';
import { hostPlatform } from './platform';
import { FileFollower } from './file-follower';
import { classifyChange, extendIdentity, identityOf, type LoadedIdentity } from '../files/file-identity';
import { SessionTimeline } from './timeline/session-timeline';
import { translate } from './words';
import type { EditableLog } from '../files/append-save';
import { CRASH_REPAIR_COMMANDS } from './crash-repair-ids';
import type { LineageLinks } from './lineage-links';
import { DocumentEdits } from './authoring/document-edits';

/** Files at least this large show their loading progress as a notification too. */
const NOTIFY_PROGRESS_BYTES = 8 * 2 ** 20;
/** Share of the progress bar given to reading the bytes (the core's check takes the rest). */
const READ_SHARE = 0.25;
/** After appends, the whole-log diagnostics (invariants, provenance) are gathered again at most this often. */
const DIAGNOSTICS_REFRESH_MS = 1500;
/** The first line is read for the early header only up to this size. */
const EARLY_HEADER_BYTES = 1024 * 1024;
/**
 * Today's dsh's verdict (which migrates an older log) is read before the first summary up to this
 * size; a larger log shows its summary first and the verdict a moment later.
 */
const UPGRADE_BEFORE_SUMMARY_BYTES = 8 * 2 ** 20;

export type DocumentState =
  | { kind: 'loading'; phase: 'reading' | 'parsing'; fraction?: number; totalBytes: number }
  | { kind: 'loaded' }
  | { kind: 'failed'; message: string };

interface Loaded {
  timeline: SessionTimeline;
  identity: LoadedIdentity;
  file: FileStatus;
  loadMs: number;
  /** The newer generation beside the file that dsh reads, when the file is an older one of its session. */
  newerGeneration?: string;
}

export interface DocumentOptions {
  isTrusted: () => boolean;
  /** VS Code's display language, for dates and numbers. */
  locale: string;
  /** Opens the log as text at a 1-based line. */
  reveal: (uri: vscode.Uri, line: number, compressed: boolean) => Promise<boolean>;
  /** The lineage links of the Sessions view, once it is registered. */
  lineage?: () => LineageLinks | undefined;
}

export class SessionDocument implements vscode.CustomDocument {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the load ends and whenever the file changed what the view shows. */
  readonly onDidChange = this.changed.event;
  private readonly notified = new vscode.EventEmitter<NotificationMessage>();
  /** Notifications for the webviews showing this document. */
  readonly onDidNotify = this.notified.event;
  private readonly diagnosticsChanged = new vscode.EventEmitter<void>();
  /** The one list of diagnostics changed (after a load, or after appends, throttled). */
  readonly onDidChangeDiagnostics = this.diagnosticsChanged.event;
  private readonly disposedEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposedEmitter.event;

  private state: DocumentState = { kind: 'loading', phase: 'reading', totalBytes: 0 };
  private loading: LoadProgress | undefined;
  private loaded: Loaded | undefined;
  private follower: FileFollower | undefined;
  private loadGeneration = 0;
  private disposed = false;
  private diagnosticsTimer: NodeJS.Timeout | undefined;
  /** True while a save appends to the file: the follower leaves the file to it. */
  private appending = false;
  /** When another writer last changed the file, as far as this document saw (ms since the epoch). */
  private lastForeignChange = 0;
  readonly formatter: Formatter;
  /** Resolves when the current load has ended (loaded or failed). */
  whenLoaded: Promise<void>;
  /** The user's edits of this log: pending until saved (appended), each one an undo/redo pair. */
  readonly edits: DocumentEdits = new DocumentEdits(this);

  private readonly settingWatch: vscode.Disposable;

  constructor(
    readonly uri: vscode.Uri,
    private readonly options: DocumentOptions,
  ) {
    this.formatter = new Formatter({ locale: options.locale, translate });
    this.whenLoaded = this.load();
    // The live state says whether appends are followed, so turning the setting over re-words it at
    // once; turned on, the follower catches up with what was appended meanwhile.
    this.settingWatch = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affects(e, 'followLiveLogs') || !this.loaded || this.disposed) return;
      this.notify(notification('summary', { summary: this.loaded.timeline.summary() }));
      this.changed.fire();
      this.follower?.soon();
    });
  }

  get fileName(): string {
    return path.posix.basename(this.uri.path);
  }

  get timeline(): SessionTimeline | undefined {
    return this.loaded?.timeline;
  }

  get view(): SessionLogView | undefined {
    return this.loaded?.timeline.log;
  }

  /** True for a `.jsonl.zstd` log (by content). */
  get compressed(): boolean {
    return this.loaded?.timeline.source.zstd !== undefined;
  }

  get currentState(): DocumentState {
    return this.state;
  }

  /** The one list of the log's diagnostics: what `check` prints and the Problems panel shows. */
  get diagnostics(): readonly Diagnostic[] {
    return this.loaded?.timeline.lastDiagnostics() ?? [];
  }

  summary(): SessionSummary | undefined {
    return this.loaded?.timeline.summary();
  }

  /** The notification that brings a freshly (re)loaded webview up to date. */
  stateNotification(): NotificationMessage {
    const s = this.state;
    if (s.kind === 'failed') return notification('loadFailed', { fileName: this.fileName, message: s.message });
    const summary = s.kind === 'loaded' ? this.summary() : undefined;
    if (summary) return notification('summary', { summary });
    return notification('loading', this.loading ?? { fileName: this.fileName, phase: 'reading', totalBytes: 0 });
  }

  /** The loaded log and the identity of its bytes, for planning edits (undefined until loaded). */
  get editable(): EditableLog | undefined {
    return this.loaded ? { loaded: this.loaded.timeline.source, identity: this.loaded.identity } : undefined;
  }

  /**
   * Runs `save` (which appends to the file and folds what it wrote, or what another writer appended,
   * into the loaded log) with following paused, then adopts the identity it leaves behind.
   */
  async appendWith<T>(save: (target: EditableLog) => Promise<T>): Promise<T> {
    const l = this.loaded;
    if (!l) throw new Error(`${this.fileName} is not loaded`);
    if (this.appending) throw new Error(`${this.fileName} is already being saved`);
    this.appending = true;
    const target: EditableLog = { loaded: l.timeline.source, identity: l.identity };
    const before = l.timeline.log.eventCount;
    try {
      return await save(target);
    } finally {
      this.appending = false;
      if (this.loaded === l) {
        l.identity = target.identity;
        const { surfaceChanged } = l.timeline.foldAppend();
        if (l.file.state === 'following') l.file = { ...l.file, size: l.identity.size, mtimeMs: l.identity.mtimeMs };
        this.setState({ kind: 'loaded' });
        this.notify(notification('appended', l.timeline.appendedNote(l.timeline.log.eventCount - before, surfaceChanged)));
        this.scheduleDiagnostics();
      }
    }
  }

  /** When another writer last changed the file (its mtime when loaded, or when a foreign append was folded in). */
  get lastForeignChangeMs(): number {
    return this.lastForeignChange;
  }

  /** Reads the file again from the start (after a truncation, a rewrite or a deletion). */
  reload(): Promise<void> {
    this.whenLoaded = this.load();
    return this.whenLoaded;
  }

  /** Tells every view of this document (through each one's channel, which holds it until the view is ready). */
  notify(message: NotificationMessage): void {
    if (!this.disposed) this.notified.fire(message);
  }

  private setState(state: DocumentState): void {
    this.state = state;
    if (!this.disposed) this.changed.fire();
  }

  private summaryContext(uri: vscode.Uri) {
    return () => {
      const l = this.loaded!;
      return {
        fileName: this.fileName,
        filePath: uri.scheme === 'file' ? uri.fsPath : uri.toString(true),
        turns: l.timeline.index.turns,
        file: l.file,
        followLiveLogs: followLiveLogs(),
        fileBytes: l.identity.size,
        zstd: l.timeline.source.zstd,
        restrictedMode: !this.options.isTrusted(),
        loadMs: l.loadMs,
        ...(l.newerGeneration !== undefined ? { newerGeneration: l.newerGeneration } : {}),
      };
    };
  }

  private async load(): Promise<void> {
    const generation = ++this.loadGeneration;
    this.follower?.dispose();
    this.follower = undefined;
    this.loaded?.timeline.dispose();
    const stale = () => this.disposed || generation !== this.loadGeneration;
    try {
      const stat = await statFile(this.uri);
      if (!stat) throw new Error(`${this.uri.fsPath || this.uri.toString()} does not exist`);
      const started = Date.now();
      let header: LoadProgress['headerFields'];
      const progressTo = (phase: 'reading' | 'parsing', fraction: number, totalBytes: number) => {
        this.loading = {
          fileName: this.fileName,
          phase,
          fraction,
          totalBytes,
          ...(header ? { headerFields: header } : {}),
        };
        this.state = { kind: 'loading', phase, fraction, totalBytes };
        this.notify(notification('loading', this.loading));
      };
      progressTo('reading', 0, stat.size);
      // A large log takes seconds: the workbench shows the progress too (a notification for large
      // files, the status bar for small ones), whether or not a view is up yet.
      const location = stat.size >= NOTIFY_PROGRESS_BYTES ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window;
      const title = vscode.l10n.t('Opening {0} ({1})', this.fileName, this.formatter.bytes(stat.size));
      const result = await vscode.window.withProgress({ location, title }, async (progress) => {
        let shown = 0;
        const report = (phase: 'reading' | 'parsing', fraction: number, totalBytes: number) => {
          const overall = phase === 'reading' ? fraction * READ_SHARE : READ_SHARE + fraction * (1 - READ_SHARE);
          if (overall - shown < 0.04 && fraction < 1) return; // a few dozen updates at most
          progress.report({
            increment: (overall - shown) * 100,
            message: phase === 'reading' ? vscode.l10n.t('reading the file') : vscode.l10n.t("checking dsh's rules"),
          });
          shown = overall;
          if (!stale()) progressTo(phase, fraction, totalBytes);
        };
        const { bytes, stat: read } = await readFileWithStat(this.uri, (fraction) => report('reading', fraction, stat.size));
        if (stale()) return undefined;
        header = earlyHeader(bytes, this.formatter);
        progressTo('parsing', 0, bytes.length);
        // The core parses in slices and yields between them, so the host stays responsive.
        // Plain or zstd, told apart by content; the core decodes zstd frame by frame.
        const source = await loadSessionFileAsync(bytes, {
          fileName: this.fileName,
          zstdCodec: hostPlatform().zstdCodec,
          utf8Slicer: hostPlatform().utf8Slicer,
          limits: readLimits(),
          onProgress: (fraction) => report('parsing', fraction, bytes.length),
        });
        return { source, bytes, id: read.id };
      });
      if (!result || stale()) return;
      const { source, bytes, id } = result;
      const after = await statFile(this.uri);
      if (stale()) return;
      const newerGeneration = await this.newerGeneration();
      if (stale()) return;
      this.loaded = {
        timeline: this.newTimeline(source, generation),
        identity: identityOf(bytes, after && after.size === bytes.length ? after.mtimeMs : stat.mtimeMs, id),
        file: { state: 'following', size: bytes.length, mtimeMs: after?.mtimeMs ?? stat.mtimeMs },
        loadMs: Date.now() - started,
        ...(newerGeneration !== undefined ? { newerGeneration } : {}),
      };
      this.lastForeignChange = this.loaded.file.mtimeMs;
      this.loading = undefined;
      const loaded = this.loaded;
      if (bytes.length <= UPGRADE_BEFORE_SUMMARY_BYTES) this.readUpgrade(loaded);
      else
        setTimeout(() => {
          if (this.loaded !== loaded || this.disposed) return;
          this.readUpgrade(loaded);
          this.notify(notification('summary', { summary: loaded.timeline.summary() }));
          this.changed.fire();
          this.diagnosticsChanged.fire();
        }, 50);
      this.setState({ kind: 'loaded' });
      this.notify(notification('summary', { summary: this.loaded.timeline.summary() }));
      this.diagnosticsChanged.fire();
      this.follower = new FileFollower(this.uri, () => this.checkFile(generation));
      this.follower.soon(); // catch anything appended while we parsed
    } catch (err) {
      if (stale()) return;
      this.loaded = undefined;
      const message = err instanceof Error ? err.message : String(err);
      this.setState({ kind: 'failed', message });
      this.notify(notification('loadFailed', { fileName: this.fileName, message }));
    }
  }

  /**
   * Reads today's dsh's verdict. The format layer reports refusals as verdicts; should it throw all the
   * same, the log's own verdict stands and the summary simply has no second one.
   */
  private readUpgrade(loaded: Loaded): void {
    try {
      loaded.timeline.readUpgrade();
    } catch {
      // no second verdict
    }
  }

  /**
   * When the file is one of dsh's canonical generations and its folder holds a newer one, that one's
   * name: dsh reads and appends to the highest generation only.
   */
  private async newerGeneration(): Promise<string | undefined> {
    const mine = parseGenerationFileName(this.fileName);
    if (!mine) return undefined;
    try {
      const names = (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(this.uri, '..'))).map(([name]) => name);
      const current = currentGeneration(names)?.current;
      return current && current.version > mine.version ? current.name : undefined;
    } catch {
      return undefined;
    }
  }

  private newTimeline(source: LoadedFile, generation: number): SessionTimeline {
    const uri = this.uri;
    return new SessionTimeline(source, generation, this.formatter, {
      summaryContext: this.summaryContext(uri),
      reveal: (line) => this.options.reveal(uri, line, source.zstd !== undefined),
      reload: () => {
        void this.reload();
      },
      readFileBytes: () => readWholeFile(uri).catch(() => undefined),
      // The command asks in a modal before it writes; the webview does not wait for the answer.
      runRepairAction: async (action) => {
        void vscode.commands.executeCommand(action === 'apply' ? CRASH_REPAIR_COMMANDS.apply : CRASH_REPAIR_COMMANDS.removeTornTail, uri);
        return true;
      },
      childSessions: async () => (await this.options.lineage?.()?.childCount(uri)) ?? 0,
      openLineage: async (to) => (await this.options.lineage?.()?.open(uri, to)) ?? false,
      openSession: async (id) => (await this.options.lineage?.()?.openById(id)) ?? false,
    });
  }

  /** Compares the file with what was read; folds appended bytes in, or explains why it cannot. */
  private async checkFile(generation: number): Promise<void> {
    const l = this.loaded;
    if (!l || generation !== this.loadGeneration || this.disposed || l.file.state !== 'following' || this.appending) return;
    const identity = l.identity;
    try {
      const stat = await statFile(this.uri);
      const change = await classifyChange(l.identity, { stat, read: (a, b) => readRange(this.uri, a, b) });
      if (generation !== this.loadGeneration || this.disposed) return;
      switch (change.kind) {
        case 'unchanged':
          return;
        case 'appended': {
          const appended = await readRange(this.uri, change.from, change.to);
          // A save may have folded these bytes in meanwhile (it reads and appends under the same rule).
          if (generation !== this.loadGeneration || this.disposed || appended.length === 0 || this.appending || l.identity !== identity)
            return;
          const mtimeMs = stat?.mtimeMs ?? l.file.mtimeMs;
          const before = l.timeline.log.eventCount;
          extendLoadedFile(l.timeline.source, appended);
          const { surfaceChanged } = l.timeline.foldAppend();
          l.identity = extendIdentity(l.identity, appended, mtimeMs);
          l.file = { state: 'following', size: l.identity.size, mtimeMs, lastAppendAt: Date.now() };
          this.lastForeignChange = mtimeMs;
          this.state = { kind: 'loaded' };
          this.notify(notification('appended', l.timeline.appendedNote(l.timeline.log.eventCount - before, surfaceChanged)));
          if (!this.disposed) this.changed.fire();
          this.scheduleDiagnostics();
          return;
        }
        default:
          l.file = {
            ...l.file,
            state: change.kind,
            explanation: changeExplanation(change.kind, stat?.size ?? 0, identity.size),
            size: stat?.size ?? 0,
          };
          this.setState({ kind: 'loaded' });
          this.notify(notification('summary', { summary: l.timeline.summary() }));
      }
    } catch (err) {
      if (generation !== this.loadGeneration || this.disposed) return;
      l.file = {
        ...l.file,
        state: 'stopped',
        explanation: vscode.l10n.t(
          'Following the file stopped: {0}. Reload to read it again.',
          err instanceof Error ? err.message : String(err),
        ),
      };
      this.setState({ kind: 'loaded' });
      this.notify(notification('summary', { summary: l.timeline.summary() }));
    }
  }

  /** Gathers the whole-log diagnostics again after appends, at most every DIAGNOSTICS_REFRESH_MS. */
  private scheduleDiagnostics(): void {
    if (this.diagnosticsTimer) return;
    this.diagnosticsTimer = setTimeout(() => {
      this.diagnosticsTimer = undefined;
      const l = this.loaded;
      if (!l || this.disposed) return;
      const before = l.timeline.lastDiagnostics();
      // Today's dsh's verdict follows the log as it grows (a large log's is left as it was read).
      if (l.identity.size <= UPGRADE_BEFORE_SUMMARY_BYTES) this.readUpgrade(l);
      const now = l.timeline.diagnostics().list;
      if (now.length !== before.length || now.some((d, i) => d.message !== before[i].message || d.line !== before[i].line)) {
        this.notify(notification('summary', { summary: l.timeline.summary() }));
        this.diagnosticsChanged.fire();
      }
    }, DIAGNOSTICS_REFRESH_MS);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.settingWatch.dispose();
    clearTimeout(this.diagnosticsTimer);
    this.follower?.dispose();
    this.loaded?.timeline.dispose();
    this.loaded = undefined;
    this.edits.dispose();
    this.disposedEmitter.fire();
    this.disposedEmitter.dispose();
    this.changed.dispose();
    this.notified.dispose();
    this.diagnosticsChanged.dispose();
  }
}

/** Why the file is no longer followed: `classifyChange`'s explanation in the display language. */
function changeExplanation(kind: 'truncated' | 'rewritten' | 'deleted', sizeNow: number, sizeRead: number): string {
  if (kind === 'deleted') return vscode.l10n.t('It was deleted or moved. The editor still shows what it had read.');
  if (kind === 'truncated')
    return vscode.l10n.t(
      'It now has {0} bytes, fewer than the {1} bytes already read. A session log only grows, so something other than the agent changed it. Nothing was written by this editor.',
      sizeNow,
      sizeRead,
    );
  return vscode.l10n.t(
    'Bytes already read have changed, so the file was not appended to. The editor still shows the old content. Nothing was written by this editor.',
  );
}

/** The header fields of a plain log's first line, before the core has read the rest. */
function earlyHeader(bytes: Uint8Array, fmt: Formatter): LoadProgress['headerFields'] {
  if (bytes[0] !== 0x7b) return undefined; // '{': zstd and anything else wait for the load
  const end = bytes.subarray(0, EARLY_HEADER_BYTES).indexOf(0x0a);
  if (end < 0) return undefined;
  try {
    return headerFields(JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))), fmt);
  } catch {
    return undefined;
  }
}
