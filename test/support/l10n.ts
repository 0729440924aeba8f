// A Formatter that translates as the host does (vscode.l10n.t looks the English up in
// l10n/bundle.l10n.<language>.json and falls back to it), for tests outside VS Code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillTemplate, Formatter } from '../../src/present';
import { repoRoot } from './paths';

export function bundle(language: string): Record<string, string> {
  return JSON.parse(readFileSync(join(repoRoot(), 'l10n', `bundle.l10n.${language}.json`), 'utf8')) as Record<string, string>;
}

/** The formatter of a display language, with its words from that language's bundle. */
export function bundleFormatter(language: string, timeZone = 'UTC'): Formatter {
  const words = bundle(language);
  return new Formatter({ locale: language, timeZone, translate: (message, ...args) => fillTemplate(words[message] ?? message, args) });
}
