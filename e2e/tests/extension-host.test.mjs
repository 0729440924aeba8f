// Runs the mocha suite of test/host/ inside the real extension host of code-server: the workbench URL
// names it as extensionTestsPath, and when it settles the workbench calls window.codeAutomationExit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES, ARTIFACTS, startSuite } from '../harness.mjs';
import { buildHostTests, HOST_TESTS_ENTRY } from '../build-host-tests.mjs';

const RESULTS = '.session-surface-host-tests.json';
let suite;
before(async () => {
  await buildHostTests();
  suite = await startSuite('extension-host', {
    files: ['session-small.jsonl', 'session-live.jsonl', 'session-with-errors.jsonl'].map((f) => join(SAMPLES, f)),
  });
});
after(async () => {
  await suite?.stop();
});

test('mocha suite inside the extension host passes', { timeout: 480_000 }, async () => {
  const resultsFile = join(suite.workspace, RESULTS);
  rmSync(resultsFile, { force: true });
  const { page, url } = await suite.openPage({ testsPath: HOST_TESTS_ENTRY });
  const exitCode = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (code) => resolve(code)));
  page.on('console', (m) => {
    if (m.text().includes('[host-tests]')) console.log('# ' + m.text().replace(/%c/g, '').trim());
  });
  // The workbench loads slowly on a busy 2-core machine: give the page load more than the default 30 s.
  await page.goto(url, { timeout: 120_000 });
  const code = await exitCode;
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  cpSync(resultsFile, join(ARTIFACTS, 'extension-host', 'host-tests.json'));
  assert.deepEqual(results.failures, []);
  assert.ok(results.passes.length >= 5, `ran ${results.passes.length} tests`);
  assert.equal(code, 0);
});
