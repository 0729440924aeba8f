// Connects one webview panel to one SessionDocument. The webview is a projection: it says `ready`,
// then the panel sends the document's current state (load progress, or the summary) and forwards the
// document's notifications; the webview asks for rows and everything else by request, and each
// request gets exactly one response. Messages from the webview are validated before use. Posting
// before `ready` would be lost, so the panel waits for it (and for the `ready` a webview sends again
// after VS Code reloads a hidden one).
import * as vscode from 'vscode';
import { onWebviewNotification } from './webview-channel';
import { webviewStrings } from './webview-strings';
import { isWebviewToHost, PROTOCOL_VERSION, type HostToWebview, type PendingEventRow, type WebviewToHost } from '../protocol/messages';
import type { SessionDocument } from './session-document';
import { sessionWebviewHtml, webviewOptions } from './webview-html';

export interface RenderReport {
  uri: string;
  events: number;
  hasHeader: boolean;
  at: number;
}

export interface TestReport {
  uri: string;
  name: string;
  values: Record<string, number | string | boolean>;
  at: number;
}

export interface PanelHooks {
  /** Test mode only: the webview drew the summary / sent a measurement. */
  testMode: boolean;
  onRendered(report: RenderReport): void;
  onTestReport(report: TestReport): void;
}

/** The document's pending edits, as the timeline draws them (events not in the file until Save). */
export interface PendingSource {
  rows(): PendingEventRow[];
  onDidChange: vscode.Event<void>;
}

const isRequestEnvelope = (m: unknown): m is { type: 'request' } =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'request';

export class SessionPanel implements vscode.Disposable {
  private ready = false;
  /** Load progress is coalesced to one message per tick; other notifications go out in order. */
  private pendingLoading: HostToWebview | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly document: SessionDocument,
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly hooks: PanelHooks,
    private readonly pending?: PendingSource,
  ) {
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = sessionWebviewHtml(panel.webview, extensionUri, document.fileName, hooks.testMode);
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      document.onDidNotify((m) => this.forward(m)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postCurrent()),
      panel.onDidDispose(() => this.dispose()),
      ...(pending ? [pending.onDidChange(() => this.postPending())] : []),
      onWebviewNotification((n) => {
        if (this.ready && n.uri === document.uri.toString()) void panel.webview.postMessage(n.message);
      }),
    );
  }

  private receive(message: unknown): void {
    // A request with bad params still gets an answer (a typed `badRequest`), so the webview never waits.
    if (isRequestEnvelope(message)) {
      void this.answer(message);
      return;
    }
    if (!isWebviewToHost(message)) return; // not ours: ignore rather than trust
    const m: WebviewToHost = message;
    switch (m.type) {
      case 'ready':
        if (m.protocolVersion !== PROTOCOL_VERSION) {
          void vscode.window.showErrorMessage(
            `Session Surface: webview protocol ${m.protocolVersion} != ${PROTOCOL_VERSION}; rebuild the extension.`,
          );
          return;
        }
        this.ready = true;
        void this.panel.webview.postMessage(webviewStrings());
        this.postCurrent();
        if (this.pending?.rows().length) this.postPending();
        return;
      case 'reload':
        void this.document.reload();
        return;
      case 'revealLine':
        void this.document.timeline?.answer('revealInTextEditor', { line: m.line });
        return;
      case 'rendered':
        if (this.hooks.testMode)
          this.hooks.onRendered({ uri: this.document.uri.toString(), events: m.events, hasHeader: m.hasHeader, at: Date.now() });
        return;
      case 'testReport':
        if (this.hooks.testMode)
          this.hooks.onTestReport({ uri: this.document.uri.toString(), name: m.name, values: m.values, at: Date.now() });
        return;
      case 'request':
        return; // handled above
    }
  }

  private async answer(request: unknown): Promise<void> {
    // Requests that arrive while the log loads are answered when it is loaded.
    await this.document.whenLoaded;
    const timeline = this.document.timeline;
    const r = request as { id?: unknown; method?: unknown };
    if (!timeline) {
      if (typeof r.id === 'number' && typeof r.method === 'string') {
        this.post({
          type: 'response',
          id: r.id,
          method: r.method as never,
          ok: false,
          error: { code: 'notLoaded', message: 'the log could not be loaded' },
        });
      }
      return;
    }
    const response = await timeline.handle(request, (p) => this.post({ type: 'searchProgress', ...p }));
    if (response) this.post(response);
  }

  private forward(message: HostToWebview): void {
    if (!this.ready) return;
    if (message.type !== 'loading') {
      this.pendingLoading = undefined;
      this.post(message);
      return;
    }
    const first = this.pendingLoading === undefined;
    this.pendingLoading = message;
    if (first) {
      setTimeout(() => {
        const m = this.pendingLoading;
        this.pendingLoading = undefined;
        if (m) this.post(m);
      }, 0);
    }
  }

  private postPending(): void {
    if (this.ready && this.pending) void this.panel.webview.postMessage({ type: 'pendingEdits', events: this.pending.rows() });
  }

  private postCurrent(): void {
    if (this.ready) this.post(this.document.messageForWebview());
  }

  private post(message: HostToWebview): void {
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
