// The strings table of session webviews: every webview string in VS Code's display language.
import * as vscode from 'vscode';
import { WEBVIEW_STRINGS, type StringsTable } from '../protocol';

/** VS Code's display language as a BCP 47 tag for `lang` attributes and Intl formatting. */
export function displayLanguage(): string {
  return vscode.env.language || 'en';
}

export function webviewStrings(): StringsTable {
  const strings: Record<string, string> = {};
  for (const english of WEBVIEW_STRINGS) strings[english] = vscode.l10n.t(english);
  return { language: displayLanguage(), strings };
}
