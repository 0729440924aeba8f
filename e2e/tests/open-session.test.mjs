// Opening logs in the session editor, both ways a user can: the "Open Session…" command (file
// picker) and "Reopen Editor With…" on the text editor. A conformance case that loads must show its
// header and event count; a real dsh log that dsh refuses must show its header, its count and the
// refusing rule. The ../shared corpus is copied into the workspace first (it is read-only).
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SAMPLES, SHARED, sharedFile, startSuite } from '../harness.mjs';
import { closeAllEditors } from '../workbench.mjs';
import { openViaCommand, openViaReopenWith, readSessionView, waitForHeader } from '../session-editor.mjs';
import { existsSync } from 'node:fs';

const CONFORMANCE = 'acp-agent_snapshots_bash-tool-turn_session.hdrfix';
const REFUSED = 'v0-web-plan-mode-legacy-header.jsonl';
// The same log under its conformance slug: its hdrfix twin (same event lines) says how many events.
const REFUSED_SLUG = 'web_snapshots_plan-review_session';

const sharedFiles = () =>
  [join(SHARED, 'conformance', 'real', `${CONFORMANCE}.jsonl`), join(SHARED, 'fixtures', 'dsh-real', REFUSED)].filter((f) => existsSync(f));

let suite;
let page;
before(async () => {
  suite = await startSuite('open-session', {
    files: [
      join(SAMPLES, 'session-small.jsonl'),
      join(SAMPLES, 'session-small.jsonl.zstd'),
      join(SAMPLES, 'session-legacy-header.jsonl'),
      ...sharedFiles(),
    ],
  });
  ({ page } = await suite.openPage());
  page.on('pageerror', (e) => console.log('# pageerror', e.message));
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

const ways = {
  command: (file) => openViaCommand(page, join(suite.workspace, file)),
  'reopen-with': (file) => openViaReopenWith(page, file),
};

for (const [way, open] of Object.entries(ways)) {
  test(`conformance case that loads shows its header and event count (${way})`, { timeout: 120_000 }, async (t) => {
    const source = sharedFile(t, 'conformance', 'real', `${CONFORMANCE}.jsonl`);
    if (!source) return;
    const expected = JSON.parse(readFileSync(source.replace(/\.jsonl$/, '.expected.json'), 'utf8'));
    await closeAllEditors(page);
    await open(basename(source));
    await waitForHeader(page);
    const shown = await readSessionView(page);
    await suite.shot(page, `conformance-${way}`);
    assert.equal(shown.id, expected.header.id);
    assert.equal(shown.events, expected.events);
    assert.equal(shown.verdictOk, true);
  });

  test(`real log that dsh refuses shows header, count and refusing rule (${way})`, { timeout: 120_000 }, async (t) => {
    const source = sharedFile(t, 'fixtures', 'dsh-real', REFUSED);
    if (!source) return;
    const twin = JSON.parse(readFileSync(sharedFile(t, 'conformance', 'real', `${REFUSED_SLUG}.hdrfix.expected.json`), 'utf8'));
    const dsh = JSON.parse(readFileSync(sharedFile(t, 'conformance', 'real', `${REFUSED_SLUG}.expected.json`), 'utf8'));
    const headerId = JSON.parse(readFileSync(source, 'utf8').split('\n')[0]).id;
    await closeAllEditors(page);
    await open(REFUSED);
    await waitForHeader(page);
    const shown = await readSessionView(page);
    await suite.shot(page, `refused-${way}`);
    assert.equal(dsh.ok, false, 'the oracle refuses this log');
    assert.equal(shown.verdictOk, false);
    assert.equal(shown.id, headerId);
    assert.equal(shown.events, twin.events);
    assert.match(shown.refusingRule ?? '', /^header\./);
    assert.equal(shown.refusingLine, '1');
    assert.match(shown.stillReadable ?? '', /could still be read/);
  });
}

test("the project's own refused sample shows the refusing rule (no ../shared needed)", { timeout: 120_000 }, async () => {
  await closeAllEditors(page);
  await openViaCommand(page, join(suite.workspace, 'session-legacy-header.jsonl'));
  await waitForHeader(page);
  const shown = await readSessionView(page);
  await suite.shot(page, 'own-refused-sample');
  assert.equal(shown.id, 'sample-legacy-0001');
  assert.equal(shown.verdictOk, false);
  assert.equal(shown.events, 12);
  assert.ok(shown.refusingRule, 'a refusing rule is shown');
});

test('a zstd log (header frame, one frame per batch) opens like its plain twin', { timeout: 120_000 }, async () => {
  // The plain twin is not opened here: VS Code would then reopen it in the session editor by default,
  // and a later test checks that a .jsonl opened by name stays in the text editor.
  await closeAllEditors(page);
  await openViaCommand(page, join(suite.workspace, 'session-small.jsonl.zstd'));
  await waitForHeader(page);
  const compressed = await readSessionView(page);
  await suite.shot(page, 'zstd-sample');
  assert.equal(compressed.verdictOk, true);
  assert.equal(compressed.id, 'sample-small-0001', 'the header of session-small.jsonl');
  assert.equal(compressed.events, 36, 'the event count of session-small.jsonl');
});

test('a session log opened by name stays in the text editor (priority "option")', { timeout: 60_000 }, async () => {
  await closeAllEditors(page);
  const { quickOpen } = await import('../workbench.mjs');
  await quickOpen(page, 'session-small.jsonl');
  await page.locator('.editor-instance .monaco-editor').first().waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('iframe.webview').count(), 0, 'no webview: the text editor is the default');
  await suite.shot(page, 'text-editor-default');
});
