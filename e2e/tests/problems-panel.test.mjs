// Core diagnostics reach the Problems panel at the right file lines: with only the text editor open
// (activation onLanguage:jsonl), and from the session editor's own document.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SAMPLES, startSuite, until } from '../harness.mjs';
import { sampleSessions } from '../make-sample-sessions.mjs';
import { closeAllEditors, focusWorkbench, quickOpen, runCommand } from '../workbench.mjs';
import { openViaCommand, waitForHeader } from '../session-editor.mjs';

const FILE = 'session-with-errors.jsonl';
const { errorLines } = sampleSessions();

let suite;
let page;
before(async () => {
  suite = await startSuite('problems-panel', { files: [join(SAMPLES, FILE), join(SAMPLES, 'session-small.jsonl')] });
  ({ page } = await suite.openPage());
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

async function problemsText() {
  await focusWorkbench(page);
  await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
  const panel = page.locator('.markers-panel');
  await panel.waitFor({ timeout: 15_000 });
  return until(
    async () => {
      const text = await panel.innerText();
      return text.includes('Ln ') ? text : undefined;
    },
    20_000,
    'problems listed',
  );
}

/** Lines the Problems panel shows for the file, from its "[Ln N, Col M]" labels. */
const linesIn = (text) => [...text.matchAll(/\[Ln (\d+), Col \d+\]/g)].map((m) => Number(m[1]));

test('errors are listed at the right lines with only the text editor open', { timeout: 120_000 }, async () => {
  await quickOpen(page, FILE);
  const text = await problemsText();
  await suite.shot(page, 'problems-text-editor-only');
  assert.equal(await page.locator('iframe.webview').count(), 0, 'no session editor is open');
  const lines = linesIn(text);
  assert.ok(lines.includes(errorLines.surfaceLine), `line ${errorLines.surfaceLine} listed: ${lines}`);
  assert.ok(lines.includes(errorLines.idsLine), `line ${errorLines.idsLine} listed: ${lines}`);
  assert.match(text, /not surface-eligible/);
  assert.match(text, /mismatched tool call ids/);
});

test('the session editor alone publishes the same problems', { timeout: 120_000 }, async () => {
  await closeAllEditors(page);
  await openViaCommand(page, join(suite.workspace, FILE));
  await waitForHeader(page);
  const lines = linesIn(await problemsText());
  await suite.shot(page, 'problems-session-editor');
  assert.ok(lines.includes(errorLines.surfaceLine) && lines.includes(errorLines.idsLine), `lines listed: ${lines}`);
});
