// The status bar item that says pending events exist and are not in the file yet (the timeline draws
// the log as saved): the document that changed its pending edits last, until they are saved, reverted
// or undone, or it closes.
import * as vscode from 'vscode';
import type { DocumentEdits } from './document-edits';

export class PendingEditsStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('sessionSurface.pendingEdits', vscode.StatusBarAlignment.Left, 50);
  private shown: DocumentEdits | undefined;

  /** Shows `edits`' pending events whenever they change; `onDidClose` ends that. */
  follow(fileName: string, edits: DocumentEdits, onDidClose: vscode.Event<void>): void {
    edits.onDidChangePending(() => this.show(fileName, edits));
    onDidClose(() => {
      if (this.shown !== edits) return;
      this.shown = undefined;
      this.item.hide();
    });
  }

  private show(fileName: string, edits: DocumentEdits): void {
    const events = edits.pendingEvents;
    if (events.length === 0) {
      this.shown = undefined;
      this.item.hide();
      return;
    }
    this.shown = edits;
    this.item.name = vscode.l10n.t('Session Surface: pending edits');
    const count =
      events.length === 1
        ? vscode.l10n.t('{0}: 1 pending event', fileName)
        : vscode.l10n.t('{0}: {1} pending events', fileName, events.length);
    this.item.text = `$(diff-added) ${count}`;
    const listed = events.map((e) => vscode.l10n.t('seq {0} {1} ({2})', e.seq, e.type, e.edit)).join('\n');
    this.item.tooltip = `${vscode.l10n.t('Not in the file yet — Save appends them:')}\n${listed}`;
    this.item.command = 'workbench.action.files.save';
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
