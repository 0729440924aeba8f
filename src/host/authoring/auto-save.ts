// Auto-save and session logs. VS Code in a browser saves a changed editor a second after each change
// unless told otherwise, and a session editor's pending edit is an append to an append-only log: it
// must not be written because a timer ran out while the user still believes "nothing is written until
// you save". VS Code decides auto-save per file from `files.autoSave` as the file's language sees it,
// so before an edit is applied its confirmation says when auto-save would write it, and offers, in one
// click, to turn auto-save off for session logs: `"[jsonl]"` and `"[dsh-session-zstd]"` (the language
// this extension gives .jsonl.zstd logs), where it decides for them.
import * as vscode from 'vscode';
import { isZstdLogName } from '../log-text';

/** The language a .jsonl.zstd log has in VS Code (contributed in package.json for this setting). */
export const ZSTD_SESSION_LANGUAGE = 'dsh-session-zstd';
/** VS Code's JSON Lines language, which plain .jsonl logs have. */
export const JSONL_LANGUAGE = 'jsonl';
const SESSION_LOG_LANGUAGES = [JSONL_LANGUAGE, ZSTD_SESSION_LANGUAGE] as const;

export interface AutoSave {
  mode: 'afterDelay' | 'onFocusChange' | 'onWindowChange';
  delayMs: number;
}

const languageOf = (uri: vscode.Uri): string => (isZstdLogName(uri) ? ZSTD_SESSION_LANGUAGE : JSONL_LANGUAGE);

/** How VS Code would save the log of `uri` without being asked, or undefined when only Save writes it. */
export function autoSaveOf(uri: vscode.Uri): AutoSave | undefined {
  const files = vscode.workspace.getConfiguration('files', { uri, languageId: languageOf(uri) });
  const mode = files.get<string>('autoSave');
  if (mode !== 'afterDelay' && mode !== 'onFocusChange' && mode !== 'onWindowChange') return undefined;
  if (files.get<boolean>('autoSaveWorkspaceFilesOnly') === true && !vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  const delay = files.get<number>('autoSaveDelay');
  return { mode, delayMs: typeof delay === 'number' && delay >= 0 ? delay : 1000 };
}

/**
 * Turns auto-save off for session logs: in the user settings, and in the workspace's (or its folder's)
 * where they set it for a session log's language themselves, as a more specific setting wins there.
 * True when `uri` is no longer auto-saved.
 */
export async function saveSessionLogsOnlyOnSave(uri: vscode.Uri): Promise<boolean> {
  for (const languageId of SESSION_LOG_LANGUAGES) {
    const files = vscode.workspace.getConfiguration('files', { uri, languageId });
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global, true);
    const set = files.inspect<string>('autoSave');
    if (set?.workspaceLanguageValue !== undefined && set.workspaceLanguageValue !== 'off')
      await files.update('autoSave', 'off', vscode.ConfigurationTarget.Workspace, true);
    if (set?.workspaceFolderLanguageValue !== undefined && set.workspaceFolderLanguageValue !== 'off')
      await files.update('autoSave', 'off', vscode.ConfigurationTarget.WorkspaceFolder, true);
  }
  return autoSaveOf(uri) === undefined;
}

/** The one-click answer: auto-save off for session logs, then the edit is applied. */
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
    'Auto-save is on for this log (files.autoSave: {0}): VS Code will save it by itself {1}, which appends these lines to the file without a Save. "{2}" turns auto-save off for session logs (.jsonl and .jsonl.zstd files) and applies the edit, so that it is written only when you save.',
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
 * Asks before a pending edit is applied to the document of `uri`; true to apply it. Where auto-save
 * would write the edit by itself, the question says so and offers to keep session logs for Save.
 */
export async function confirmPendingEdit(uri: vscode.Uri, ask: EditConfirmation): Promise<boolean> {
  const auto = autoSaveOf(uri);
  const show = ask.warning || auto ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const detail = `${ask.detail}\n\n${whenWritten(auto)}`;
  if (!auto) return (await show(ask.message, { modal: true, detail }, ask.confirm)) === ask.confirm;
  const keep = keepForSaveLabel();
  const choice = await show(ask.message, { modal: true, detail }, keep, ask.confirm);
  if (choice !== keep) return choice === ask.confirm;
  if (!(await saveSessionLogsOnlyOnSave(uri)))
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Auto-save is still on for {0}: a setting of this folder turns it on. The edit is applied; it is written when VS Code saves the file.',
        uri.path.split('/').pop() ?? uri.path,
      ),
    );
  return true;
}
