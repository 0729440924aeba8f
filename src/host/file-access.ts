// Reads session log bytes for the host through the one file adapter (src/files/file-access.ts): local
// files through Node where the platform has it (chunked, with progress; appends read from an offset
// without touching the prefix again), any other scheme — and every file in the browser — through
// vscode.workspace.fs, which reads whole files.
import * as vscode from 'vscode';
import type { FileAccess, FileStat, WholeFile } from '../files/file-access';
import { hostPlatform } from './platform';

export type { FileStat } from '../files/file-access';

/** vscode.workspace.fs as the file adapter (paths are URI strings); it cannot append in place. */
export const workspaceFiles: FileAccess = {
  async stat(path) {
    try {
      const st = await vscode.workspace.fs.stat(vscode.Uri.parse(path));
      return { size: st.size, mtimeMs: st.mtime };
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
      throw err;
    }
  },
  async readRange(path, start, end) {
    if (end <= start) return new Uint8Array(0);
    return (await vscode.workspace.fs.readFile(vscode.Uri.parse(path))).slice(start, end);
  },
  async readWhole(path, onProgress) {
    const uri = vscode.Uri.parse(path);
    const st = await vscode.workspace.fs.stat(uri);
    const bytes = await vscode.workspace.fs.readFile(uri);
    onProgress?.(1);
    return { bytes, stat: { size: st.size, mtimeMs: st.mtime } };
  },
};

/** The adapter for a URI and the path it takes. */
function adapterFor(uri: vscode.Uri): { files: FileAccess; path: string } {
  const local = uri.scheme === 'file' ? hostPlatform().local : undefined;
  return local ? { files: local.writes.files, path: uri.fsPath } : { files: workspaceFiles, path: uri.toString() };
}

/** undefined when the file does not exist (any other error is thrown). */
export function statFile(uri: vscode.Uri): Promise<FileStat | undefined> {
  const { files, path } = adapterFor(uri);
  return files.stat(path);
}

/** The whole file as it is now, with its stat when the read began. */
export function readFileWithStat(uri: vscode.Uri, onProgress?: (fraction: number) => void): Promise<WholeFile> {
  const { files, path } = adapterFor(uri);
  return files.readWhole(path, onProgress);
}

/**
 * The whole file as it is now. `onProgress(fraction)` is called after each chunk; awaiting between
 * chunks keeps the extension host responsive and lets the progress reach the UI.
 */
export async function readWholeFile(uri: vscode.Uri, onProgress?: (fraction: number) => void): Promise<Uint8Array> {
  return (await readFileWithStat(uri, onProgress)).bytes;
}

/** Bytes [start, end) of the file, or fewer if it is shorter now. */
export function readRange(uri: vscode.Uri, start: number, end: number): Promise<Uint8Array> {
  const { files, path } = adapterFor(uri);
  return files.readRange(path, start, end);
}
