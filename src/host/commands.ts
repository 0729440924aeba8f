// The commands users reach from the palette and the editor title bar. Each opens or reloads a session
// editor; none writes anything.
import * as vscode from 'vscode';
import { openInSessionEditor, type SessionEditorProvider } from './session-editor-provider';
import { decompressedUri, isZstdLogName } from './log-text';

export const COMMANDS = {
  openSession: 'sessionSurface.openSession',
  openInSessionEditor: 'sessionSurface.openInSessionEditor',
  showAsText: 'sessionSurface.showAsText',
  reload: 'sessionSurface.reload',
} as const;

const SESSION_FILE = /\.jsonl(\.zstd)?$/i;

export function registerCommands(context: vscode.ExtensionContext, provider: SessionEditorProvider): void {
  context.subscriptions.push(
    /** File picker, then the session editor. An explicit URI argument skips the picker. */
    vscode.commands.registerCommand(COMMANDS.openSession, async (uri?: vscode.Uri) => {
      const target =
        uri instanceof vscode.Uri
          ? uri
          : (
              await vscode.window.showOpenDialog({
                canSelectMany: false,
                canSelectFiles: true,
                canSelectFolders: false,
                openLabel: vscode.l10n.t('Open Session'),
                title: vscode.l10n.t('Open a dsh session log'),
                filters: { [vscode.l10n.t('Session logs')]: ['jsonl', 'zstd'], [vscode.l10n.t('All files')]: ['*'] },
                defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
              })
            )?.[0];
      if (target) await openInSessionEditor(target);
    }),

    /** Editor-title action: the file of the active (text) editor, or the one right-clicked. */
    vscode.commands.registerCommand(COMMANDS.openInSessionEditor, async (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      if (!target) return vscode.commands.executeCommand(COMMANDS.openSession);
      if (!SESSION_FILE.test(target.path)) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Session Surface opens dsh session logs (*.jsonl, *.jsonl.zstd).'));
        return;
      }
      await openInSessionEditor(target);
    }),

    vscode.commands.registerCommand(COMMANDS.showAsText, async (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : provider.activeDocument?.uri;
      if (!target) return;
      // A zstd log's own bytes are binary (and the session editor is its default editor): its text is the decompressed view.
      if (isZstdLogName(target)) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(decompressedUri(target)));
      else await vscode.commands.executeCommand('vscode.openWith', target, 'default');
    }),

    vscode.commands.registerCommand(COMMANDS.reload, async (uri?: vscode.Uri) => {
      const doc = uri instanceof vscode.Uri ? provider.documents.get(uri.toString()) : provider.activeDocument;
      await doc?.reload();
    }),
  );
}
