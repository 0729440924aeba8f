// Feeling at home in the session editor: the setting that makes it the default editor for dsh session
// logs (the extension writes workbench.editorAssociations itself), the status bar's verdict, Go to Seq.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES, startSuite, until } from '../harness.mjs';
import { waitForExtension } from '../extension-ready.mjs';
import { closeAllEditors, focusWorkbench, quickOpen, runCommand } from '../workbench.mjs';
import { openViaCommand, readSessionView, waitForHeader } from '../session-editor.mjs';

let suite;
let page;
before(async () => {
  suite = await startSuite('home-editor', { files: [join(SAMPLES, 'session-with-errors.jsonl')] });
  mkdirSync(join(suite.workspace, 'agent'), { recursive: true });
  copyFileSync(join(SAMPLES, 'session-small.jsonl'), join(suite.workspace, 'agent', 'session.jsonl'));
  // Never opened before the setting is turned off (VS Code remembers the editor a file last opened in).
  copyFileSync(join(SAMPLES, 'session-small.jsonl'), join(suite.workspace, 'agent', 'session-later.jsonl'));
  copyFileSync(join(SAMPLES, 'session-small.jsonl.zstd'), join(suite.workspace, 'agent', 'session-packed.jsonl.zstd'));
  ({ page } = await suite.openPage());
  await waitForExtension(page);
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

/** The user settings file; {} while VS Code is half-way through writing it. */
function userSettings() {
  try {
    return JSON.parse(readFileSync(join(suite.server.userData, 'User', 'settings.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** Flips a boolean setting in the Settings editor, as a user would. */
async function toggleSetting(id) {
  await runCommand(page, 'Preferences: Open User Settings');
  const search = page.locator('.settings-editor .settings-header .suggest-input-container').first();
  await search.waitFor({ timeout: 30_000 });
  await search.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(id);
  // Filtered to the one setting: its checkbox is the only boolean row left.
  await page.locator('.settings-editor .settings-count-widget', { hasText: /^1 / }).waitFor({ timeout: 30_000 });
  const checkbox = page.locator('.settings-editor .settings-tree-container .setting-value-checkbox').first();
  await checkbox.waitFor({ timeout: 30_000 });
  await checkbox.click();
}

test(
  'a zstd log opened by name shows in the session editor without any setting (text editors cannot show it)',
  { timeout: 120_000 },
  async () => {
    await closeAllEditors(page);
    await quickOpen(page, 'session-packed.jsonl.zstd');
    await waitForHeader(page);
    assert.equal((await readSessionView(page)).id, 'sample-small-0001');
    assert.equal(userSettings()['workbench.editorAssociations']?.['**/session*.jsonl.zstd'], undefined, 'no association was needed');
    await suite.shot(page, 'zstd-opened-by-name');
    await closeAllEditors(page);
  },
);

test('the setting makes the session editor the default for session logs, and turning it off undoes it', { timeout: 240_000 }, async () => {
  await closeAllEditors(page);
  await toggleSetting('sessionSurface.openLogsInSessionEditor');
  const associations = await until(() => userSettings()['workbench.editorAssociations'], 30_000, 'editorAssociations written');
  assert.equal(associations['**/session*.jsonl'], 'sessionSurface.sessionEditor');
  // A zstd log needs no association: the session editor is its default editor anyway.
  assert.equal(associations['**/session*.jsonl.zstd'], undefined);
  await suite.shot(page, 'setting-on');
  await closeAllEditors(page);
  await quickOpen(page, 'session.jsonl');
  await waitForHeader(page);
  assert.equal((await readSessionView(page)).id, 'sample-small-0001', 'opened by name, it shows in the session editor');
  await suite.shot(page, 'opened-by-name-in-session-editor');

  await closeAllEditors(page);
  await toggleSetting('sessionSurface.openLogsInSessionEditor');
  await until(() => !userSettings()['workbench.editorAssociations']?.['**/session*.jsonl'], 30_000, 'our associations removed');
  await closeAllEditors(page);
  await quickOpen(page, 'session-later.jsonl');
  await page.locator('.editor-instance .monaco-editor').first().waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('iframe.webview').count(), 0, 'back to the text editor');
});

const statusItem = () => page.locator('.statusbar-item', { hasText: /dsh (opens|refuses) this log/ }).first();

test(
  'the status bar shows the verdict of the focused session, and clicking it shows the session health',
  { timeout: 180_000 },
  async () => {
    await closeAllEditors(page);
    await openViaCommand(page, join(suite.workspace, 'session-with-errors.jsonl'));
    await waitForHeader(page);
    await statusItem().waitFor({ timeout: 30_000 });
    assert.match(await statusItem().textContent(), /dsh refuses this log/);
    await suite.shot(page, 'status-bar-refused');
    await statusItem().click();
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ timeout: 15_000 });
    const health = await rows.allTextContents();
    assert.ok(
      health.some((t) => /message\.toolresult-shape/.test(t)),
      'the refusing problem is listed',
    );
    await suite.shot(page, 'session-health');
    await page.keyboard.press('Escape');

    await closeAllEditors(page);
    await openViaCommand(page, join(suite.workspace, 'agent', 'session.jsonl'));
    await waitForHeader(page);
    await until(
      async () =>
        /dsh opens this log/.test(
          await statusItem()
            .textContent()
            .catch(() => ''),
        ),
      30_000,
      'the verdict of the newly focused session',
    );
    await closeAllEditors(page);
    await until(
      async () => (await page.locator('.statusbar-item', { hasText: /dsh (opens|refuses) this log/ }).count()) === 0,
      15_000,
      'no verdict without a session editor',
    );
  },
);

test("Go to Seq… reveals the event's line (keyboard-scoped to the session editor)", { timeout: 180_000 }, async () => {
  await closeAllEditors(page);
  await openViaCommand(page, join(suite.workspace, 'agent', 'session.jsonl'));
  await waitForHeader(page);
  await runCommand(page, 'Session Surface: Go to Seq…');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill('999');
  await page.locator('.quick-input-message', { hasText: /0 to 35/ }).waitFor({ timeout: 10_000 });
  await input.fill('5');
  await page.keyboard.press('Enter');
  // The text editor opens beside, with seq 5 (file line 7: header, then seqs 0…) as its current line.
  const active = page.locator('.editor-instance .monaco-editor .line-numbers.active-line-number');
  await until(async () => (await active.allTextContents()).some((t) => t.trim() === '7'), 30_000, 'line 7 is the current line');
  await suite.shot(page, 'go-to-seq');
  // The palette offers Go to Seq only while a session editor is focused.
  await closeAllEditors(page);
  await focusWorkbench(page);
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('>Session Surface: Go to Seq');
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Go to Seq' }).count(), 0);
  await page.keyboard.press('Escape');
});
