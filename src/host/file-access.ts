// Reads session log bytes from disk. Local files go through node:fs so that large logs are read in
// chunks (with progress) and appends are read from an offset without touching the prefix again;
// other schemes (virtual file systems) fall back to vscode.workspace.fs, which reads whole files.
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';

const CHUNK = 4 * 1024 * 1024;

export interface FileStat {
  size: number;
  mtimeMs: number;
}

const isLocal = (uri: vscode.Uri) => uri.scheme === 'file';

/** undefined when the file does not exist (any other error is thrown). */
export async function statFile(uri: vscode.Uri): Promise<FileStat | undefined> {
  try {
    if (isLocal(uri)) {
      const st = await fs.stat(uri.fsPath);
      return { size: st.size, mtimeMs: st.mtimeMs };
    }
    const st = await vscode.workspace.fs.stat(uri);
    return { size: st.size, mtimeMs: st.mtime };
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function isNotFound(err: unknown): boolean {
  if (err instanceof vscode.FileSystemError) return err.code === 'FileNotFound';
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * The whole file as it is now. `onProgress(fraction)` is called after each chunk; awaiting between
 * chunks keeps the extension host responsive and lets the progress reach the UI.
 */
export async function readWholeFile(uri: vscode.Uri, onProgress?: (fraction: number) => void): Promise<Uint8Array> {
  if (!isLocal(uri)) {
    const bytes = await vscode.workspace.fs.readFile(uri);
    onProgress?.(1);
    return bytes;
  }
  const handle = await fs.open(uri.fsPath, 'r');
  try {
    const { size } = await handle.stat();
    const out = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(out, filled, Math.min(CHUNK, size - filled), filled);
      if (bytesRead === 0) break; // the file shrank while we read it: keep what is there
      filled += bytesRead;
      onProgress?.(filled / size);
    }
    return filled === size ? out : out.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** Bytes [start, end) of the file, or fewer if it is shorter now. */
export async function readRange(uri: vscode.Uri, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return new Uint8Array(0);
  if (!isLocal(uri)) return (await vscode.workspace.fs.readFile(uri)).slice(start, end);
  const handle = await fs.open(uri.fsPath, 'r');
  try {
    const out = new Uint8Array(end - start);
    let filled = 0;
    while (filled < out.length) {
      const { bytesRead } = await handle.read(out, filled, out.length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === out.length ? out : out.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
