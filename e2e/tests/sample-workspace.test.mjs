// The sample workspace `npm start` opens (scripts/sample-workspace.mjs), as a new user meets it, with
// VS Code's browser default `files.autoSave: afterDelay` in the user settings:
//   - the very first click on a sample in the Explorer, made as soon as the Explorer shows it (before
//     the extension has started), opens the session editor, not the log's raw JSON;
//   - an edit applied there is not written by auto-save: the file is unchanged until Save.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES, startSuite, until } from '../harness.mjs';
import { sessionView } from '../session-editor.mjs';
import { appendedLines, check, compactUpToPreview, dialog, dialogButton, dirtyTab, saveSession, surfaceSeqs } from '../authoring-ui.mjs';
import { writeSampleWorkspace } from '../../scripts/sample-workspace.mjs';

const SAMPLE = 'session-small.jsonl';

let suite;
let page;
before(
  async () => {
    suite = await startSuite('sample-workspace', { settings: { 'files.autoSave': 'afterDelay' } });
    writeSampleWorkspace(suite.workspace, SAMPLES);
    // The copies look like sessions no agent has written for an hour (saving to a fresh one asks first).
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (const name of readdirSync(suite.workspace).filter((n) => n.includes('.jsonl')))
      utimesSync(join(suite.workspace, name), anHourAgo, anHourAgo);
    ({ page } = await suite.openPage());
  },
  { timeout: 300_000 },
);
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

test('the first click on a sample, before the extension has started, opens the session editor', { timeout: 300_000 }, async () => {
  const item = page
    .locator('.explorer-folders-view .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: /^session-small\.jsonl$/ }) })
    .first();
  await item.waitFor({ timeout: 60_000 });
  await item.click();
  await page.locator('.tabs-container .tab', { hasText: SAMPLE }).first().waitFor({ timeout: 60_000 });
  // Whatever opened first stays: a text editor of the log would show its raw JSON here.
  const opened = await until(
    async () => {
      if (await page.locator('.editor-instance .monaco-editor .view-lines').count()) return 'text';
      if (await page.locator('iframe.webview').count()) return 'session';
      return undefined;
    },
    120_000,
    'an editor opened',
  );
  await suite.shot(page, 'first-click');
  assert.equal(opened, 'session', 'the first click opened the raw JSON in a text editor');
  await sessionView(page).locator('#session-id').waitFor({ timeout: 120_000 });
});

test(
  'an edit applied in the sample workspace is not written by auto-save: the file is unchanged until Save',
  { timeout: 300_000 },
  async () => {
    const file = join(suite.workspace, SAMPLE);
    const original = readFileSync(file);
    const [first] = surfaceSeqs(file);
    await sessionView(page).locator('#session-id').waitFor({ timeout: 120_000 });
    await compactUpToPreview(page, first, first, 'Written when I save.');
    assert.match(await dialog(page).innerText(), /Nothing is written until you save\./);
    await dialogButton(page, 'Apply').click();
    await dirtyTab(page, SAMPLE).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(6_000);
    assert.deepEqual(readFileSync(file), original, 'auto-save wrote the pending edit before Save');
    await saveSession(page);
    await until(() => readFileSync(file).length > original.length, 30_000, 'Save appends');
    assert.equal(appendedLines(file, original).length, 4);
    assert.equal(check(file).status, 0);
  },
);
