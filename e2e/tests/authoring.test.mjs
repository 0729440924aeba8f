// Authoring through the UI: "Compact Range…" on a copy of a real `.hdrfix` log (quick picks by seq, a
// typed summary, the preview's Apply), the tab turns dirty, nothing is written until Save, and Save
// appends exactly the compaction — the file is the original bytes plus four lines and
// `session-surface check` passes. An append by another process between the edit and the save is
// detected: the save asks, and writes the compaction after the foreign lines. The same on a
// .jsonl.zstd sample (one new frame), and a prune through the UI.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, readFileSync, utimesSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from '../toolchain.mjs';
import { SAMPLES, SHARED, sharedFile, startSuite, until } from '../harness.mjs';
import { closeAllEditors, focusWorkbench, pickQuickItem, runCommand } from '../workbench.mjs';
import { openViaCommand, sessionView, waitForHeader } from '../session-editor.mjs';

const REAL = 'acp-agent_snapshots_advanced-toolchain_session.hdrfix.jsonl';
const CLI = join(REPO, 'bin', 'session-surface.js');

let suite;
let page;
before(
  async () => {
    const real = join(SHARED, 'conformance', 'real', REAL);
    suite = await startSuite('authoring', {
      aged: true,
      files: [join(SAMPLES, 'session-small.jsonl.zstd'), join(SAMPLES, 'session-small.jsonl'), ...(existsSync(real) ? [real] : [])],
    });
    // On a loaded machine the first navigation can outlast playwright's 30 s default: try again.
    for (let attempt = 1; ; attempt++) {
      try {
        ({ page } = await suite.openPage());
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  },
  { timeout: 300_000 },
);
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

const quickInput = () => page.locator('.quick-input-widget input');

/** A copy made now would look like a log an agent is writing (saving to it asks first): make it an hour old. */
function backdate(file) {
  const anHourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(file, anHourAgo, anHourAgo);
}

/** Runs an authoring command until its first quick pick shows (the document may still be loading). */
async function startCommand(title, pickTitle) {
  await until(
    async () => {
      await runCommand(page, title);
      try {
        await page.locator('.quick-input-widget .quick-input-title', { hasText: pickTitle }).waitFor({ timeout: 5_000 });
        return true;
      } catch {
        await page.keyboard.press('Escape');
        return false;
      }
    },
    90_000,
    `${title} offers its first pick`,
  );
}

/** Picks the quick-pick row whose label is exactly `label` (a seq), typing it to bring it into view. */
async function pickSeq(label) {
  await quickInput().fill(String(label));
  await page.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}, "]`).first().click();
}

async function applyPreview() {
  const apply = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Apply' });
  await apply.waitFor({ timeout: 30_000 });
  await suite.shot(page, 'preview');
  await apply.click();
}

const dirtyTab = (name) => page.locator('.tabs-container .tab.dirty', { hasText: name });

async function compactThroughUi(start, end, summary) {
  await startCommand('Session Surface: Compact Range…', 'Compact Range (1/3)');
  await pickSeq(start);
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Compact Range (2/3)' }).waitFor();
  await pickSeq(end);
  await pickQuickItem(page, 'Type the summary');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Compact Range: summary' }).waitFor();
  await quickInput().fill(summary);
  await page.keyboard.press('Enter');
  await applyPreview();
}

/** Saves the session editor: the preview opens beside it (second group) and takes the focus. */
async function save() {
  await runCommand(page, 'View: Focus First Editor Group');
  await runCommand(page, 'File: Save');
}

/** The seqs of a log's surface nodes, in surface order, as `session-surface surface` lists them. */
function surfaceSeqs(file) {
  const surface = execFileSync(process.execPath, [CLI, 'surface', file], { encoding: 'utf8' });
  return [...surface.matchAll(/#\d+ seq (\d+)/g)].map((m) => Number(m[1]));
}

function check(file) {
  return spawnSync(process.execPath, [CLI, 'check', file], { encoding: 'utf8' });
}

/** The lines a file gained after `original` (plain text). */
const appendedLines = (file, original) =>
  readFileSync(file)
    .subarray(original.length)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

test(
  'compact a range of a real log through the UI, save: original bytes plus the compaction, check passes',
  { timeout: 300_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    const file = join(suite.workspace, REAL);
    const original = readFileSync(file);
    await closeAllEditors(page);
    await openViaCommand(page, file);
    await compactThroughUi(4, 5, 'The user asked for the advanced flow; the runtime context was given.');
    await dirtyTab(REAL).waitFor({ timeout: 30_000 });
    assert.deepEqual(readFileSync(file), original, 'nothing is written before Save');
    // The timeline draws the pending events apart from the log's rows, as not in the file yet.
    const pendingRows = sessionView(page).locator('#pending-rows .pending-row');
    await until(async () => (await pendingRows.count()) === 4, 30_000, 'four pending rows in the timeline');
    assert.deepEqual(
      await pendingRows.evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-seq')} ${r.getAttribute('data-type')}`)),
      ['75 compaction/start', '76 compaction/summary', '77 user/message', '78 compaction/end'],
    );
    await suite.shot(page, 'dirty-after-apply');
    await save();
    await until(() => readFileSync(file).length > original.length, 30_000, 'the save appends');
    await until(async () => (await dirtyTab(REAL).count()) === 0, 30_000, 'the tab is clean after saving');
    await until(async () => (await pendingRows.count()) === 0, 30_000, 'no pending rows once saved');
    const bytes = readFileSync(file);
    assert.deepEqual(bytes.subarray(0, original.length), original, 'the original bytes are untouched');
    const lines = appendedLines(file, original);
    assert.deepEqual(
      lines.map((l) => l.type),
      ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'],
    );
    assert.deepEqual(
      lines.map((l) => l.seq),
      [75, 76, 77, 78],
    );
    assert.deepEqual(lines[1].data.summary, [
      { type: 'text', text: 'The user asked for the advanced flow; the runtime context was given.' },
    ]);
    assert.deepEqual(lines[2].surfaceOp, { op: 'replace', start: 4, end: 5 });
    const checked = check(file);
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    await suite.shot(page, 'saved');
  },
);

test(
  'an append by another process between edit and save is detected; the compaction is written after it',
  { timeout: 300_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    const file = join(suite.workspace, REAL);
    await closeAllEditors(page);
    await openViaCommand(page, file);
    const before = readFileSync(file);
    const lastSeq = JSON.parse(before.toString('utf8').trim().split('\n').at(-1)).seq;
    await compactThroughUi(14, 16, 'Defined the Snapshot Marker package.');
    await dirtyTab(REAL).waitFor({ timeout: 30_000 });
    const foreign = [
      { type: 'turn/start', seq: lastSeq + 1, time: 1786553843400, data: { turn: 2 } },
      { type: 'turn/end', seq: lastSeq + 2, time: 1786553843401, data: { turn: 2, reason: { kind: 'completed' } } },
    ]
      .map((e) => JSON.stringify(e) + '\n')
      .join('');
    appendFileSync(file, foreign);
    await save();
    const append = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Append' });
    await append.waitFor({ timeout: 30_000 });
    await suite.shot(page, 'grew-while-editing');
    await append.click();
    await until(() => readFileSync(file).length > before.length + foreign.length, 30_000, 'the save appends after the foreign lines');
    const bytes = readFileSync(file);
    assert.equal(bytes.subarray(0, before.length + foreign.length).toString('utf8'), before.toString('utf8') + foreign);
    const lines = appendedLines(file, Buffer.concat([before, Buffer.from(foreign)]));
    assert.deepEqual(
      lines.map((l) => l.seq),
      [lastSeq + 3, lastSeq + 4, lastSeq + 5, lastSeq + 6],
      'planned again on the new tail',
    );
    const checked = check(file);
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  },
);

test('the same on a .jsonl.zstd log: one new frame', { timeout: 300_000 }, async () => {
  const file = join(suite.workspace, 'session-small.jsonl.zstd');
  const original = readFileSync(file);
  const [first] = surfaceSeqs(file);
  await closeAllEditors(page);
  await openViaCommand(page, file);
  await compactThroughUi(first, first, 'A greeting.');
  await dirtyTab('session-small.jsonl.zstd').waitFor({ timeout: 30_000 });
  assert.deepEqual(readFileSync(file), original);
  await save();
  await until(() => readFileSync(file).length > original.length, 30_000, 'the save appends a frame');
  const bytes = readFileSync(file);
  assert.deepEqual(bytes.subarray(0, original.length), original);
  assert.deepEqual(
    [...bytes.subarray(original.length, original.length + 4)],
    [0x28, 0xb5, 0x2f, 0xfd],
    'a new zstd frame follows the original bytes',
  );
  const checked = check(file);
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  const inspected = JSON.parse(execFileSync(process.execPath, [CLI, 'inspect', '--json', file], { encoding: 'utf8' }).split('\n')[0]);
  assert.equal(inspected.replacements.at(-1).start, first);
});

test('a prune through the UI', { timeout: 300_000 }, async () => {
  // Prune a tool result of the plain sample, if it has one on its surface.
  const plain = join(suite.workspace, 'session-small.jsonl');
  const plainSurface = execFileSync(process.execPath, [CLI, 'surface', plain], { encoding: 'utf8' });
  const result = /seq (\d+) \(line \d+\) tool\/result/.exec(plainSurface);
  if (!result) return;
  const plainOriginal = readFileSync(plain);
  await closeAllEditors(page);
  await openViaCommand(page, plain);
  await startCommand('Session Surface: Prune Tool Result…', 'Prune Tool Result (1/2)');
  await pickSeq(result[1]);
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Prune Tool Result (2/2)' }).waitFor();
  assert.match(await quickInput().inputValue(), /^\[pruned: [\d.]+ (B|KB)\]$/);
  await page.keyboard.press('Enter');
  await applyPreview();
  await dirtyTab('session-small.jsonl').waitFor({ timeout: 30_000 });
  await save();
  await until(() => readFileSync(plain).length > plainOriginal.length, 30_000, 'the prune is appended');
  const pruned = appendedLines(plain, plainOriginal);
  assert.deepEqual(
    pruned.map((l) => l.type),
    ['compaction/prune', 'tool/result'],
  );
  assert.deepEqual(pruned[1].surfaceOp, { op: 'replace', start: Number(result[1]), end: Number(result[1]) });
  assert.equal(check(plain).status, 0);
});

/** Focuses the session editor's tab (not its webview), so workbench keys such as Undo reach it. */
async function focusSessionTab(name) {
  await runCommand(page, 'View: Focus First Editor Group');
  await page.locator('.tabs-container .tab', { hasText: name }).first().click();
}

/**
 * Presses an Undo or Redo key on the session editor's tab until the tab is dirty (or clean) as
 * expected. The workbench ignores an undo while the previous undo or redo of the same editor is
 * still running, so a key pressed too early is pressed again; there is one edit, so a repeated key
 * can never go further than wanted.
 */
async function pressUntil(key, name, dirty) {
  await until(
    async () => {
      await focusSessionTab(name);
      await page.keyboard.press(key);
      try {
        await dirtyTab(name).waitFor({ state: dirty ? 'visible' : 'detached', timeout: 5_000 });
        return true;
      } catch {
        return false;
      }
    },
    45_000,
    `${key} leaves the tab ${dirty ? 'dirty' : 'clean'}`,
  );
}

test('Undo before Save takes the compaction back: the tab is clean and the file untouched', { timeout: 300_000 }, async () => {
  const file = join(suite.workspace, 'session-small.jsonl');
  const original = readFileSync(file);
  const [first] = surfaceSeqs(file);
  await closeAllEditors(page);
  await openViaCommand(page, file);
  await compactThroughUi(first, first, 'Taken back before saving.');
  await dirtyTab('session-small.jsonl').waitFor({ timeout: 30_000 });
  await pressUntil('Control+Z', 'session-small.jsonl', false);
  await suite.shot(page, 'undone');
  // Redo makes it pending again, and Undo once more leaves nothing to save.
  await pressUntil('Control+Shift+Z', 'session-small.jsonl', true);
  await pressUntil('Control+Z', 'session-small.jsonl', false);
  await closeAllEditors(page);
  assert.deepEqual(readFileSync(file), original, 'the file was never written');
});

test('hot exit: a pending compaction survives a window reload and is saved afterwards', { timeout: 300_000 }, async (t) => {
  if (!sharedFile(t, 'conformance', 'real', REAL)) return;
  // A fresh copy: the tests above appended compactions to the first one.
  const name = 'hot-exit.hdrfix.jsonl';
  const file = join(suite.workspace, name);
  copyFileSync(join(SHARED, 'conformance', 'real', REAL), file);
  backdate(file);
  const original = readFileSync(file);
  const lastSeq = JSON.parse(original.toString('utf8').trim().split('\n').at(-1)).seq;
  await closeAllEditors(page);
  await openViaCommand(page, file);
  await compactThroughUi(4, 5, 'Kept across a reload.');
  await dirtyTab(name).waitFor({ timeout: 30_000 });
  // VS Code backs dirty editors up a moment after they change; then the window goes away.
  await page.waitForTimeout(3_000);
  const reloaded = page.waitForEvent('domcontentloaded', { timeout: 90_000 });
  await runCommand(page, 'Developer: Reload Window');
  await reloaded;
  await page.locator('.explorer-folders-view').first().waitFor({ timeout: 90_000 });
  await dirtyTab(name).waitFor({ timeout: 90_000 });
  await waitForHeader(page, 90_000);
  assert.deepEqual(readFileSync(file), original, 'nothing written by the reload');
  await suite.shot(page, 'restored-after-reload');
  await focusSessionTab(name);
  await runCommand(page, 'File: Save');
  await until(() => readFileSync(file).length > original.length, 30_000, 'the restored edit is saved');
  const lines = appendedLines(file, original);
  assert.deepEqual(
    lines.map((l) => l.type),
    ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'],
  );
  assert.deepEqual(
    lines.map((l) => l.seq),
    [lastSeq + 1, lastSeq + 2, lastSeq + 3, lastSeq + 4],
  );
  assert.deepEqual(lines[2].surfaceOp, { op: 'replace', start: 4, end: 5 });
  const checked = check(file);
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
});

test("a range chosen with Shift+click in the timeline is compacted from the rows' context menu", { timeout: 300_000 }, async () => {
  const name = 'range-by-rows.jsonl';
  const file = join(suite.workspace, name);
  copyFileSync(join(SAMPLES, 'session-small.jsonl'), file);
  backdate(file);
  const original = readFileSync(file);
  // The first three surface nodes: the user's message, the answer with its tool call, the call's result.
  const [first, , second] = surfaceSeqs(file);
  await closeAllEditors(page);
  await openViaCommand(page, file);
  const row = (seq) => sessionView(page).locator(`#timeline-list .row[data-seq="${seq}"]`).first();
  await row(first).waitFor({ timeout: 60_000 });
  await row(first).click();
  await row(second).click({ modifiers: ['Shift'] });
  await until(async () => (await sessionView(page).locator('#timeline-list .row.in-range').count()) >= 2, 15_000, 'the range is drawn');
  await row(second).click({ button: 'right' });
  // The menu can swallow a click that lands while it is still opening: click until it closes.
  const item = page.locator('.context-view .action-label', { hasText: 'Compact Range…' }).first();
  await item.waitFor({ timeout: 15_000 });
  await until(
    async () => {
      if (!(await item.isVisible())) return true;
      await item.click({ timeout: 5_000 }).catch(() => {});
      await page.waitForTimeout(500);
      return !(await item.isVisible());
    },
    30_000,
    'Compact Range… chosen from the context menu',
  );
  // Start and end come from the rows: the command goes straight to the summary.
  await pickQuickItem(page, 'Type the summary');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Compact Range: summary' }).waitFor();
  await quickInput().fill('Chosen in the timeline.');
  await page.keyboard.press('Enter');
  await applyPreview();
  await dirtyTab(name).waitFor({ timeout: 30_000 });
  await suite.shot(page, 'range-by-rows-pending');
  await focusSessionTab(name);
  await runCommand(page, 'File: Save');
  await until(() => readFileSync(file).length > original.length, 30_000, 'saved');
  const lines = appendedLines(file, original);
  assert.deepEqual(lines[2].surfaceOp, { op: 'replace', start: first, end: second });
  assert.equal(check(file).status, 0);
});
