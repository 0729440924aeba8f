// A read-only text view of a session log at a 1-based line. A plain log opens as itself; a
// `.jsonl.zstd` log opens as its decompressed text through a virtual document (scheme below), so
// "Reveal in Text Editor", diagnostics rows and the Problems panel land on the right line instead of
// on the compressed binary at line 1. Nothing is ever written.
import * as vscode from 'vscode';
import { isZstd, decodeZstdLog } from '../core/internal';
import { hostPlatform } from './platform';
import { readWholeFile } from './file-access';

export const DECOMPRESSED_SCHEME = 'session-surface-text';

/** Whether a log's name says it is zstd-compressed (`session.jsonl.zstd`). */
export function isZstdLogName(log: vscode.Uri): boolean {
  return /\.zstd$/i.test(log.path);
}

/** The virtual document of a zstd log's decompressed text (its path ends in .jsonl, for highlighting). */
export function decompressedUri(log: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({
    scheme: DECOMPRESSED_SCHEME,
    path: isZstdLogName(log) ? log.path.replace(/\.zstd$/i, '') : `${log.path}.jsonl`,
    query: log.toString(),
  });
}

/** The log file a virtual decompressed document shows. */
export function logOfDecompressed(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.parse(uri.query, true);
}

export class DecompressedLogProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  static register(context: vscode.ExtensionContext): DecompressedLogProvider {
    const provider = new DecompressedLogProvider();
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(DECOMPRESSED_SCHEME, provider), provider);
    return provider;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const bytes = await readWholeFile(logOfDecompressed(uri));
    const text = isZstd(bytes) ? decodeZstdLog(bytes, { codec: hostPlatform().zstdCodec }).text : bytes;
    return new TextDecoder().decode(text);
  }

  /** The log grew: an open decompressed view reads it again. */
  refresh(log: vscode.Uri): void {
    this.changed.fire(decompressedUri(log));
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Where a log's text is shown: the file itself, or its decompressed view for a zstd log. */
export function textUriOf(log: vscode.Uri, compressed: boolean): vscode.Uri {
  return compressed ? decompressedUri(log) : log;
}

/** Opens the log as text beside the session editor, at a 1-based line. */
export async function revealLineInTextEditor(log: vscode.Uri, line: number, compressed: boolean): Promise<boolean> {
  const position = new vscode.Position(Math.max(0, line - 1), 0);
  const options: vscode.TextDocumentShowOptions = {
    viewColumn: vscode.ViewColumn.Beside,
    selection: new vscode.Range(position, position),
    preserveFocus: false,
  };
  if (compressed) {
    const document = await vscode.workspace.openTextDocument(decompressedUri(log));
    await vscode.window.showTextDocument(document, options);
    return true;
  }
  try {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(log), options);
  } catch {
    // Files beyond the text editor's sync limit: the default editor asks the user whether to open them.
    await vscode.commands.executeCommand('vscode.openWith', log, 'default', options);
  }
  return true;
}
