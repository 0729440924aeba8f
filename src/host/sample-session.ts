// The walkthrough's sample session: a small log shipped with the extension (media/walkthrough/), opened
// in the session editor. It is read-only like every log the editor shows.
import * as vscode from 'vscode';
import { openInSessionEditor } from './session-editor-provider';

export const OPEN_SAMPLE_COMMAND = 'sessionSurface.openSampleSession';

export function registerSampleSession(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_SAMPLE_COMMAND, () => {
      const sample = vscode.Uri.joinPath(context.extensionUri, 'media', 'walkthrough', 'sample-session.jsonl');
      return openInSessionEditor(sample);
    }),
  );
}
