// The webview's user-visible strings, in English. The host translates each through VS Code's l10n
// (l10n/bundle.l10n.*.json) and sends the table in a `strings` notification; the webview looks its
// words up there (`localize`) and falls back to the English. scripts/l10n-bundle.mjs reads this list
// so that the bundles carry these strings too. Placeholders are {0}, {1}… as in vscode.l10n.t.
export const WEBVIEW_STRINGS = [
  'Agent preset',
  'As written in line 1. dsh does not accept this line as a session header (see the verdict).',
  'Closers dsh would add',
  'Committed bytes',
  'Counts',
  'Created',
  'Delegation depth',
  'dsh opens this log',
  'dsh refuses this log',
  'Error class',
  'Event seq',
  'Events',
  'Every turn is closed',
  'Every turn is closed; following appends',
  'File size read',
  'Following the file stopped',
  'Format version',
  'Header',
  'Inherited from the parent session (seed)',
  'Last append folded',
  'Line',
  'Loading the session log',
  'No problems found.',
  'No readable header',
  'Open parent session',
  'Origin',
  'Packed chunk rows',
  'Parent session',
  'Problems',
  'Read in',
  'Read-only: the editor never writes the log',
  'Reload from disk',
  'Restricted Mode: read-only — this workspace is not trusted, so the editor only reads the log',
  'Rule',
  'Seed length',
  'Session {0}',
  'Session id',
  'Stage',
  'The file was deleted',
  'The file was rewritten',
  'The file was truncated',
  'The first line is not a readable session header.',
  'Turns',
  'Verdict',
  'Working directory',
] as const;

export type WebviewString = (typeof WEBVIEW_STRINGS)[number];

/** The translation of `english` from a strings table, with {0}, {1}… filled in. */
export function localize(table: Record<string, string> | undefined, english: string, ...args: (string | number)[]): string {
  const template = table?.[english] ?? english;
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : whole));
}
