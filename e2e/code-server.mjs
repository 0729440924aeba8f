// Starts one code-server (a real VS Code 1.139 workbench and remote extension host) for a run, with
// every file it writes inside `runDir`, bound to 127.0.0.1 without auth, and stops it with its whole
// process group. The extension under development is not installed: the workbench URL loads it from
// the working tree (see workbench.mjs), which needs the smoke-test driver option.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CODE_SERVER_ENTRY, node24Path } from './toolchain.mjs';

const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'files.simpleDialog.enable': true,
  // VS Code in a browser saves dirty editors a second after each change by default; the desktop
  // default is off. The tests decide when a session's pending edits are saved.
  'files.autoSave': 'off',
  // Large sample logs must not trip the "are you sure" prompt of the text editor in tests.
  'workbench.editor.enablePreview': false,
};

/** Environment that keeps HOME, XDG and runtime files of a child process inside `dir`. */
export function isolatedEnv(dir) {
  const env = {
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'xdg', 'config'),
    XDG_DATA_HOME: join(dir, 'xdg', 'data'),
    XDG_CACHE_HOME: join(dir, 'xdg', 'cache'),
    XDG_RUNTIME_DIR: join(dir, 'xdg', 'run'),
  };
  for (const d of Object.values(env)) mkdirSync(d, { recursive: true });
  chmodSync(env.XDG_RUNTIME_DIR, 0o700);
  // The extension's test hooks (render and webview test reports) are on only in test mode.
  return { ...process.env, ...env, SESSION_SURFACE_TEST_MODE: '1' };
}

/**
 * @param {{ runDir: string, port: number, workspace: string, trusted?: boolean, settings?: object, args?: string[], extensions?: string[], userDataFiles?: Record<string, string> }} options
 * `trusted: false` turns workspace trust on, so the workspace opens in Restricted Mode.
 */
export async function startCodeServer({
  runDir,
  port,
  workspace,
  trusted = true,
  settings = {},
  args: extraArgs = [],
  extensions = [],
  userDataFiles = {},
}) {
  const userData = join(runDir, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(join(runDir, 'extensions'), { recursive: true });
  // Files placed in the user-data folder before the server starts (e.g. languagepacks.json).
  for (const [name, text] of Object.entries(userDataFiles)) writeFileSync(join(userData, name), text);
  // Extensions installed before the server starts (folders named publisher.name-version).
  for (const folder of extensions) cpSync(folder, join(runDir, 'extensions', basename(folder)), { recursive: true });
  const trustSettings = trusted
    ? { 'security.workspace.trust.enabled': false }
    : {
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.banner': 'always',
      };
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...trustSettings, ...settings }, null, 1));
  const config = join(runDir, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const logFile = join(runDir, 'code-server.log');
  const log = openSync(logFile, 'w');
  const args = [
    CODE_SERVER_ENTRY,
    '--config',
    config,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--user-data-dir',
    userData,
    '--extensions-dir',
    join(runDir, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    // Each page load starts an extension host; do not keep old ones alive for hours.
    '--reconnection-grace-time',
    '20',
    // Lets the workbench URL carry extensionDevelopmentPath / extensionTestsPath.
    '--vscode-option',
    'enable-smoke-test-driver',
    ...(trusted ? ['--disable-workspace-trust'] : []),
    ...extraArgs,
    workspace,
  ];
  // detached: the server becomes a process-group leader, so stop() ends it and all its children.
  const child = spawn(node24Path(), args, { env: isolatedEnv(runDir), stdio: ['ignore', log, log], detached: true });
  const origin = `http://127.0.0.1:${port}`;
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited early; see ${logFile}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer on ${origin}; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  async function stop() {
    if (exited) return;
    const group = -child.pid;
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      return;
    }
    for (let i = 0; i < 50 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
    if (!exited)
      try {
        process.kill(group, 'SIGKILL');
      } catch {
        /* gone */
      }
  }
  return { origin, pid: child.pid, logFile, userData, stop };
}
