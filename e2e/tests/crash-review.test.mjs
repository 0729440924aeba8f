// The crash review in the timeline (code-server + chromium): a real dsh log (a .hdrfix case dsh loads)
// cut mid-turn after a recorded tool/call, before it, mid-line and mid-zstd-frame shows the crash-tail
// banner (crash or live agent), the pending call, ghost closers with the codes the core predicts
// (`repair --dry-run --json`) linked to their calls, and the torn tail with its size and preview; the
// repaired real log of ../shared/fixtures shows its repair rows, the Repairs list jumps to them and the
// repairs filter keeps only them. Health entries jump to their place; Apply Crash Repair… asks first.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED, sharedFile, startSuite, until } from '../harness.mjs';
import { REPO } from '../toolchain.mjs';
import { closeAllEditors } from '../workbench.mjs';
import { openViaCommand, sessionView } from '../session-editor.mjs';
import { focusedId, inspector, listTotal, rowBySeq, setOrder, waitForTimeline } from '../timeline-page.mjs';
import { cutAtFirstToolCall, openPageRetrying, text, zstdLogWithTornFrame } from '../crash-tails.mjs';

const REAL = 'acp-agent_snapshots_advanced-toolchain_session.hdrfix.jsonl';
const REPAIRED = 'v0-crash-tail-repaired-tool-outcome-unknown.jsonl';
const CLI = join(REPO, 'bin', 'session-surface.js');

/** What the core predicts for a file: the open turn, its pending calls and closers. */
function review(file) {
  const out = spawnSync(process.execPath, [CLI, 'repair', '--dry-run', '--json', file], { encoding: 'utf8' });
  return JSON.parse(out.stdout.split('\n')[0]);
}

let suite;
let page;
const files = {};

before(async () => {
  const source = join(SHARED, 'conformance', 'real', REAL);
  const repaired = join(SHARED, 'fixtures', 'dsh-real', REPAIRED);
  if (!existsSync(source) || !existsSync(repaired)) return;
  const lines = readFileSync(source, 'utf8').split('\n').filter(Boolean);
  const recorded = cutAtFirstToolCall(lines, true);
  const unrecorded = cutAtFirstToolCall(lines, false);
  const work = mkdtempSync(join(tmpdir(), 'crash-review-e2e-'));
  const write = (name, content) => {
    writeFileSync(join(work, name), content);
    files[name] = join(work, name);
  };
  write('crash-recorded.jsonl', text(recorded.lines));
  write('crash-unrecorded.jsonl', text(unrecorded.lines));
  write('crash-torn-line.jsonl', text(recorded.lines) + recorded.next.slice(0, Math.floor(recorded.next.length / 2)));
  write('crash-torn-frame.jsonl.zstd', zstdLogWithTornFrame(recorded.lines, recorded.next));
  files[REPAIRED] = repaired;
  suite = await startSuite('crash-review', { files: Object.values(files) });
  // A crashed agent's file has been still for a while.
  const past = new Date(Date.now() - 10 * 60_000);
  for (const name of Object.keys(files)) utimesSync(join(suite.workspace, name), past, past);
  page = await openPageRetrying(suite);
  page.on('pageerror', (e) => console.log('# pageerror', e.message));
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, `FAILED-${t.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
});

const shot = (label) => suite.shot(page, label).catch(() => undefined);
const view = () => sessionView(page);
const banner = () => view().locator('#crash-banner');
const ghosts = () => view().locator('#ghost-rows .ghost-row');

async function open(name) {
  await closeAllEditors(page);
  await openViaCommand(page, join(suite.workspace, name));
  await waitForTimeline(page, 180_000);
}

/** Opens a log whose tail is torn and waits for the torn-tail view of that kind. */
async function openTorn(name, kind) {
  await open(name);
  const tail = view().locator('#torn-tail');
  await tail.waitFor({ timeout: 30_000 });
  assert.equal(await tail.getAttribute('data-kind'), kind);
  return tail;
}

async function ghostRows() {
  return ghosts().evaluateAll((rows) =>
    rows.map((r) => ({
      seq: Number(r.getAttribute('data-seq')),
      type: r.getAttribute('data-type'),
      code: r.getAttribute('data-code') ?? undefined,
      name: r.getAttribute('aria-label'),
      link: r.querySelector('.ghost-link')?.getAttribute('data-target'),
    })),
  );
}

/** The ghost closers shown equal the closers the core predicts, codes and links included. */
async function assertGhosts(file) {
  const plan = review(file).openTurn;
  await ghosts().first().waitFor({ timeout: 30_000 });
  const shown = await ghostRows();
  assert.deepEqual(
    shown.map((g) => [g.seq, g.type, g.code]),
    plan.closers.map((c) => [c.seq, c.type, c.code]),
  );
  for (const g of shown) assert.match(g.name, new RegExp(`^seq ${g.seq} ${g.type}, not in the file yet`));
  const call = plan.pendingCalls[0];
  assert.equal(Number(shown[0].link), call.callSeq ?? call.messageSeq, 'the tool/result ghost links to its call');
  return plan;
}

test(
  'cut after a recorded tool/call: the banner says crash, the pending call, ghost closers with TOOL_OUTCOME_UNKNOWN; the link selects the call',
  { timeout: 300_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    await open('crash-recorded.jsonl');
    await banner().waitFor({ timeout: 30_000 });
    assert.equal(await banner().getAttribute('data-activity'), 'still');
    assert.match(await view().locator('#crash-heading').textContent(), /Turn 1 is open: it looks like a crash/);
    // The header says the same as the banner: not "Live".
    assert.match(await view().locator('#live-status').textContent(), /nothing is being written: it looks like a crash/);
    // So does the status bar.
    await page
      .locator('.statusbar-item', { hasText: /dsh opens this log.*looks like a crash/ })
      .first()
      .waitFor({ timeout: 10_000 });
    assert.match(await view().locator('#crash-activity').textContent(), /has not changed for \d+ min/);
    const pending = view().locator('#pending-calls li');
    assert.equal(await pending.count(), 1);
    assert.equal(await pending.first().getAttribute('data-code'), 'TOOL_OUTCOME_UNKNOWN');
    assert.match(await pending.first().textContent(), /cordis_define call "advanced-define"/);
    assert.equal(await view().locator('#remove-torn-tail').count(), 0, 'no torn tail, no removal offered');
    const plan = await assertGhosts(join(suite.workspace, 'crash-recorded.jsonl'));
    assert.equal(plan.closers[0].code, 'TOOL_OUTCOME_UNKNOWN');
    assert.match(await ghosts().first().textContent(), /recorded as started, but its result never was/);
    await shot('recorded-banner-and-ghosts');
    // Following the ghost's link selects its call, like a provenance link; the keyboard reaches it too.
    const callSeq = plan.pendingCalls[0].callSeq;
    // From the list's last row, Down reaches the ghost rows; Up goes back; Enter follows the link.
    await sessionView(page).locator('#timeline-list').focus();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowDown');
    await until(async () => /not in the file yet/.test(await focusedId(page)), 10_000, 'Down from the last row reaches the ghosts');
    await page.keyboard.press('ArrowUp');
    await until(async () => (await focusedId(page)) === 'timeline-list', 10_000, 'Up from the first ghost is the list again');
    await page.keyboard.press('ArrowDown');
    await until(async () => /not in the file yet/.test(await focusedId(page)), 10_000, 'the ghosts again');
    await page.keyboard.press('Enter');
    await until(
      async () => (await rowBySeq(page, callSeq).getAttribute('aria-selected')) === 'true',
      15_000,
      'the tool/call row is selected',
    );
    await inspector(page)
      .locator('#inspector-title', { hasText: new RegExp(`^seq ${callSeq} `) })
      .waitFor({ timeout: 15_000 });
    // In the Model view only the tool result closer is a message.
    await setOrder(page, 'surface');
    assert.deepEqual(
      (await ghostRows()).map((g) => g.type),
      ['tool/result'],
    );
    await setOrder(page, 'log');
  },
);

test('a health entry jumps to its place; Apply Crash Repair… is an action that asks first', { timeout: 240_000 }, async (t) => {
  if (!sharedFile(t, 'conformance', 'real', REAL)) return;
  const file = join(suite.workspace, 'crash-recorded.jsonl');
  const plan = review(file).openTurn;
  if (!(await banner().count())) await open('crash-recorded.jsonl');
  await view().locator('#health-entries summary').click();
  const entry = view().locator('#health-entries .health-entry[data-kind="pending-call"] .health-link');
  await entry.click();
  const callSeq = plan.pendingCalls[0].callSeq;
  await until(
    async () => (await rowBySeq(page, callSeq).getAttribute('aria-selected')) === 'true',
    15_000,
    'the pending call row is selected',
  );
  const before = readFileSync(file);
  await view().locator('#apply-crash-repair').click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  assert.match((await dialog.textContent()) ?? '', /crash repair/i);
  await shot('apply-asks-first');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: 15_000 });
  assert.deepEqual(readFileSync(file), before, 'nothing is written without a yes');
});

test(
  'cut before the tool/call, the file just touched: a live agent, and a TOOL_NOT_STARTED ghost linked to the asking message',
  { timeout: 240_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    const file = join(suite.workspace, 'crash-unrecorded.jsonl');
    const now = new Date();
    utimesSync(file, now, now);
    await open('crash-unrecorded.jsonl');
    await banner().waitFor({ timeout: 30_000 });
    assert.equal(await banner().getAttribute('data-activity'), 'growing');
    assert.match(await view().locator('#crash-heading').textContent(), /it looks like a live agent/);
    assert.match(await view().locator('#live-status').textContent(), /^Live/);
    const plan = await assertGhosts(file);
    assert.equal(plan.closers[0].code, 'TOOL_NOT_STARTED');
    assert.equal(plan.pendingCalls[0].callSeq, undefined);
    assert.match(await ghosts().first().textContent(), /never recorded as started, so it did not run/);
    await shot('unrecorded-live');
  },
);

test(
  'cut mid-line: the torn tail with its size and an inert preview, Remove Torn Tail… offered, ghost closers still shown',
  { timeout: 240_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    const tail = await openTorn('crash-torn-line.jsonl', 'torn-line');
    assert.match(await view().locator('#torn-heading').textContent(), /Torn last line: \d+ bytes at line \d+ with no newline/);
    assert.match(await view().locator('#torn-preview').textContent(), /^\{"type":/);
    assert.match(await view().locator('#torn-kept').textContent(), /^kept: /);
    await view().locator('#remove-torn-tail').waitFor();
    assert.match(await view().locator('#repair-blocked').textContent(), /Remove the torn tail first/);
    await assertGhosts(join(suite.workspace, 'crash-torn-line.jsonl'));
    // The torn-tail health entry brings the tail into view and focuses it.
    await view().locator('#health-entries summary').click();
    await view().locator('#health-entries .health-entry[data-kind="torn-tail"] .health-link').click();
    await until(async () => await tail.evaluate((el) => document.activeElement === el), 10_000, 'the torn tail is focused');
    await shot('torn-line');
  },
);

test(
  'cut mid-zstd-frame: the torn final frame with a hex preview, ghost closers from the complete frames',
  { timeout: 240_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    await openTorn('crash-torn-frame.jsonl.zstd', 'torn-frame');
    assert.match(await view().locator('#torn-heading').textContent(), /Torn final zstd frame: \d+ bytes of compressed data at byte \d+/);
    assert.match(await view().locator('#torn-preview').textContent(), /^28 b5 2f fd/);
    await assertGhosts(join(suite.workspace, 'crash-torn-frame.jsonl.zstd'));
    await shot('torn-frame');
  },
);

test(
  'the repaired real log: its closers and seed are marked as repairs, the Repairs list jumps to them, the filter keeps only them',
  { timeout: 240_000 },
  async (t) => {
    if (!sharedFile(t, 'fixtures', 'dsh-real', REPAIRED)) return;
    const made = review(join(suite.workspace, REPAIRED)).repairsMade;
    assert.equal(made.length, 1);
    const [repair] = made;
    await open(REPAIRED);
    await setOrder(page, 'log');
    assert.equal(await banner().count(), 0, 'a closed log has no crash banner');
    for (const seq of repair.closerSeqs)
      assert.equal(await rowBySeq(page, seq).getAttribute('data-repair'), 'closer', `seq ${seq} is a repair`);
    assert.equal(await rowBySeq(page, repair.endSeedSeq).getAttribute('data-repair'), 'seed');
    assert.match(await rowBySeq(page, repair.closerSeqs[0]).getAttribute('aria-label'), /written by a crash repair/);
    const list = view().locator('#repairs-list');
    await list.waitFor({ timeout: 30_000 });
    assert.match(await list.textContent(), /turn 1 closed by crash repair at seqs 5–7: TOOL_OUTCOME_UNKNOWN for "unknown-outcome-call"/);
    await list.locator('.repair-link').first().click();
    await until(
      async () => (await rowBySeq(page, repair.closerSeqs[0]).getAttribute('aria-selected')) === 'true',
      15_000,
      'the first closer is selected',
    );
    await shot('repaired-rows-and-list');
    await view().locator('#type-filter').selectOption('repairs');
    await until(async () => (await listTotal(page)) === repair.closerSeqs.length + 1, 15_000, 'only the repair rows are listed');
    await waitForTimeline(page);
    const seqs = await view()
      .locator('#timeline-list .row:not(.placeholder)')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));
    assert.deepEqual(
      seqs.sort((a, b) => a - b),
      [...repair.closerSeqs, repair.endSeedSeq],
    );
    await shot('repairs-filter');
    await view().locator('#type-filter').selectOption('');
  },
);

test('the banner and ghost rows in the dark and high-contrast themes (screenshots for people)', { timeout: 240_000 }, async (t) => {
  if (!sharedFile(t, 'conformance', 'real', REAL)) return;
  const settingsDir = join(suite.workspace, '.vscode');
  mkdirSync(settingsDir, { recursive: true });
  await open('crash-torn-line.jsonl');
  await ghosts().first().waitFor({ timeout: 30_000 });
  for (const [name, theme, cls] of [
    ['dark', 'Default Dark Modern', /\bvs-dark\b/],
    ['high-contrast', 'Default High Contrast', /\bhc-black\b/],
  ]) {
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({ 'workbench.colorTheme': theme }));
    await until(async () => cls.test((await page.locator('.monaco-workbench').getAttribute('class')) ?? ''), 30_000, `the ${theme} theme`);
    await page.waitForTimeout(1500);
    await shot(`theme-${name}`);
  }
  writeFileSync(join(settingsDir, 'settings.json'), '{}');
});
