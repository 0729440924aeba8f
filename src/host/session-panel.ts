// Connects one webview panel to one SessionDocument. The webview is a projection: it says `ready` and
// gets the document's current state (the strings table, load progress or the summary, the pending
// edits); then the document's notifications follow, through the panel's one WebviewChannel. The webview
// asks for rows and everything else by request, and each request gets exactly one response. Messages
// from the webview are validated before use.
import * as vscode from 'vscode';
import { webviewStrings } from './webview-strings';
import {
  answerRequest,
  isWebviewToHost,
  notification,
  PROTOCOL_VERSION,
  refuseRequest,
  type NotificationMessage,
  type PendingEventRow,
  type RequestMessage,
} from '../protocol';
import type { SessionDocument } from './session-document';
import { requestHandlers } from './timeline/request-handlers';
import { WebviewChannel } from './webview-channel';
import { sessionWebviewHtml, webviewOptions } from './webview-html';

export interface RenderReport {
  uri: string;
  events: number;
  hasHeader: boolean;
  at: number;
}

export interface PanelHooks {
  /** Test mode only: the webview (a test build) drew the summary. */
  testMode: boolean;
  onRendered(report: RenderReport): void;
}

/** The document's pending edits, as the timeline draws them (events not in the file until Save). */
export interface PendingSource {
  rows(): PendingEventRow[];
  onDidChange: vscode.Event<void>;
}

export class SessionPanel implements vscode.Disposable {
  private readonly channel: WebviewChannel;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly document: SessionDocument,
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly hooks: PanelHooks,
    private readonly pending?: PendingSource,
  ) {
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = sessionWebviewHtml(panel.webview, extensionUri, document.fileName);
    this.channel = new WebviewChannel(panel.webview, () => this.snapshot());
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      document.onDidNotify((m) => this.channel.notify(m)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.channel.notify(document.stateNotification())),
      panel.onDidDispose(() => this.dispose()),
      ...(pending ? [pending.onDidChange(() => this.channel.notify(notification('pendingEdits', { events: pending.rows() })))] : []),
    );
  }

  /** What a (re)started webview is sent before anything else. */
  private snapshot(): NotificationMessage[] {
    const state: NotificationMessage[] = [notification('strings', webviewStrings()), this.document.stateNotification()];
    const pending = this.pending?.rows() ?? [];
    if (pending.length) state.push(notification('pendingEdits', { events: pending }));
    return state;
  }

  private receive(message: unknown): void {
    if (!isWebviewToHost(message)) {
      // A request with bad params still gets an answer (a typed `badRequest`), so the webview never waits.
      const refusal = refuseRequest(message, 'badRequest', (method) => `bad params for ${method}`);
      if (refusal) this.channel.respond(refusal);
      return; // anything else is not ours: ignored rather than trusted
    }
    switch (message.type) {
      case 'ready':
        if (message.protocolVersion !== PROTOCOL_VERSION) {
          void vscode.window.showErrorMessage(
            `Session Surface: webview protocol ${message.protocolVersion} != ${PROTOCOL_VERSION}; rebuild the extension.`,
          );
          return;
        }
        this.channel.onReady();
        return;
      case 'rendered':
        if (this.hooks.testMode)
          this.hooks.onRendered({
            uri: this.document.uri.toString(),
            events: message.events,
            hasHeader: message.hasHeader,
            at: Date.now(),
          });
        return;
      case 'request':
        void this.answer(message);
        return;
    }
  }

  private async answer(request: RequestMessage): Promise<void> {
    // Requests that arrive while the log loads are answered when it is loaded.
    await this.document.whenLoaded;
    const timeline = this.document.timeline;
    if (!timeline) {
      const refusal = refuseRequest(request, 'notLoaded', () => 'the log could not be loaded');
      if (refusal) this.channel.respond(refusal);
      return;
    }
    const handlers = requestHandlers(timeline, (p) => this.channel.notify(notification('searchProgress', p)));
    this.channel.respond(await answerRequest(handlers, request, () => timeline.generation));
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
