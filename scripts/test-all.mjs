// `npm test`: the whole suite on a fresh clone. Installs what it needs, type-checks, builds, runs the
// unit/conformance/property tests, then the end-to-end tests in a real VS Code (code-server), and
// closes with one `tests: N passed, M failed` line. Under CI=true a missing ../shared is a failure.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
ensureDeps(root);

const shared = resolve(process.env.SHARED_DIR ?? join(root, '..', 'shared'));
const ci = process.env.CI === 'true';
let passed = 0;
let failed = 0;

/** Runs a command, streaming its output while keeping it to read the closing counts. */
function run(command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SHARED_DIR: shared } });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      stdout += chunk;
    });
    child.on('close', (status) => done({ status, stdout }));
  });
}

async function step(name, command, args, { counts } = {}) {
  console.log(`\n== ${name}`);
  const started = Date.now();
  const result = await run(command, args);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  // Counted steps report their own totals; a step that fails without counting a failure counts as one.
  const closing =
    (result.stdout ?? '')
      .split('\n')
      .filter((l) => counts && l.startsWith(`${counts}:`))
      .pop() ?? '';
  const summary = /(\d+) passed, (\d+) failed/.exec(closing);
  const stepPassed = summary ? Number(summary[1]) : 0;
  const stepFailed = summary ? Number(summary[2]) : 0;
  passed += stepPassed;
  failed += stepFailed > 0 ? stepFailed : result.status !== 0 ? 1 : 0;
  console.log(`== ${name}: ${result.status === 0 ? 'ok' : `FAILED (exit ${result.status})`} in ${seconds} s`);
  return result.status === 0;
}

if (!existsSync(join(shared, 'conformance'))) {
  if (ci) {
    console.error(`../shared is required under CI=true (looked in ${shared}): the conformance and real-log suites cannot run`);
    failed += 1;
  } else {
    console.log(`note: ${shared} is absent; the conformance and real dsh log suites are skipped (CI=true makes this a failure)`);
  }
}

await step('type check (host, core, webview, tests)', 'npm', ['run', '--silent', 'typecheck']);
await step('lint (layer boundaries, import cycles)', 'npm', ['run', '--silent', 'lint']);
await step('format check (prettier)', 'npm', ['run', '--silent', 'format:check']);
await step('build bundles and tests', process.execPath, ['scripts/build.mjs', '--tests']);
await step('unit, conformance and property tests', process.execPath, ['scripts/run-unit.mjs'], { counts: 'unit' });
if (process.env.SKIP_E2E === '1') console.log('\n== end-to-end tests skipped (SKIP_E2E=1)');
else await step('end-to-end tests in code-server', 'npm', ['run', '--silent', 'e2e'], { counts: 'e2e' });

console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
