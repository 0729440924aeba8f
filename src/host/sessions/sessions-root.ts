// Where dsh writes session logs: the `sessionSurface.sessionsFolder` setting, else `$DSH_HOME/sessions`,
// else `~/.dsh/sessions` (the shipped bundle's default; spec §1.1). `~` at the start of the setting
// means the home folder. Read through vscode.workspace.fs, so any file system VS Code has works.
import * as vscode from 'vscode';
import type { CatalogFs } from '../../core/internal';
import { readRange } from '../file-access';
import { sessionsFolderSetting } from '../settings';

function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value && value.trim() ? value : undefined;
}

const home = () => environment('HOME') ?? environment('USERPROFILE');

export interface SessionsRoot {
  uri: vscode.Uri | undefined;
  /** How the folder was chosen, for the welcome view and the log. */
  source: 'setting' | 'DSH_HOME' | 'home' | 'none';
}

export function sessionsRoot(): SessionsRoot {
  const setting = sessionsFolderSetting();
  if (setting) {
    if (/^[a-z][a-z0-9+.-]+:\/\//i.test(setting)) return { uri: vscode.Uri.parse(setting), source: 'setting' };
    const h = home();
    const expanded = setting === '~' || setting.startsWith('~/') ? (h ? h + setting.slice(1) : undefined) : setting;
    return { uri: expanded ? vscode.Uri.file(expanded) : undefined, source: 'setting' };
  }
  const dshHome = environment('DSH_HOME');
  if (dshHome) return { uri: vscode.Uri.joinPath(vscode.Uri.file(dshHome), 'sessions'), source: 'DSH_HOME' };
  const h = home();
  return h ? { uri: vscode.Uri.joinPath(vscode.Uri.file(h), '.dsh', 'sessions'), source: 'home' } : { uri: undefined, source: 'none' };
}

export async function folderExists(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}

/** The catalogue's file access over VS Code's file system API (ranges of local files through fileAccess). */
export const workspaceCatalogFs: CatalogFs<vscode.Uri> = {
  async list(dir) {
    try {
      return (await vscode.workspace.fs.readDirectory(dir)).map(([name, type]) => ({
        name,
        isDirectory: (type & vscode.FileType.Directory) !== 0,
      }));
    } catch {
      return [];
    }
  },
  async stat(file) {
    try {
      const s = await vscode.workspace.fs.stat(file);
      return { size: s.size, mtimeMs: s.mtime };
    } catch {
      return undefined;
    }
  },
  read: (file, start, end) => readRange(file, start, end),
  child: (dir, name) => vscode.Uri.joinPath(dir, name),
};
