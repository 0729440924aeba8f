// The webview's words in VS Code's display language: the host sends the translated strings table
// (src/protocol/webview-strings.ts) and the page looks each English string up here, falling back to
// the English when the table has not arrived or lacks it.
import { localize, type WebviewString } from '../../src/protocol/webview-strings';

let table: Record<string, string> | undefined;

export function setStrings(strings: Record<string, string>, language: string): void {
  table = strings;
  if (/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(language)) document.documentElement.lang = language;
}

/** The translation of a string of the table, with {0}, {1}… filled in. */
export function t(english: WebviewString, ...args: (string | number)[]): string {
  return localize(table, english, ...args);
}

/**
 * A label the host worded in English (header fields, counts, the live state): its translation when
 * the table has one, otherwise as sent.
 */
export function label(english: string): string {
  return localize(table, english);
}
