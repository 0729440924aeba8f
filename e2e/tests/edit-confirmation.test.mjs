// What an edit's confirmation says before Apply, and what the editor shows after Save, with VS Code's
// browser default `files.autoSave: afterDelay` in the user settings (as a new user of code-server has it):
//   - auto-save would append a pending edit a second after Apply: the confirmation says so and offers
//     "Save only when I say so for session logs"; with it, the file is unchanged until Save, for a plain
//     and a zstd log, while other files keep the user's auto-save;
//   - a prune whose new content is no smaller than the result says it saves nothing, and its preview
//     tab is named after the whole edit ("/" in tool/result is not taken as a folder);
//   - after Save the header's File size is the file's new size.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES, startSuite, until } from '../harness.mjs';
import { closeAllEditors } from '../workbench.mjs';
import { openViaCommand, sessionView, waitForHeader } from '../session-editor.mjs';
import {
  appendedLines,
  check,
  compactUpToPreview,
  dialog,
  dialogButton,
  dirtyTab,
  pruneUpToPreview,
  saveSession,
  surfaceSeqs,
} from '../authoring-ui.mjs';
import { openPageRetrying } from '../crash-tails.mjs';

const KEEP = 'Save only when I say so for session logs';
/** Longer than VS Code's auto-save delay (1 s) with room for a busy machine. */
const AUTO_SAVE_WAIT_MS = 6_000;

let suite;
let page;
before(
  async () => {
    suite = await startSuite('edit-confirmation', {
      aged: true,
      files: [join(SAMPLES, 'session-small.jsonl'), join(SAMPLES, 'session-small.jsonl.zstd')],
      settings: { 'files.autoSave': 'afterDelay' },
    });
    // A tool result smaller than the placeholder a prune writes by default ("[pruned: 2 B]").
    const small = readFileSync(join(SAMPLES, 'session-small.jsonl'), 'utf8')
      .split('\n')
      .map((line) => (line.includes('"seq":6,') ? line.replace('"text":"main.ts\\nutil.ts\\n"', '"text":"ok"') : line))
      .join('\n');
    for (const name of ['prune-tiny.jsonl', 'size-after-save.jsonl']) {
      const file = join(suite.workspace, name);
      writeFileSync(file, name === 'prune-tiny.jsonl' ? small : readFileSync(join(SAMPLES, 'session-small.jsonl')));
      const anHourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(file, anHourAgo, anHourAgo);
    }
    page = await openPageRetrying(suite);
  },
  { timeout: 300_000 },
);
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

function userSettings() {
  try {
    return JSON.parse(readFileSync(join(suite.server.userData, 'User', 'settings.json'), 'utf8'));
  } catch {
    return {};
  }
}

test(
  'auto-save on: Apply says it would write at once, and one click keeps session logs for Save; nothing is written until Save',
  { timeout: 300_000 },
  async () => {
    const name = 'session-small.jsonl';
    const file = join(suite.workspace, name);
    const original = readFileSync(file);
    const [first] = surfaceSeqs(file);
    await closeAllEditors(page);
    await openViaCommand(page, file);
    await waitForHeader(page);
    await compactUpToPreview(page, first, first, 'Kept for an explicit Save.');
    const text = await dialog(page).innerText();
    assert.match(text, /Auto-save is on \(files\.autoSave: afterDelay\)/);
    assert.doesNotMatch(text, /Nothing is written until you save/);
    await suite.shot(page, 'auto-save-warned');
    await dialogButton(page, KEEP).click();
    await dirtyTab(page, name).waitFor({ timeout: 30_000 });
    await until(() => userSettings()['files.autoSaveWorkspaceFilesOnly'] === true, 30_000, 'files.autoSaveWorkspaceFilesOnly written');
    assert.equal(userSettings()['files.autoSave'], 'afterDelay', 'auto-save of the workspace files is left as it was');
    await page.waitForTimeout(AUTO_SAVE_WAIT_MS);
    assert.deepEqual(readFileSync(file), original, 'auto-save wrote the pending edit before Save');
    assert.equal(await dirtyTab(page, name).count(), 1, 'still pending');
    await saveSession(page);
    await until(() => readFileSync(file).length > original.length, 30_000, 'Save appends');
    assert.deepEqual(
      appendedLines(file, original).map((l) => l.type),
      ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'],
    );
    assert.equal(check(file).status, 0);
  },
);

test('a zstd log is kept for Save by the same one click', { timeout: 300_000 }, async () => {
  const name = 'session-small.jsonl.zstd';
  const file = join(suite.workspace, name);
  const original = readFileSync(file);
  const [first] = surfaceSeqs(file);
  await closeAllEditors(page);
  await openViaCommand(page, file);
  await waitForHeader(page);
  await compactUpToPreview(page, first, first, 'A zstd log waits for Save too.');
  assert.match(await dialog(page).innerText(), /Nothing is written until you save\./);
  assert.equal(await dialogButton(page, KEEP).count(), 0, 'auto-save is already off for session logs');
  await dialogButton(page, 'Apply').click();
  await dirtyTab(page, name).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(AUTO_SAVE_WAIT_MS);
  assert.deepEqual(readFileSync(file), original, 'auto-save wrote the pending edit of the zstd log before Save');
  await saveSession(page);
  await until(() => readFileSync(file).length > original.length, 30_000, 'Save appends a frame');
  assert.equal(check(file).status, 0);
});

test('a prune that saves nothing says so, and its preview tab is named after the whole edit', { timeout: 300_000 }, async () => {
  const name = 'prune-tiny.jsonl';
  const file = join(suite.workspace, name);
  const original = readFileSync(file);
  await closeAllEditors(page);
  await openViaCommand(page, file);
  await waitForHeader(page);
  const content = await pruneUpToPreview(page, 6);
  assert.equal(content, '[pruned: 2 B]');
  const text = await dialog(page).innerText();
  assert.match(text, /Prune tool\/result seq 6: the plan holds, but it saves nothing/);
  assert.match(text, /The new content is not smaller than the tool result it replaces: estimated tokens on the surface (\d+) → (\d+)/);
  const [, before, after] = /estimated tokens on the surface (\d+) → (\d+)/.exec(text).map(Number);
  assert.ok(after >= before, `${before} → ${after}`);
  // The preview's tab: "prune-tiny.jsonl — Prune tool∕result seq 6.txt", not "result seq 6.txt".
  const tab = page.locator('.tabs-container .tab', { hasText: 'Prune tool' });
  await tab.waitFor({ timeout: 15_000 });
  const label = (await tab.first().getAttribute('aria-label')) ?? (await tab.first().innerText());
  assert.match(label, /prune-tiny\.jsonl — Prune tool.result seq 6\.txt/);
  await suite.shot(page, 'prune-saves-nothing');
  await page.keyboard.press('Escape');
  await dialog(page).waitFor({ state: 'detached', timeout: 15_000 });
  assert.equal(await dirtyTab(page, name).count(), 0, 'cancelled: nothing pending');
  assert.deepEqual(readFileSync(file), original);
});

test("after Save the header's File size is the file's new size", { timeout: 300_000 }, async () => {
  const name = 'size-after-save.jsonl';
  const file = join(suite.workspace, name);
  const original = readFileSync(file);
  const [first] = surfaceSeqs(file);
  const size = () =>
    sessionView(page)
      .locator('#count-fields [data-field="fileBytes"]')
      .textContent()
      .then((t) => t?.trim());
  await closeAllEditors(page);
  await openViaCommand(page, file);
  await waitForHeader(page);
  const before = await size();
  await compactUpToPreview(page, first, first, 'A compaction that makes the file longer.');
  await dialogButton(page, 'Apply').click();
  await dirtyTab(page, name).waitFor({ timeout: 30_000 });
  await saveSession(page);
  await until(() => readFileSync(file).length > original.length, 30_000, 'Save appends');
  await until(async () => (await size()) !== before, 30_000, `File size changes from ${before}`);
  const shown = await size();
  // What a fresh open of the saved file says its size is.
  await closeAllEditors(page);
  await openViaCommand(page, file);
  await waitForHeader(page);
  assert.equal(shown, await size(), `after Save the header said ${shown}`);
});
