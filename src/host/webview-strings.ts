// The strings notification for session webviews: every webview string in VS Code's display language.
import * as vscode from 'vscode';
import type { StringsMessage } from '../protocol/messages';
import { WEBVIEW_STRINGS } from '../protocol/webview-strings';

/** VS Code's display language as a BCP 47 tag for `lang` attributes and Intl formatting. */
export function displayLanguage(): string {
  return vscode.env.language || 'en';
}

export function webviewStrings(): StringsMessage {
  const strings: Record<string, string> = {};
  for (const english of WEBVIEW_STRINGS) strings[english] = vscode.l10n.t(english);
  return { type: 'strings', language: displayLanguage(), strings };
}
