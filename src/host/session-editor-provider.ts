// The custom editor for session logs. It is a *read-only* custom editor provider on purpose: the host
// owns the document (so logs of any size open), and a log is append-only — this editor never writes
// it, so there is nothing to save, revert or back up, and the tab never turns dirty.
import * as vscode from 'vscode';
import { SessionDocument } from './session-document';
import { SessionPanel, type RenderReport } from './session-panel';

export const SESSION_EDITOR_VIEW_TYPE = 'sessionSurface.sessionEditor';

export class SessionEditorProvider implements vscode.CustomReadonlyEditorProvider<SessionDocument> {
  private readonly open = new Map<string, SessionDocument>();
  private readonly opened = new vscode.EventEmitter<SessionDocument>();
  readonly onDidOpenDocument = this.opened.event;
  private readonly rendered = new vscode.EventEmitter<RenderReport>();
  /** The webview drew a snapshot (used by tests and the open-time benchmark). */
  readonly onDidRender = this.rendered.event;
  private active: SessionDocument | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  static register(context: vscode.ExtensionContext, provider: SessionEditorProvider): void {
    context.subscriptions.push(
      vscode.window.registerCustomEditorProvider(SESSION_EDITOR_VIEW_TYPE, provider, {
        // Hidden webviews are rebuilt from the document on `ready`; keeping them alive costs memory.
        webviewOptions: { retainContextWhenHidden: false },
        supportsMultipleEditorsPerDocument: true,
      }),
      provider.opened,
      provider.rendered,
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

  openCustomDocument(uri: vscode.Uri): SessionDocument {
    // Returns at once; the document reads the file in the background so the webview can show progress.
    const document = new SessionDocument(uri, () => vscode.workspace.isTrusted);
    const key = uri.toString();
    this.open.set(key, document);
    document.onDidDispose(() => {
      if (this.open.get(key) === document) this.open.delete(key);
      if (this.active === document) this.active = undefined;
    });
    this.opened.fire(document);
    return document;
  }

  resolveCustomEditor(document: SessionDocument, panel: vscode.WebviewPanel): void {
    const binding = new SessionPanel(document, panel, this.extensionUri, (r) => this.rendered.fire(r));
    if (panel.active) this.active = document;
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.active = document;
      else if (this.active === document) this.active = undefined;
    });
    panel.onDidDispose(() => binding.dispose());
  }
}
