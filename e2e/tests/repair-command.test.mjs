// Crash repair through VS Code: a real dsh log (a .hdrfix case that dsh loads) cut mid-turn after a
// recorded tool/call, before it, mid-line and as a zstd copy. "Apply Crash Repair" shows the pending
// call and the closers with the right codes in a modal, appends exactly the lines the core predicts
// (`repair --dry-run --json`), and `session-surface check` passes; a torn tail is removed only after
// a backup whose bytes equal the original.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED, sharedFile, startSuite, until } from '../harness.mjs';
import { REPO } from '../toolchain.mjs';
import { closeAllEditors, quickOpen, runCommand } from '../workbench.mjs';
import { waitForHeader } from '../session-editor.mjs';
import { existsSync } from 'node:fs';
import { cutAtFirstToolCall, openPageRetrying, text, zstdLog } from '../crash-tails.mjs';

const REAL = 'acp-agent_snapshots_advanced-toolchain_session.hdrfix.jsonl';
const APPLY = 'Session Surface: Apply Crash Repair';
const CLI = join(REPO, 'bin', 'session-surface.js');

const cli = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
const bytesOf = (file) => new Uint8Array(readFileSync(file));

let suite;
let page;
let work;
const files = {};

before(async () => {
  const source = join(SHARED, 'conformance', 'real', REAL);
  if (!existsSync(source)) return;
  const lines = readFileSync(source, 'utf8').split('\n').filter(Boolean);
  const recorded = cutAtFirstToolCall(lines, true);
  const unrecorded = cutAtFirstToolCall(lines, false);
  work = mkdtempSync(join(tmpdir(), 'repair-e2e-'));
  const write = (name, content) => {
    writeFileSync(join(work, name), content);
    files[name] = join(work, name);
  };
  write('crash-recorded.jsonl', text(recorded.lines));
  write('crash-unrecorded.jsonl', text(unrecorded.lines));
  write('crash-torn.jsonl', text(recorded.lines) + recorded.next.slice(0, Math.floor(recorded.next.length / 2)));
  write('crash-recorded.jsonl.zstd', zstdLog(recorded.lines));
  suite = await startSuite('repair-command', { files: Object.values(files) });
  // A crashed agent's file has been still for a while (the command asks first when it still changes).
  const past = new Date(Date.now() - 10 * 60_000);
  for (const name of Object.keys(files)) utimesSync(join(suite.workspace, name), past, past);
  page = await openPageRetrying(suite);
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

const dialog = () => page.locator('.monaco-dialog-box');

/**
 * Runs Apply Crash Repair on a file opened by name and returns the modal's text. A plain log opens as
 * text; a zstd log opens in the session editor, which the command then works on once it has loaded.
 */
async function applyFromModal(name, button = 'Append Closers') {
  await closeAllEditors(page);
  await quickOpen(page, name);
  if (name.endsWith('.zstd')) await waitForHeader(page);
  await runCommand(page, APPLY);
  await dialog().waitFor({ timeout: 30_000 });
  const shown = (await dialog().textContent()) ?? '';
  await suite.shot(page, `modal-${name}`);
  await dialog().locator('.monaco-button', { hasText: button }).first().click();
  return shown;
}

/** What the core predicts for a file, before anything is written. */
function predicted(file) {
  const result = JSON.parse(cli('repair', '--dry-run', '--json', file).stdout.split('\n')[0]);
  assert.equal(result.write.ok, true, JSON.stringify(result.write));
  return result;
}

for (const [name, code] of [
  ['crash-recorded.jsonl', 'TOOL_OUTCOME_UNKNOWN'],
  ['crash-unrecorded.jsonl', 'TOOL_NOT_STARTED'],
]) {
  test(
    `${name}: the modal names the pending call and ${code}; the file becomes exactly the predicted one and check passes`,
    { timeout: 240_000 },
    async (t) => {
      if (!sharedFile(t, 'conformance', 'real', REAL)) return;
      const file = join(suite.workspace, name);
      const before = bytesOf(file);
      const plan = predicted(file);
      assert.equal(plan.openTurn.pendingCalls[0].code, code);
      const shown = await applyFromModal(name);
      assert.match(shown, new RegExp(`call "advanced-define".*${code}`));
      assert.match(
        shown,
        code === 'TOOL_OUTCOME_UNKNOWN' ? /recorded as started, but its result never was/ : /never recorded as started, so it did not run/,
      );
      assert.match(shown, /tool\/result .* for cordis_define call "advanced-define"/);
      assert.match(shown, /turn\/end ending turn 1 as interrupted/);
      assert.match(shown, /has not changed for \d+ min: this looks like a crash/);
      await until(() => bytesOf(file).length > before.length, 30_000, 'the closers are appended');
      assert.equal(readFileSync(file, 'utf8'), Buffer.from(before).toString('utf8') + text(plan.write.lines));
      const check = cli('check', file);
      assert.equal(check.status, 0, check.stdout + check.stderr);
      await suite.shot(page, `applied-${name}`);
    },
  );
}

test(
  'a zstd copy (it opens in the session editor): the closers are a pending edit, Save appends them as one new frame; check passes',
  { timeout: 240_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    const name = 'crash-recorded.jsonl.zstd';
    const file = join(suite.workspace, name);
    const before = bytesOf(file);
    const plan = predicted(file);
    assert.equal(plan.write.container, 'zstd');
    const shown = await applyFromModal(name, 'Add as Pending Edit');
    assert.match(shown, /one zstd frame/);
    await page.locator('.tabs-container .tab.dirty', { hasText: name }).waitFor({ timeout: 30_000 });
    assert.deepEqual(bytesOf(file), before, 'nothing is written before Save');
    await runCommand(page, 'View: Focus First Editor Group');
    await runCommand(page, 'File: Save');
    await until(() => bytesOf(file).length > before.length, 30_000, 'the frame is appended');
    const after = bytesOf(file);
    assert.deepEqual(after.subarray(0, before.length), before, 'nothing before the end changed');
    const check = cli('check', file);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    const repaired = cli('repair', '--dry-run', '--json', file);
    const review = JSON.parse(repaired.stdout.split('\n')[0]);
    assert.equal(review.openTurn, undefined, 'the last turn is closed');
    assert.deepEqual(
      review.repairsMade[0].results.map((r) => r.code),
      ['TOOL_OUTCOME_UNKNOWN'],
    );
  },
);

test(
  'a torn last line: repair points to Remove Torn Tail; the backup equals the original; then the repair applies',
  { timeout: 300_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    const name = 'crash-torn.jsonl';
    const file = join(suite.workspace, name);
    const original = bytesOf(file);
    await closeAllEditors(page);
    await quickOpen(page, name);
    await runCommand(page, APPLY);
    await dialog().filter({ hasText: 'cannot be repaired yet' }).waitFor({ timeout: 30_000 });
    assert.match((await dialog().textContent()) ?? '', /torn last line .*Remove the torn tail first/);
    await suite.shot(page, 'torn-tail-refused');
    await dialog().locator('.monaco-button', { hasText: 'Remove Torn Tail' }).click();
    await dialog().filter({ hasText: 'Remove the torn tail of' }).waitFor({ timeout: 30_000 });
    const shown = (await dialog().textContent()) ?? '';
    assert.match(shown, /Torn last line: \d+ bytes at line \d+ with no newline/);
    assert.match(shown, /backup copy of the whole file is written beside it first/);
    await suite.shot(page, 'torn-tail-modal');
    await dialog().locator('.monaco-button', { hasText: 'Back Up and Remove' }).click();
    const backupName = await until(
      // Written under a partial name and renamed once read back: a backup under its own name is whole.
      () => readdirSync(suite.workspace).find((f) => f.startsWith(`${name}.torn-tail-backup-`) && !f.endsWith('.partial')),
      30_000,
      'the backup appears',
    );
    assert.deepEqual(bytesOf(join(suite.workspace, backupName)), original, 'the backup holds the original bytes');
    await until(() => bytesOf(file).length < original.length, 30_000, 'the file is cut');
    assert.ok(readFileSync(file, 'utf8').endsWith('\n'));
    assert.deepEqual(bytesOf(file), original.subarray(0, bytesOf(file).length), 'only the tail went');
    const past = new Date(Date.now() - 10 * 60_000);
    utimesSync(file, past, past);
    const plan = predicted(file);
    const cut = bytesOf(file);
    await applyFromModal(name);
    await until(() => bytesOf(file).length > cut.length, 30_000, 'the closers are appended');
    assert.equal(readFileSync(file, 'utf8'), Buffer.from(cut).toString('utf8') + text(plan.write.lines));
    assert.equal(cli('check', file).status, 0);
  },
);
