// Auto-save and session logs. VS Code in a browser saves a changed editor a second after each change
// unless told otherwise, and a session editor's pending edit is an append to an append-only log: it
// must not be written because a timer ran out while the user believes "nothing is written until you
// save". Before an edit is applied, its confirmation says when auto-save would write it, and offers in
// one click to keep session editors for an explicit Save.
//
// What VS Code's auto-save reads for a custom editor: its document is saved through a working copy
// whose resource is not the file but a `vscode-custom-editor:` URI, so neither a language-specific
// setting ("[jsonl]") nor a folder's setting reaches it; the window's `files.autoSave` does, and
// `files.autoSaveWorkspaceFilesOnly` keeps auto-save from every resource outside the workspace's
// folders, which that URI always is. That setting is the one-click answer: workspace files keep being
// auto-saved, session editors (and files opened from outside the workspace) are saved on Save.
import * as vscode from 'vscode';

export interface AutoSave {
  mode: 'afterDelay' | 'onFocusChange' | 'onWindowChange';
  delayMs: number;
}

const WORKSPACE_FILES_ONLY = 'autoSaveWorkspaceFilesOnly';

/** How VS Code would save a session editor's document without being asked, or undefined when only Save writes it. */
export function sessionEditorAutoSave(): AutoSave | undefined {
  const files = vscode.workspace.getConfiguration('files');
  const mode = files.get<string>('autoSave');
  if (mode !== 'afterDelay' && mode !== 'onFocusChange' && mode !== 'onWindowChange') return undefined;
  if (files.get<boolean>(WORKSPACE_FILES_ONLY) === true) return undefined;
  const delay = files.get<number>('autoSaveDelay');
  return { mode, delayMs: typeof delay === 'number' && delay >= 0 ? delay : 1000 };
}

/**
 * Keeps session editors for an explicit Save: `files.autoSaveWorkspaceFilesOnly` in the user settings,
 * and in the workspace's too where the workspace turns it off itself (its value would win).
 */
export async function saveSessionLogsOnlyOnSave(): Promise<void> {
  const files = vscode.workspace.getConfiguration('files');
  await files.update(WORKSPACE_FILES_ONLY, true, vscode.ConfigurationTarget.Global);
  if (files.inspect<boolean>(WORKSPACE_FILES_ONLY)?.workspaceValue === false)
    await files.update(WORKSPACE_FILES_ONLY, true, vscode.ConfigurationTarget.Workspace);
}

/** The one-click answer: session editors saved only on Save, then the edit is applied. */
export function keepForSaveLabel(): string {
  return vscode.l10n.t('Save only when I say so for session logs');
}

/** When a pending edit reaches the file: at Save, or (in words) when auto-save will write it. */
export function whenWritten(auto: AutoSave | undefined): string {
  if (!auto) return vscode.l10n.t('Nothing is written until you save.');
  const when =
    auto.mode === 'afterDelay'
      ? vscode.l10n.t('{0} ms after the edit', auto.delayMs)
      : auto.mode === 'onFocusChange'
        ? vscode.l10n.t('as soon as the session editor loses the focus')
        : vscode.l10n.t('as soon as the window loses the focus');
  return vscode.l10n.t(
    'Auto-save is on (files.autoSave: {0}): VS Code will save this log by itself {1}, which appends these lines to the file without a Save. "{2}" applies the edit and turns on files.autoSaveWorkspaceFilesOnly: the files of your workspace are still saved automatically, a session log only when you save it (and so is a file opened from outside the workspace).',
    auto.mode,
    when,
    keepForSaveLabel(),
  );
}

export interface EditConfirmation {
  message: string;
  /** What the edit does; the sentence on when it is written follows it. */
  detail: string;
  /** The button that applies the edit. */
  confirm: string;
  warning?: boolean;
}

/**
 * Asks before a pending edit is applied to a session document; true to apply it. Where auto-save would
 * write the edit by itself, the question says so and offers to keep session logs for Save.
 */
export async function confirmPendingEdit(ask: EditConfirmation): Promise<boolean> {
  const auto = sessionEditorAutoSave();
  const show = ask.warning || auto ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const detail = `${ask.detail}\n\n${whenWritten(auto)}`;
  if (!auto) return (await show(ask.message, { modal: true, detail }, ask.confirm)) === ask.confirm;
  const keep = keepForSaveLabel();
  const choice = await show(ask.message, { modal: true, detail }, keep, ask.confirm);
  if (choice !== keep) return choice === ask.confirm;
  await saveSessionLogsOnlyOnSave();
  return true;
}
