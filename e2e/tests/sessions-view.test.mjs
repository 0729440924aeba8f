// The Sessions view as a user meets it: a generated dsh sessions folder (live, closed, crashed, refused,
// plain and zstd, a parent with a subagent child) is listed newest first with each session's state, the
// child under its parent; clicking a session opens it in the session editor; the child marks the seed it
// inherited, the lineage command goes from the child to its parent and the parent's editor links back to
// its child; a missing folder shows the welcome view that says where dsh writes.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_DIR, startSuite, until } from '../harness.mjs';
import { closeAllEditors, runCommand } from '../workbench.mjs';
import { readSessionView, sessionView, waitForHeader } from '../session-editor.mjs';
import { SHOWCASE, writeShowcase } from '../sessions-folder-generator.mjs';
import { showSessionsView } from '../extension-ready.mjs';

const NAME = 'sessions-view';
const DATA = join(RUN_DIR, `${NAME}-data`);
const ROOT = join(DATA, 'sessions');
// startSuite creates the workspace here; the sessions' cwd must be its path for "This folder".
const WORKSPACE = join(RUN_DIR, NAME, 'workspace');

let suite;
let page;
before(async () => {
  rmSync(DATA, { recursive: true, force: true });
  mkdirSync(DATA, { recursive: true });
  await writeShowcase(ROOT, WORKSPACE, DATA);
  suite = await startSuite(NAME, { settings: { 'sessionSurface.sessionsFolder': ROOT } });
  ({ page } = await suite.openPage());
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

const view = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Sessions/i }) }).last();
/** A row shows a title cut to 16 characters (the whole title is in its tooltip and its accessible name). */
const shownTitle = (title) => (title.length > 16 ? `${title.slice(0, 15)}…` : title);
/** The row of a session, by its accessible name (which starts with the whole title). */
const sessionRow = (title) => view().locator(`.monaco-list-row[aria-label^="${title}, "]`).first();

/** The rows of the tree: label, description, depth. */
async function rows() {
  return page.locator('.monaco-list-row[aria-level]').evaluateAll((els) =>
    els
      .filter((el) =>
        el
          .closest('.pane-body')
          ?.closest('.pane')
          ?.querySelector('.pane-header')
          ?.textContent?.match(/Sessions/i),
      )
      .map((el) => ({
        level: Number(el.getAttribute('aria-level')),
        label: el.querySelector('.label-name')?.textContent?.trim() ?? el.querySelector('.monaco-highlighted-label')?.textContent?.trim(),
        description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
      })),
  );
}

test(
  'lists the sessions folder: this folder and all folders, newest first, states, a subagent under its parent',
  { timeout: 180_000 },
  async () => {
    await showSessionsView(page);
    const shown = await until(
      async () => {
        const r = await rows();
        return r.filter((x) => x.label?.startsWith('Crashed')).length >= 2 && r.some((x) => x.label?.startsWith('Elsewhere'))
          ? r
          : undefined;
      },
      60_000,
      'every generated session listed',
    );
    await suite.shot(page, 'sessions-view');
    console.log(`# rows: ${JSON.stringify(shown)}`);
    const groupIndex = shown.findIndex((r) => r.label?.startsWith('This folder'));
    const allIndex = shown.findIndex((r) => r.label === 'All folders');
    assert.ok(groupIndex >= 0 && allIndex > groupIndex, 'a "This folder" group, then "All folders"');
    const thisFolder = shown.slice(groupIndex + 1, allIndex);
    // Top-level sessions of the workspace folder, newest first (the child sits under its parent).
    const top = thisFolder.filter((r) => r.level === 2).map((r) => r.label);
    assert.deepEqual(
      top,
      SHOWCASE.filter((s) => !s.header?.parentSession).map((s) => shownTitle(s.title)),
    );
    assert.ok(!thisFolder.some((r) => r.label?.startsWith('Elsewhere')), 'another folder\'s session is not in "This folder"');
    const parent = thisFolder.findIndex((r) => r.label?.startsWith('Parent'));
    assert.equal(thisFolder[parent + 1].label, shownTitle('Child: check the changelog'), 'the child follows its parent');
    assert.equal(thisFolder[parent + 1].level, thisFolder[parent].level + 1, 'one level deeper');
    assert.match(thisFolder[parent + 1].description, /subagent/);
    const state = (prefix) => thisFolder.find((r) => r.label?.startsWith(prefix)).description;
    assert.match(state('Live'), /live/);
    assert.match(state('Closed'), /closed/);
    assert.match(state('Crashed'), /crashed/);
    assert.match(state('Refused'), /^refused/);
    assert.match(state('Compressed'), /4 turns/);
    assert.ok(
      shown.slice(allIndex + 1).some((r) => r.label?.startsWith('Elsewhere')),
      '"All folders" holds the other folder\'s session',
    );
  },
);

test('clicking a session opens it in the session editor; the child leads to its parent', { timeout: 180_000 }, async () => {
  await closeAllEditors(page);
  await showSessionsView(page);
  await sessionRow('Compressed: summarise the logs').click();
  await waitForHeader(page);
  const zstd = await readSessionView(page);
  assert.equal(zstd.id, 'zstd-0001');
  assert.equal(zstd.events, 48);
  await suite.shot(page, 'opened-from-view');

  await closeAllEditors(page);
  await sessionRow('Child: check the changelog').click();
  await waitForHeader(page);
  assert.equal((await readSessionView(page)).id, 'child-0001');
  // The seed (seqs 0–3, inherited from the parent) is marked on its rows and named in the header.
  const child = sessionView(page);
  await child.locator('#seed-note').waitFor({ timeout: 30_000 });
  assert.match(
    (await child.locator('#seed-note').innerText()).replace(/\s+/g, ' '),
    /Inherited from the parent session \(seed\): seqs 0–3/,
  );
  assert.match(await child.locator('#lineage').textContent(), /parent-0001/);
  await child.locator('#order-log').click();
  await until(async () => (await child.locator('.row[data-seq="4"]').count()) > 0, 30_000, 'the Full log rows are drawn');
  assert.equal(await child.locator('.row[data-seq="0"]').getAttribute('data-inherited'), 'true');
  assert.equal(await child.locator('.row[data-seq="3"]').getAttribute('data-inherited'), 'true');
  assert.equal(await child.locator('.row[data-seq="4"]').getAttribute('data-inherited'), null);
  assert.match(await child.locator('.row[data-seq="0"]').getAttribute('aria-label'), /inherited from the parent session/);
  await suite.shot(page, 'child-seed');
  await runCommand(page, 'Session Surface: Open Parent Session');
  await until(
    async () => (await page.locator('.tabs-container .tab', { hasText: 'session.jsonl' }).count()) >= 2,
    30_000,
    'the parent opens in a second tab',
  );
  await page.waitForTimeout(500);
  await waitForHeader(page);
  await until(async () => (await readSessionView(page)).id === 'parent-0001', 30_000, 'the parent session is shown');
  await suite.shot(page, 'parent-from-child');
  // The parent's editor links to its one child.
  const parent = sessionView(page);
  await parent.locator('#open-children', { hasText: 'Open child sessions (1)' }).waitFor({ timeout: 30_000 });
  assert.equal(await parent.locator('#seed-note').count(), 0, 'the parent inherited nothing');
  await parent.locator('#open-children').click();
  await until(async () => (await readSessionView(page)).id === 'child-0001', 30_000, 'the child is shown again');
});

test('a missing sessions folder shows where dsh writes its logs', { timeout: 120_000 }, async () => {
  // The folder goes away (as on a machine where dsh never ran); a refresh finds it missing.
  renameSync(ROOT, `${ROOT}.away`);
  try {
    await showSessionsView(page);
    await runCommand(page, 'Session Surface: Refresh Sessions');
    const welcome = page.locator('.welcome-view-content', { hasText: '.dsh/sessions' });
    await welcome.waitFor({ timeout: 60_000 });
    assert.match(await welcome.textContent(), /session\.jsonl/);
    await suite.shot(page, 'welcome-missing-folder');
  } finally {
    renameSync(`${ROOT}.away`, ROOT);
  }
  await runCommand(page, 'Session Surface: Refresh Sessions');
  await sessionRow('Closed: list the files').waitFor({ timeout: 60_000 });
});
