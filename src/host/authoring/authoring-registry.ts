// One SessionAuthoring per open session document, and the custom-editor duties that go with editing:
// the edit events VS Code's undo stack and dirty state listen to, save, revert and hot-exit backups.
import * as vscode from 'vscode';
import type { SessionDocument } from '../session-document';
import { SessionAuthoring } from './session-authoring';

export const RESTRICTED_MODE_EXPLANATION = 'Authoring is off in Restricted Mode: editing a session appends to its log file, '
  + 'which needs a trusted workspace. Trust the workspace (Manage Workspace Trust) to compact or prune; viewing works as before.';

export class AuthoringRegistry implements vscode.Disposable {
  private readonly byDocument = new Map<SessionDocument, SessionAuthoring>();
  private readonly edited = new vscode.EventEmitter<vscode.CustomDocumentEditEvent<SessionDocument>>();
  /** VS Code's custom editor listens here: each event makes the document dirty and adds an undo entry. */
  readonly onDidChangeCustomDocument = this.edited.event;

  /** The authoring state of a document (created with it). */
  for(document: SessionDocument): SessionAuthoring {
    let authoring = this.byDocument.get(document);
    if (!authoring) {
      authoring = new SessionAuthoring(document, (e) => this.edited.fire(e));
      this.byDocument.set(document, authoring);
      document.onDidDispose(() => {
        this.byDocument.get(document)?.dispose();
        this.byDocument.delete(document);
      });
    }
    return authoring;
  }

  /** A document opened from a hot-exit backup: its pending edits come back once it has loaded. */
  restoreWhenLoaded(document: SessionDocument, backupId: string): void {
    void document.whenLoaded.then(async () => {
      const problem = await this.for(document).restore(backupId);
      if (problem) void vscode.window.showWarningMessage(`${document.fileName}: unsaved edits were restored, but ${problem}`);
    });
  }

  async save(document: SessionDocument): Promise<void> {
    if (!vscode.workspace.isTrusted) throw new Error(RESTRICTED_MODE_EXPLANATION);
    await this.for(document).save();
  }

  saveAs(document: SessionDocument): Promise<void> {
    return Promise.reject(new Error(`${document.fileName}: Save As is not offered for session logs. A log is saved by appending its pending `
      + 'edits to the same file; copy the file first to keep the original, then edit the copy.'));
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
  }
}
