// A minimal VS Code language pack for a locale, written for a test run. The real packs come from the
// marketplace, which the test machines cannot reach; VS Code only switches its display language to a
// locale that some installed pack declares. This pack declares zh-cn with no translations of VS Code's
// own strings (the workbench stays in English), which is enough for VS Code to load this extension's
// package.nls.zh-cn.json and l10n/bundle.l10n.zh-cn.json — the strings under test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export function writeLanguagePack(
  parent,
  { languageId = 'zh-cn', languageName = 'Chinese Simplified', localizedName = '中文(简体)' } = {},
) {
  const folder = join(parent, `session-surface-tests.language-pack-${languageId}-1.0.0`);
  mkdirSync(join(folder, 'translations'), { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify(
      {
        name: `language-pack-${languageId}`,
        publisher: 'session-surface-tests',
        version: '1.0.0',
        displayName: `Test language pack (${languageId})`,
        engines: { vscode: '*' },
        categories: ['Language Packs'],
        contributes: {
          localizations: [
            {
              languageId,
              languageName,
              localizedLanguageName: localizedName,
              translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
            },
          ],
        },
      },
      null,
      1,
    ),
  );
  writeFileSync(join(folder, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  return folder;
}

/**
 * The server's registry of installed language packs (user-data/languagepacks.json). VS Code writes it
 * when a pack is installed through its UI; a pack copied into the extensions folder needs it written.
 */
export function languagePacksJson(installedFolder, { languageId = 'zh-cn', label = '中文(简体)' } = {}) {
  const id = basename(installedFolder).replace(/-\d+\.\d+\.\d+$/, '');
  return JSON.stringify({
    [languageId]: {
      hash: `test-${languageId}-1`,
      extensions: [{ extensionIdentifier: { id }, version: '1.0.0' }],
      translations: { vscode: join(installedFolder, 'translations', 'main.i18n.json') },
      label,
    },
  });
}
