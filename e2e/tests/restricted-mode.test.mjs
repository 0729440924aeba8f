// In a workspace that is not trusted (Restricted Mode) the extension still runs — it declares
// limited support — and the session editor says that it is read-only; the authoring commands, which
// append to the log, are disabled (`enablement: isWorkspaceTrusted`), so the palette does not offer them.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SAMPLES, startSuite } from '../harness.mjs';
import { openViaCommand, readSessionView, waitForHeader } from '../session-editor.mjs';
import { focusWorkbench } from '../workbench.mjs';

let suite;
let page;
before(async () => {
  suite = await startSuite('restricted-mode', { trusted: false, files: [join(SAMPLES, 'session-small.jsonl')] });
  ({ page } = await suite.openPage());
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

test('an untrusted workspace opens the session read-only and says so', { timeout: 120_000 }, async () => {
  await page.getByText('Restricted Mode', { exact: false }).first().waitFor({ timeout: 30_000 });
  await openViaCommand(page, join(suite.workspace, 'session-small.jsonl'));
  await waitForHeader(page);
  const shown = await readSessionView(page);
  await suite.shot(page, 'restricted-read-only');
  assert.equal(shown.id, 'sample-small-0001');
  assert.match(shown.readOnly ?? '', /Restricted Mode: read-only/);

  await focusWorkbench(page);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  // A control first: the palette does list the extension's commands that only read.
  await input.fill('>Session Surface: Reload Session');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Reload Session from Disk' }).first().waitFor({ timeout: 30_000 });
  for (const title of ['Compact Range', 'Prune Tool Result']) {
    await input.fill(`>Session Surface: ${title}`);
    await page.waitForTimeout(1500);
    const offered = await page.locator('.quick-input-list .monaco-list-row').allTextContents();
    assert.ok(!offered.some((t) => t.includes(title)), `${title} is not offered: ${offered.join(' | ')}`);
  }
  await suite.shot(page, 'restricted-no-authoring');
  await page.keyboard.press('Escape');
});
