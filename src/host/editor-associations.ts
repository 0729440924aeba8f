// The "open dsh session logs in the session editor" setting. VS Code decides the default editor of a
// file from `workbench.editorAssociations`; instead of asking users to edit that JSON, the extension
// adds its entries when the setting is turned on and removes exactly its own entries when it is turned
// off, in the same settings scope (user or workspace) as the setting itself.
import * as vscode from 'vscode';
import { isSessionEditorViewType, SESSION_EDITOR_VIEW_TYPE } from './session-editor-provider';
import { affects, SECTION, SETTING } from './settings';

/**
 * The plain logs dsh writes (session.jsonl): the setting makes the session editor their default. A
 * zstd log (session.jsonl.zstd, session.v4.jsonl.zstd) has the session editor as its default already.
 */
export const SESSION_LOG_PATTERNS = ['**/session*.jsonl'] as const;
/** Written by earlier versions for zstd logs; removed as our own, since the contribution covers them now. */
const FORMER_PATTERNS = ['**/session*.jsonl.zstd'] as const;
const ASSOCIATIONS = 'workbench.editorAssociations';

type Associations = Record<string, string>;

function asObject(value: unknown): Associations {
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Associations) } : {};
}

/** Brings `workbench.editorAssociations` in line with the setting. Returns true when it wrote something. */
export async function syncEditorAssociations(): Promise<boolean> {
  const own = vscode.workspace.getConfiguration(SECTION).inspect<boolean>(SETTING.openLogsInSessionEditor);
  const workbench = vscode.workspace.getConfiguration();
  const targets: [vscode.ConfigurationTarget, boolean | undefined, unknown][] = [
    [vscode.ConfigurationTarget.Global, own?.globalValue, workbench.inspect(ASSOCIATIONS)?.globalValue],
    [vscode.ConfigurationTarget.Workspace, own?.workspaceValue, workbench.inspect(ASSOCIATIONS)?.workspaceValue],
  ];
  let wrote = false;
  for (const [target, enabled, current] of targets) {
    if (target === vscode.ConfigurationTarget.Workspace && !vscode.workspace.workspaceFolders?.length) continue;
    const next = asObject(current);
    let changed = false;
    for (const pattern of SESSION_LOG_PATTERNS) {
      if (enabled === true && next[pattern] !== SESSION_EDITOR_VIEW_TYPE) {
        next[pattern] = SESSION_EDITOR_VIEW_TYPE;
        changed = true;
      } else if (enabled !== true && next[pattern] === SESSION_EDITOR_VIEW_TYPE) {
        // Only our own entries are removed; an association the user pointed elsewhere stays.
        delete next[pattern];
        changed = true;
      }
    }
    for (const pattern of FORMER_PATTERNS) {
      if (next[pattern] !== undefined && isSessionEditorViewType(next[pattern])) {
        delete next[pattern];
        changed = true;
      }
    }
    if (!changed) continue;
    await workbench.update(ASSOCIATIONS, Object.keys(next).length ? next : undefined, target);
    wrote = true;
  }
  return wrote;
}

export function registerEditorAssociations(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affects(e, 'openLogsInSessionEditor')) void syncEditorAssociations();
    }),
  );
  void syncEditorAssociations();
}
