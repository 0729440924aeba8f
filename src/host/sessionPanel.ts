// Connects one webview panel to one SessionDocument. The webview is a projection: it says `ready`,
// then the panel sends the document's current state and every later change. Messages from the webview
// are validated before use. Posting before `ready` would be lost, so the panel waits for it (and for
// the `ready` a webview sends again after VS Code reloads a hidden one).
import * as vscode from 'vscode';
import { isWebviewToHost, PROTOCOL_VERSION, type WebviewToHost } from '../protocol/messages';
import type { SessionDocument } from './sessionDocument';
import { sessionWebviewHtml, webviewOptions } from './webviewHtml';
import { onWebviewNotification } from './webviewChannel';
import { webviewStrings } from './webviewStrings';

export interface RenderReport {
  uri: string;
  events: number;
  hasHeader: boolean;
  at: number;
}

export class SessionPanel implements vscode.Disposable {
  private ready = false;
  private pendingPost = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly document: SessionDocument,
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly onRendered: (report: RenderReport) => void,
  ) {
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = sessionWebviewHtml(panel.webview, extensionUri, document.fileName);
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      document.onDidChange(() => this.schedulePost()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.schedulePost()),
      panel.onDidDispose(() => this.dispose()),
      onWebviewNotification((n) => { if (this.ready && n.uri === document.uri.toString()) void panel.webview.postMessage(n.message); }),
    );
  }

  private receive(message: unknown): void {
    if (!isWebviewToHost(message)) return; // not ours: ignore rather than trust
    const m: WebviewToHost = message;
    switch (m.type) {
      case 'ready':
        if (m.protocolVersion !== PROTOCOL_VERSION) {
          void vscode.window.showErrorMessage(`Session Surface: webview protocol ${m.protocolVersion} != ${PROTOCOL_VERSION}; rebuild the extension.`);
          return;
        }
        this.ready = true;
        this.document.webviewReady();
        void this.panel.webview.postMessage(webviewStrings());
        this.post();
        return;
      case 'reload':
        void this.document.reload();
        return;
      case 'revealLine':
        void revealLineInTextEditor(this.document.uri, m.line);
        return;
      case 'rendered':
        this.onRendered({ uri: this.document.uri.toString(), events: m.events, hasHeader: m.hasHeader, at: Date.now() });
        return;
    }
  }

  /** Coalesces bursts of changes (progress, many appends) into one message per tick. */
  private schedulePost(): void {
    if (!this.ready || this.pendingPost) return;
    this.pendingPost = true;
    setTimeout(() => {
      this.pendingPost = false;
      this.post();
    }, 0);
  }

  private post(): void {
    if (!this.ready) return;
    void this.panel.webview.postMessage(this.document.messageForWebview());
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

/** Opens the log as text beside the session editor, at a 1-based line. */
export async function revealLineInTextEditor(uri: vscode.Uri, line: number): Promise<void> {
  const position = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.commands.executeCommand('vscode.openWith', uri, 'default', {
    viewColumn: vscode.ViewColumn.Beside,
    selection: new vscode.Range(position, position),
    preserveFocus: false,
  } satisfies vscode.TextDocumentShowOptions);
}
