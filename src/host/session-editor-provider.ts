// The custom editor for session logs. The host owns the document (so logs of any size open). It is an
// editable custom editor only for authored edits (compactions, prunes), which the document owns: they
// are pending until saved, and saving appends them to the log — nothing ever rewrites it (see
// ./authoring/document-edits.ts). This provider hands VS Code's editor duties to the document.
import * as vscode from 'vscode';
import { isZstdLogName, revealLineInTextEditor } from './log-text';
import { SessionDocument } from './session-document';
import { SessionPanel, type RenderReport } from './session-panel';
import { PendingEditsStatus } from './authoring/pending-status';
import { typeIcon, typeLabel } from '../present/event-labels';
import { hostFormatter } from './words';
import type { LineageLinks } from './lineage-links';

/**
 * The session editor under two names. A plain `.jsonl` log opens as text unless the user asks for the
 * session editor (priority "option"); a `.jsonl.zstd` log is binary, which no other editor can show, so
 * the session editor is its default. VS Code sets one priority per contributed editor, hence two.
 */
export const SESSION_EDITOR_VIEW_TYPE = 'sessionSurface.sessionEditor';
export const ZSTD_SESSION_EDITOR_VIEW_TYPE = 'sessionSurface.zstdSessionEditor';

export function isSessionEditorViewType(viewType: string): boolean {
  return viewType === SESSION_EDITOR_VIEW_TYPE || viewType === ZSTD_SESSION_EDITOR_VIEW_TYPE;
}

/** The session editor's name for this file (the one whose file pattern it matches). */
export function sessionEditorViewType(uri: vscode.Uri): string {
  return isZstdLogName(uri) ? ZSTD_SESSION_EDITOR_VIEW_TYPE : SESSION_EDITOR_VIEW_TYPE;
}

/** Opens `uri` in the session editor. */
export function openInSessionEditor(uri: vscode.Uri): Thenable<unknown> {
  return vscode.commands.executeCommand('vscode.openWith', uri, sessionEditorViewType(uri));
}

export class SessionEditorProvider implements vscode.CustomEditorProvider<SessionDocument> {
  private readonly edited = new vscode.EventEmitter<vscode.CustomDocumentEditEvent<SessionDocument>>();
  /** VS Code's custom editor listens here: each edit a document applies makes it dirty and adds an undo entry. */
  readonly onDidChangeCustomDocument = this.edited.event;
  private readonly pendingStatus = new PendingEditsStatus();
  private readonly open = new Map<string, SessionDocument>();
  private readonly opened = new vscode.EventEmitter<SessionDocument>();
  readonly onDidOpenDocument = this.opened.event;
  private readonly rendered = new vscode.EventEmitter<RenderReport>();
  /** Test mode only: a test build of the webview drew the summary (used by the in-host tests). */
  readonly onDidRender = this.rendered.event;
  private active: SessionDocument | undefined;
  /** Set by the Sessions view once registered: children of a session and the commands to open them. */
  lineage: LineageLinks | undefined;

  /** @param testMode the webview's render reports are recorded only when set. */
  constructor(
    private readonly extensionUri: vscode.Uri,
    readonly testMode = false,
  ) {}

  static register(context: vscode.ExtensionContext, provider: SessionEditorProvider): void {
    // Hidden webviews are rebuilt from the document on `ready`; keeping them alive costs memory.
    const options = { webviewOptions: { retainContextWhenHidden: false }, supportsMultipleEditorsPerDocument: true };
    context.subscriptions.push(
      vscode.window.registerCustomEditorProvider(SESSION_EDITOR_VIEW_TYPE, provider, options),
      vscode.window.registerCustomEditorProvider(ZSTD_SESSION_EDITOR_VIEW_TYPE, provider, options),
      provider.opened,
      provider.rendered,
      provider.edited,
      provider.pendingStatus,
    );
  }

  /** Open documents by URI string (read by the diagnostics and by the in-host tests). */
  get documents(): ReadonlyMap<string, SessionDocument> {
    return this.open;
  }

  /** The session document of the focused session editor, if any. */
  get activeDocument(): SessionDocument | undefined {
    return this.active;
  }

  openCustomDocument(uri: vscode.Uri, openContext?: vscode.CustomDocumentOpenContext): SessionDocument {
    // Returns at once; the document reads the file in the background so the webview can show progress.
    const document = new SessionDocument(uri, {
      isTrusted: () => vscode.workspace.isTrusted,
      locale: vscode.env.language,
      reveal: revealLineInTextEditor,
      lineage: () => this.lineage,
    });
    const key = uri.toString();
    this.open.set(key, document);
    document.onDidDispose(() => {
      if (this.open.get(key) === document) this.open.delete(key);
      if (this.active === document) this.active = undefined;
    });
    document.edits.onDidEdit((edit) => this.edited.fire({ document, ...edit }));
    this.pendingStatus.follow(document.fileName, document.edits, document.onDidDispose);
    if (openContext?.backupId) document.edits.restoreWhenLoaded(openContext.backupId);
    this.opened.fire(document);
    return document;
  }

  resolveCustomEditor(document: SessionDocument, panel: vscode.WebviewPanel): void {
    const edits = document.edits;
    const binding = new SessionPanel(
      document,
      panel,
      this.extensionUri,
      {
        testMode: this.testMode,
        onRendered: (r) => this.rendered.fire(r),
      },
      {
        rows: () => edits.pendingEvents.map((e) => ({ ...e, label: typeLabel(e.type, hostFormatter()), icon: typeIcon(e.type) })),
        onDidChange: edits.onDidChangePending,
      },
    );
    if (panel.active) this.active = document;
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.active = document;
      else if (this.active === document) this.active = undefined;
    });
    panel.onDidDispose(() => binding.dispose());
  }

  saveCustomDocument(document: SessionDocument): Thenable<void> {
    return document.edits.save();
  }

  saveCustomDocumentAs(document: SessionDocument): Thenable<void> {
    return Promise.reject(
      new Error(
        vscode.l10n.t(
          '{0}: Save As is not offered for session logs. A log is saved by appending its pending edits to the same file; copy the file first to keep the original, then edit the copy.',
          document.fileName,
        ),
      ),
    );
  }

  async revertCustomDocument(document: SessionDocument): Promise<void> {
    document.edits.revert();
  }

  backupCustomDocument(document: SessionDocument, context: vscode.CustomDocumentBackupContext): Thenable<vscode.CustomDocumentBackup> {
    return document.edits.backup(context.destination);
  }
}
