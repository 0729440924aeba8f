// The presentation layer's words in VS Code's display language: numbers and dates formatted for it,
// and every message of src/present translated through the extension's l10n bundles (the same
// bundles as the host's own strings; scripts/l10n-bundle.mjs collects both).
import * as vscode from 'vscode';
import { coreText, Formatter, type Translate } from '../present';
import type { Words } from '../core';
import { displayLanguage } from './webview-strings';

/** vscode.l10n.t as the presentation layer's translator. */
export const translate: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

let shared: Formatter | undefined;

/** The formatter of VS Code's display language (which cannot change while the extension runs). */
export function hostFormatter(): Formatter {
  return (shared ??= new Formatter({ locale: displayLanguage(), translate }));
}

/** "Another writer appended 1 event (412 bytes)": what an agent wrote while the user was reviewing. */
export function appendedByAnotherWriter(events: number, bytes: number): string {
  const fmt = hostFormatter();
  return fmt.counted(
    events,
    'Another writer appended {0} event ({1} bytes)',
    'Another writer appended {0} events ({1} bytes)',
    fmt.count(bytes),
  );
}

/** A core message (a refusal reason, a note, a health entry) in the display language. */
export function displayText(said: { message: string; words?: Words }): string {
  return coreText(said, hostFormatter());
}
