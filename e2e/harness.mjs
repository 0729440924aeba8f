// What every end-to-end test file shares: where things go, one code-server per test file with its own
// workspace, a browser, screenshots, and access to the read-only ../shared corpus.
import { cpSync, existsSync, mkdirSync, rmSync, utimesSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, basename, resolve } from 'node:path';
import { startCodeServer, isolatedEnv } from './code-server.mjs';
import { CACHE, REPO } from './toolchain.mjs';
import { launchBrowser, openWorkbench, workbenchUrl } from './workbench.mjs';

export const RUN_DIR = process.env.SESSION_SURFACE_E2E_RUN || join(CACHE, 'run');
export const ARTIFACTS = process.env.SESSION_SURFACE_E2E_ARTIFACTS || join(REPO, 'test-artifacts', 'e2e');
export const SHARED = process.env.SHARED_DIR ? resolve(REPO, process.env.SHARED_DIR) : join(REPO, '..', 'shared');
export const SAMPLES = join(REPO, 'test', 'fixtures', 'sessions');

/**
 * A file of the ../shared corpus. Those tests must run whenever ../shared is there; on CI (CI=true)
 * its absence is a failure, never a silent skip. Elsewhere the test is skipped with a reason.
 */
export function sharedFile(t, ...parts) {
  const file = join(SHARED, ...parts);
  if (existsSync(file)) return file;
  if (process.env.CI === 'true') throw new Error(`CI=true and the shared corpus is missing: ${file}`);
  t.skip(`../shared is not here (${file})`);
  return undefined;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server on a fresh workspace holding copies of `files` (never the originals: ../shared
 * is read-only and tests append to and truncate their files), with extra user `settings` and extra
 * code-server command-line `args` (e.g. `--locale`).
 */
export async function startSuite(
  name,
  { trusted = true, files = [], settings = {}, args = [], extensions = [], userDataFiles = {}, aged = false } = {},
) {
  const dir = join(RUN_DIR, name);
  rmSync(dir, { recursive: true, force: true });
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  // `aged`: the copies look like sessions no agent has written for an hour (a log written moments ago
  // counts as live, and saving to it asks first); otherwise they are as fresh as a log being written.
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const f of files) {
    cpSync(f, join(workspace, basename(f)));
    if (aged) utimesSync(join(workspace, basename(f)), anHourAgo, anHourAgo);
  }
  const artifacts = join(ARTIFACTS, name);
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const server = await startCodeServer({
    runDir: join(dir, 'server'),
    port: await freePort(),
    workspace,
    trusted,
    settings,
    args,
    extensions,
    userDataFiles,
  });
  // chromium writes ~/.config and ~/.cache: keep them in the run folder too.
  Object.assign(process.env, isolatedEnv(join(dir, 'browser')));
  const browser = await launchBrowser();
  let shots = 0;
  const suite = {
    workspace,
    origin: server.origin,
    server,
    browser,
    /** A new browser context with the workbench open and the extension loaded from the working tree. */
    async openPage(extra = {}) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      page.on('console', (m) => {
        const text = m.text();
        if (/Content.Security.Policy|Refused to/i.test(text)) console.log(`# webview console: ${text.slice(0, 300)}`);
      });
      const url = workbenchUrl({ origin: server.origin, folder: workspace, extensionPath: REPO, ...extra });
      if (extra.testsPath) return { page, context, url };
      await openWorkbench(page, url);
      return { page, context, url };
    },
    async shot(page, label) {
      const file = join(artifacts, `${String(++shots).padStart(2, '0')}-${label}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async stop() {
      await browser.close().catch(() => {});
      await server.stop();
    },
  };
  return suite;
}

/** Polls `fn` until it returns a truthy value or `timeoutMs` passes; returns that value. */
export async function until(fn, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
