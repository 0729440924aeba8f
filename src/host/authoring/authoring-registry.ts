// One SessionAuthoring per open session document, and the custom-editor duties that go with editing:
// the edit events VS Code's undo stack and dirty state listen to, save, revert and hot-exit backups.
import * as vscode from 'vscode';
import type { SessionDocument } from '../session-document';
import { SessionAuthoring } from './session-authoring';

/** Why authoring is off in an untrusted workspace (a function: the words follow VS Code's display language). */
export function restrictedModeExplanation(): string {
  return vscode.l10n.t(
    'Authoring is off in Restricted Mode: editing a session appends to its log file, which needs a trusted workspace. Trust the workspace (Manage Workspace Trust) to compact or prune; viewing works as before.',
  );
}

export class AuthoringRegistry implements vscode.Disposable {
  private readonly byDocument = new Map<SessionDocument, SessionAuthoring>();
  private readonly edited = new vscode.EventEmitter<vscode.CustomDocumentEditEvent<SessionDocument>>();
  /** VS Code's custom editor listens here: each event makes the document dirty and adds an undo entry. */
  readonly onDidChangeCustomDocument = this.edited.event;
  /** Says that pending events exist and are not in the file yet (the timeline draws the log as saved). */
  private readonly status = vscode.window.createStatusBarItem('sessionSurface.pendingEdits', vscode.StatusBarAlignment.Left, 50);

  /** The authoring state of a document (created with it). */
  for(document: SessionDocument): SessionAuthoring {
    let authoring = this.byDocument.get(document);
    if (!authoring) {
      const created = new SessionAuthoring(document, (e) => this.edited.fire(e));
      authoring = created;
      this.byDocument.set(document, created);
      created.onDidChangePending(() => this.showPending(document, created));
      document.onDidDispose(() => {
        this.byDocument.get(document)?.dispose();
        this.byDocument.delete(document);
      });
    }
    return authoring;
  }

  private showPending(document: SessionDocument, authoring: SessionAuthoring): void {
    const events = authoring.pendingEvents;
    if (events.length === 0) {
      this.status.hide();
      return;
    }
    this.status.name = vscode.l10n.t('Session Surface: pending edits');
    const count =
      events.length === 1
        ? vscode.l10n.t('{0}: 1 pending event', document.fileName)
        : vscode.l10n.t('{0}: {1} pending events', document.fileName, events.length);
    this.status.text = `$(diff-added) ${count}`;
    const listed = events.map((e) => vscode.l10n.t('seq {0} {1} ({2})', e.seq, e.type, e.edit)).join('\n');
    this.status.tooltip = `${vscode.l10n.t('Not in the file yet — Save appends them:')}\n${listed}`;
    this.status.command = 'workbench.action.files.save';
    this.status.show();
  }

  /** A document opened from a hot-exit backup: its pending edits come back once it has loaded. */
  restoreWhenLoaded(document: SessionDocument, backupId: string): void {
    void document.whenLoaded.then(async () => {
      const problem = await this.for(document).restore(backupId);
      if (problem)
        void vscode.window.showWarningMessage(vscode.l10n.t('{0}: unsaved edits were restored, but {1}', document.fileName, problem));
    });
  }

  async save(document: SessionDocument): Promise<void> {
    if (!vscode.workspace.isTrusted) throw new Error(restrictedModeExplanation());
    await this.for(document).save();
  }

  saveAs(document: SessionDocument): Promise<void> {
    return Promise.reject(
      new Error(
        vscode.l10n.t(
          '{0}: Save As is not offered for session logs. A log is saved by appending its pending edits to the same file; copy the file first to keep the original, then edit the copy.',
          document.fileName,
        ),
      ),
    );
  }

  revert(document: SessionDocument): Promise<void> {
    return this.for(document).revert();
  }

  backup(document: SessionDocument, context: vscode.CustomDocumentBackupContext): Promise<vscode.CustomDocumentBackup> {
    return this.for(document).backup(context.destination);
  }

  dispose(): void {
    for (const authoring of this.byDocument.values()) authoring.dispose();
    this.byDocument.clear();
    this.edited.dispose();
    this.status.dispose();
  }
}
