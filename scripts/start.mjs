// npm start: builds the extension, installs code-server once (cached in .e2e/, under a side-by-side
// Node 24), copies the sample sessions into a scratch workspace, starts code-server on 127.0.0.1 with
// the extension loaded from this working tree, and prints the URL. Ctrl+C stops it.
// Options: --port N (default 8740 or $PORT), --folder DIR (open DIR instead of the samples).
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';
import { writeSampleWorkspace } from './sample-workspace.mjs';

// On a fresh clone the npm packages come first: the helpers below import playwright-core and esbuild.
ensureDeps(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
const { ensureToolchain, CACHE, REPO } = await import('../e2e/toolchain.mjs');
const { startCodeServer } = await import('../e2e/code-server.mjs');
const { workbenchUrl } = await import('../e2e/workbench.mjs');

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const port = Number(arg('--port') ?? process.env.PORT ?? 8740);

if (spawnSync(process.execPath, [join(REPO, 'scripts', 'build.mjs')], { cwd: REPO, stdio: 'inherit' }).status !== 0) process.exit(1);
ensureToolchain({ browser: false });

let folder = arg('--folder') && resolve(arg('--folder'));
if (!folder) {
  // A copy, so appending to or truncating a sample while trying the editor never changes the repo; its
  // settings open a sample in the session editor from the first click and save logs only on Save.
  folder = join(CACHE, 'start', 'sample-sessions');
  writeSampleWorkspace(folder, join(REPO, 'test', 'fixtures', 'sessions'));
}

// VS Code in a browser auto-saves by default; the user settings keep that default (the tests turn it
// off), so the sample workspace's own settings are what keep its session logs for Save.
const server = await startCodeServer({
  runDir: join(CACHE, 'start', 'server'),
  port,
  workspace: folder,
  settings: { 'files.autoSave': 'afterDelay' },
});
const url = workbenchUrl({ origin: server.origin, folder, extensionPath: REPO });
console.log(`\ncode-server is running with Session Surface Studio loaded from ${REPO}.`);
console.log(`Open this URL in a browser on this machine (the title bar says [Extension Development Host]):\n\n  ${url}\n`);
console.log('A click on a sample in the Explorer opens it in the session editor. After changing the code, run');
console.log('`npm run build` and reload the browser tab. Ctrl+C stops code-server.');
console.log(`(server log: ${server.logFile})`);

const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {}, 1 << 30); // stay alive until a signal
