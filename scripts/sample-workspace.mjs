// The sample workspace `npm start` opens: copies of the sample sessions and the workspace settings that
// make it behave as a user of the extension would want from the first click, before the extension has
// even started:
//   - a click on a sample opens it in the session editor (VS Code's own editor association, so it holds
//     before activation, and the extension's setting that keeps that association);
//   - session logs are saved only when the user saves: VS Code in a browser auto-saves a changed editor
//     by default, and a pending edit of a session log is an append to an append-only file. VS Code's
//     auto-save reaches a session editor through a resource outside every workspace folder, so
//     `files.autoSaveWorkspaceFilesOnly` keeps it for Save (see src/host/authoring/auto-save.ts).
// The end-to-end tests build their sample workspace with the same function.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The settings of the sample workspace (.vscode/settings.json). */
export function sampleWorkspaceSettings() {
  return {
    'sessionSurface.openLogsInSessionEditor': true,
    'workbench.editorAssociations': { '**/session*.jsonl': 'sessionSurface.sessionEditor' },
    'files.autoSaveWorkspaceFilesOnly': true,
  };
}

/**
 * Copies the sample sessions of `samples` into `folder` and writes its settings. Settings already
 * there are kept as the user left them; only the key that keeps session logs from being auto-saved is
 * added when it is missing.
 */
export function writeSampleWorkspace(folder, samples) {
  mkdirSync(folder, { recursive: true });
  for (const f of readdirSync(samples).filter((n) => /\.jsonl(\.zstd)?$/.test(n))) cpSync(join(samples, f), join(folder, f));
  const file = join(folder, '.vscode', 'settings.json');
  const wanted = sampleWorkspaceSettings();
  let settings;
  if (existsSync(file)) {
    try {
      settings = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return; // a settings file with comments or an edit in progress is the user's: leave it
    }
    if (settings['files.autoSaveWorkspaceFilesOnly'] !== undefined) return;
    settings['files.autoSaveWorkspaceFilesOnly'] = wanted['files.autoSaveWorkspaceFilesOnly'];
  } else settings = wanted;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
}
