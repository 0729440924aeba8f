// npm run e2e: everything the end-to-end tests need, then the tests, then one summary line.
//   1. installs what is missing (Debian chromium + libkrb5-dev, Node 24, code-server; cached in .e2e/);
//   2. builds the extension and type-checks the in-host suite;
//   3. runs e2e/tests/*.test.mjs one file at a time (each starts its own code-server), including the
//      mocha suite inside the extension host;
//   4. prints `e2e: N passed, M failed` (node tests plus in-host mocha tests) and exits non-zero on failure.
// Screenshots and bench.json land in test-artifacts/e2e/. Set CI=true to make a missing ../shared fail.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from '../scripts/ensure-deps.mjs';

// npm packages first (the harness imports playwright-core), so `npm run e2e` works on a fresh clone too.
ensureDeps(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
const { ensureToolchain, REPO } = await import('./toolchain.mjs');
const { ARTIFACTS, RUN_DIR } = await import('./harness.mjs');

const started = Date.now();
const step = (what) => console.log(`\n== [${((Date.now() - started) / 1000).toFixed(1)} s] ${what}`);
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit', ...opts }).status ?? 1;

function summary(passed, failed, extra = '') {
  console.log(`${extra}e2e: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

try {
  step('toolchain');
  ensureToolchain();
} catch (err) {
  console.error(String(err?.message ?? err));
  summary(0, 1, 'could not prepare the toolchain\n');
}

step('build');
// A test build: the webview carries the marks the tests read (first rows painted, progress drawn, `rendered`).
if (run(process.execPath, [join(REPO, 'scripts', 'build.mjs'), '--test-hooks']) !== 0) summary(0, 1, 'build failed\n');
if (run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'test/host/tsconfig.json']) !== 0) {
  summary(0, 1, 'type errors in test/host\n');
}

step('tests');
rmSync(RUN_DIR, { recursive: true, force: true });
rmSync(ARTIFACTS, { recursive: true, force: true });
mkdirSync(ARTIFACTS, { recursive: true });
// The CLI's code cache (bin/session-surface.js) of the tests' CLI runs goes to this run's folder, not the user's.
process.env.SESSION_SURFACE_CACHE_DIR ??= join(RUN_DIR, 'code-cache');
const testsDir = join(REPO, 'e2e', 'tests');
// The .vsix test makes a production build; it runs last so the other tests use the normal bundles.
// SESSION_SURFACE_E2E_ONLY=a,b runs only the test files whose names contain one of the words.
const only = (process.env.SESSION_SURFACE_E2E_ONLY ?? '').split(',').filter(Boolean);
const files = readdirSync(testsDir)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => only.length === 0 || only.some((word) => f.includes(word)))
  .sort((a, b) => Number(a.startsWith('vsix')) - Number(b.startsWith('vsix')) || a.localeCompare(b))
  .map((f) => join(testsDir, f));
const countsFile = join(ARTIFACTS, 'node-test-counts.json');
const rc = run(
  process.execPath,
  [
    '--test',
    '--test-concurrency=1',
    '--test-timeout=600000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(REPO, 'e2e', 'count-reporter.mjs')}`,
    `--test-reporter-destination=${countsFile}`,
    ...files,
  ],
  { timeout: 40 * 60_000 },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(countsFile)) {
  const counts = JSON.parse(readFileSync(countsFile, 'utf8'));
  ({ passed, failed, skipped } = counts);
} else {
  failed++;
}
const hostResults = join(ARTIFACTS, 'extension-host', 'host-tests.json');
if (existsSync(hostResults)) {
  const host = JSON.parse(readFileSync(hostResults, 'utf8'));
  passed += host.passes.length;
  failed += host.failures.length;
}
if (rc !== 0 && failed === 0) failed = 1; // the runner failed outside any test
step(`done; screenshots in ${ARTIFACTS}${skipped ? `; ${skipped} skipped (no ../shared)` : ''}`);
summary(passed, failed);
