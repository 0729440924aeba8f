// Which session document the focused session editor shows, with an event when that (or the document)
// changes. The status bar, the keyboard commands and the palette's `when` clauses follow it.
import * as vscode from 'vscode';
import type { SessionDocument } from './session-document';
import { isSessionEditorViewType, type SessionEditorProvider } from './session-editor-provider';

export class ActiveSession implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionDocument | undefined>();
  /** Fires when another session becomes active (or none) and when the active one changes. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];
  private docSubscription: vscode.Disposable | undefined;
  private doc: SessionDocument | undefined;

  constructor(private readonly provider: SessionEditorProvider) {
    this.subscriptions.push(
      vscode.window.tabGroups.onDidChangeTabs(() => this.recompute()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.recompute()),
      // The document of a freshly opened tab is created after the tab becomes active.
      provider.onDidOpenDocument(() => setTimeout(() => this.recompute(), 0)),
    );
    this.recompute();
  }

  get current(): SessionDocument | undefined {
    return this.doc;
  }

  /** The URI of the active session editor's log, even before its document is ready. */
  static activeUri(): vscode.Uri | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputCustom && isSessionEditorViewType(input.viewType) ? input.uri : undefined;
  }

  recompute(): void {
    const uri = ActiveSession.activeUri();
    const doc = uri ? this.provider.documents.get(uri.toString()) : undefined;
    if (doc === this.doc) return;
    this.docSubscription?.dispose();
    this.doc = doc;
    this.docSubscription = doc
      ? vscode.Disposable.from(
          doc.onDidChange(() => this.changed.fire(doc)),
          doc.onDidDispose(() => this.recompute()),
        )
      : undefined;
    this.changed.fire(doc);
  }

  dispose(): void {
    this.docSubscription?.dispose();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
