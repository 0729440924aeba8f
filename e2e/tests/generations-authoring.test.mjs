// Authoring and crash repair on a log of today's dsh (format v4) through the UI: Compact Range… writes
// v4's syntax (`{op, startSeq, endSeq}`, the compact-checkpoint source) and, once saved, the core
// reads back the surface and the derived messages the preview promised; the protected system head is
// never offered, has no Compact Range… in its row's menu, and a range chosen over it is refused with
// the reason in the preview; Apply Crash Repair on an open v4 turn appends v4's tool-role closers.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite, until } from '../harness.mjs';
import { REPO } from '../toolchain.mjs';
import { closeAllEditors, pickQuickItem, quickOpen, runCommand } from '../workbench.mjs';
import { openViaCommand, sessionView, waitForHeader } from '../session-editor.mjs';
import { revealRow, rowBySeq, setOrder } from '../timeline-page.mjs';
import { crashedV4Text, generatedV4Text } from '../generation-samples.mjs';

const CLI = join(REPO, 'bin', 'session-surface.js');
const COMPACT = 'compact-v4.jsonl';
const HEAD = 'head-v4.jsonl';
const CRASHED = 'crashed-v4.jsonl';

let suite;
let page;
let crash;
before(
  async () => {
    const made = mkdtempSync(join(tmpdir(), 'generations-authoring-'));
    crash = crashedV4Text();
    writeFileSync(join(made, COMPACT), generatedV4Text());
    writeFileSync(join(made, HEAD), generatedV4Text());
    writeFileSync(join(made, CRASHED), crash.text);
    suite = await startSuite('generations-authoring', { files: [COMPACT, HEAD, CRASHED].map((n) => join(made, n)), aged: true });
    ({ page } = await suite.openPage());
  },
  { timeout: 300_000 },
);
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, `FAILED-${t.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
});

const cli = (...args) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
const inspect = (file) => JSON.parse(cli('inspect', '--json', file).split('\n')[0]);
const derivedCount = (file) => JSON.parse(cli('derive', '--json', file).split('\n')[0]).messages.length;
const quickInput = () => page.locator('.quick-input-widget input');
const dialog = () => page.locator('.monaco-dialog-box');

/** Runs an authoring command until its first quick pick shows (the document may still be loading). */
async function startCompactRange() {
  await until(
    async () => {
      await runCommand(page, 'Session Surface: Compact Range…');
      try {
        await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Compact Range (1/3)' }).waitFor({ timeout: 5_000 });
        return true;
      } catch {
        await page.keyboard.press('Escape');
        return false;
      }
    },
    90_000,
    'Compact Range… offers its first pick',
  );
}

const seqRow = (seq) => page.locator(`.quick-input-list .monaco-list-row[aria-label^="${seq}, "]`).first();

async function typeSummary(text) {
  await pickQuickItem(page, 'Type the summary');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Compact Range: summary' }).waitFor();
  await quickInput().fill(text);
  await page.keyboard.press('Enter');
}

test(
  'Compact Range… on a v4 log: v4 syntax, and after Save the core reads back the surface the preview promised',
  { timeout: 300_000 },
  async () => {
    const file = join(suite.workspace, COMPACT);
    const original = readFileSync(file);
    const before = inspect(file);
    const [head, first] = before.surface;
    const cut = before.balancedCuts.find((c) => c >= 3);
    const last = before.surface[cut - 1];
    await closeAllEditors(page);
    await openViaCommand(page, file);
    await waitForHeader(page);
    await startCompactRange();
    const title = await page.locator('.quick-input-widget .quick-input-title').textContent();
    assert.match(title, new RegExp(`seq ${head}, the protected system head, cannot be hidden`));
    await quickInput().fill(String(head));
    await page.waitForTimeout(500);
    assert.equal(await seqRow(head).count(), 0, 'the protected head is not offered');
    await quickInput().fill(String(first));
    await seqRow(first).click();
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Compact Range (2/3)' }).waitFor();
    await quickInput().fill(String(last));
    await seqRow(last).click();
    await typeSummary('The first turns of the fork, summarised.');
    const apply = dialog().locator('.monaco-button', { hasText: 'Apply' });
    await apply.waitFor({ timeout: 30_000 });
    const promised = (await dialog().textContent()) ?? '';
    const [, hidden] = /(\d+) surface nodes? hidden/.exec(promised);
    const [, messagesBefore, messagesAfter] = /derived messages (\d+) → (\d+)/.exec(promised);
    await suite.shot(page, 'v4-compact-preview');
    await apply.click();
    await page.locator('.tabs-container .tab.dirty', { hasText: COMPACT }).waitFor({ timeout: 30_000 });
    assert.deepEqual(readFileSync(file), original, 'nothing is written before Save');
    await runCommand(page, 'View: Focus First Editor Group');
    await runCommand(page, 'File: Save');
    await until(() => readFileSync(file).length > original.length, 30_000, 'the save appends');
    const lines = readFileSync(file)
      .subarray(original.length)
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => l.type),
      ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'],
    );
    const checkpoint = lines[2];
    assert.deepEqual(checkpoint.surfaceOp, { op: 'replace', startSeq: first, endSeq: last });
    assert.equal(checkpoint.data.source.kind, 'compact-checkpoint');
    // What the core reads back is what the preview said.
    const after = inspect(file);
    assert.equal(after.ok, true);
    assert.equal(after.upgrade.ok, true, 'today’s dsh opens the log with the compaction');
    assert.equal(Number(messagesBefore), derivedCount(join(suite.workspace, HEAD)));
    assert.equal(derivedCount(file), Number(messagesAfter));
    assert.equal(before.surface.length - Number(hidden) + 1, after.surface.length);
    assert.deepEqual(after.surface, [head, checkpoint.seq, ...before.surface.slice(cut)]);
    assert.equal(spawnSync(process.execPath, [CLI, 'check', file]).status, 0);
    await suite.shot(page, 'v4-compact-saved');
  },
);

test(
  'the protected system head: no Compact Range… on its row, and a range over it is refused with the reason',
  { timeout: 300_000 },
  async () => {
    const file = join(suite.workspace, HEAD);
    const original = readFileSync(file);
    const [head, , second] = inspect(file).surface;
    await closeAllEditors(page);
    await openViaCommand(page, file);
    await waitForHeader(page);
    await setOrder(page, 'log');
    await revealRow(page, head);
    assert.equal(await rowBySeq(page, head).getAttribute('data-system-head'), 'true');
    const menuItem = page.locator('.context-view .action-label', { hasText: 'Compact Range…' });
    // A surface node's row offers Compact Range…; the head's row offers nothing (its menu has no entries).
    await revealRow(page, second);
    await rowBySeq(page, second).click({ button: 'right' });
    await menuItem.first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    await menuItem.first().waitFor({ state: 'hidden', timeout: 15_000 });
    await revealRow(page, head);
    await rowBySeq(page, head).click({ button: 'right' });
    await page.waitForTimeout(1_500);
    assert.equal(await menuItem.count(), 0, 'the head’s own row offers no compaction');
    await page.keyboard.press('Escape');
    // Chosen as the start of a range with Shift+click, the head makes the plan refuse, saying why.
    await rowBySeq(page, head).click();
    await revealRow(page, second);
    await rowBySeq(page, second).click({ modifiers: ['Shift'] });
    await rowBySeq(page, second).click({ button: 'right' });
    await menuItem.first().waitFor({ timeout: 15_000 });
    await until(
      async () => {
        if (!(await menuItem.first().isVisible())) return true;
        await menuItem
          .first()
          .click({ timeout: 5_000 })
          .catch(() => {});
        await page.waitForTimeout(500);
        return !(await menuItem.first().isVisible());
      },
      30_000,
      'Compact Range… chosen from the context menu',
    );
    await typeSummary('This must not hide the system prompt.');
    await dialog().waitFor({ timeout: 30_000 });
    const refused = (await dialog().textContent()) ?? '';
    await suite.shot(page, 'v4-head-refused');
    assert.match(refused, /cannot be applied/);
    assert.match(refused, new RegExp(`seq ${head} is the protected system head`));
    await dialog().locator('.monaco-button').first().click();
    assert.deepEqual(readFileSync(file), original, 'nothing was written');
    assert.equal(await sessionView(page).locator('#pending-rows .pending-row').count(), 0);
  },
);

test('Apply Crash Repair on an open v4 turn appends v4’s tool-role closers', { timeout: 240_000 }, async () => {
  const file = join(suite.workspace, CRASHED);
  const past = new Date(Date.now() - 10 * 60_000);
  utimesSync(file, past, past);
  const before = readFileSync(file);
  await closeAllEditors(page);
  await quickOpen(page, CRASHED);
  await runCommand(page, 'Session Surface: Apply Crash Repair');
  await dialog().waitFor({ timeout: 30_000 });
  const shown = (await dialog().textContent()) ?? '';
  assert.match(shown, /TOOL_OUTCOME_UNKNOWN/);
  await suite.shot(page, 'v4-crash-repair-modal');
  await dialog().locator('.monaco-button', { hasText: 'Append Closers' }).first().click();
  await until(() => readFileSync(file).length > before.length, 30_000, 'the closers are appended');
  const closers = readFileSync(file)
    .subarray(before.length)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    closers.map((c) => c.type),
    ['tool/result', 'step/end', 'turn/end'],
  );
  const result = closers[0].data;
  assert.equal(result.message.role, 'tool', 'a v4 tool-role result');
  assert.equal(result.message.toolCallId, crash.callId);
  assert.equal(result.message.source.callId, crash.callId);
  assert.equal(result.error.code, 'TOOL_OUTCOME_UNKNOWN');
  assert.deepEqual(closers[0].sourceEventSeqs, [crash.callSeq]);
  assert.deepEqual(closers[2].data.reason, { kind: 'interrupted' });
  const after = inspect(file);
  assert.equal(after.ok, true);
  assert.equal(after.upgrade.ok, true, 'today’s dsh opens the repaired log');
  assert.deepEqual(after.closers, [], 'no turn is left open');
});
