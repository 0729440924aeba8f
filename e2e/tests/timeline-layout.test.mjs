// The timeline's layout and controls as a new user meets them at 1400 px with the inspector open:
//   - no part is drawn over another: a crash tail with Time and As of… open keeps its ghost closers off
//     the panels and at least eight list rows, and "Follow the end" stands under the rows, not on them;
//   - no label of a row is cut to a stub (the notes after the summary are whole or left to the tooltip),
//     and each column head stands over its column;
//   - the list is reached from the header with one tab stop for the three orders (a radio group);
//   - a row's context menu offers the edits and no Cut, Copy or Paste;
//   - an empty reasoning block says it is empty instead of drawing an empty box;
//   - Next Problem (F8) moves the timeline to the problem and opens no text editor beside it.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { SAMPLES, SHARED, sharedFile, startSuite, until } from '../harness.mjs';
import { closeAllEditors } from '../workbench.mjs';
import { openViaCommand, sessionView } from '../session-editor.mjs';
import {
  focusedId,
  inspector,
  rowBySeq,
  selectSeq,
  setOrder,
  waitForListAtRest,
  waitForTimeline,
  webviewContentFrame,
} from '../timeline-page.mjs';
import { cutAtFirstToolCall, openPageRetrying, text } from '../crash-tails.mjs';
import { cutLabelsThroughout, headOffsetsInFrame, overlaps, partBoxesInFrame } from '../row-layout.mjs';
import { scaleLogText } from '../../test/support/log-generator.mjs';

const REAL = 'acp-agent_snapshots_advanced-toolchain_session.hdrfix.jsonl';
const REAL_LOGS = [
  'v0-compaction-replace-recovery.jsonl',
  'v0-crash-tail-repaired-tool-outcome-unknown.jsonl',
  'v0-subagent-fork-child-seeded.jsonl',
  'v0-packed-chunk-rows.jsonl',
];
const V4 = 'v4-catchup-sanitized-headless-run.jsonl';

let suite;
let page;
before(
  async () => {
    const files = [join(SAMPLES, 'session-compaction.jsonl'), join(SAMPLES, 'session-with-errors.jsonl')];
    for (const name of [...REAL_LOGS, V4]) {
      const file = join(SHARED, 'fixtures', 'dsh-real', name);
      if (existsSync(file)) files.push(file);
    }
    const work = mkdtempSync(join(tmpdir(), 'timeline-layout-e2e-'));
    const real = join(SHARED, 'conformance', 'real', REAL);
    if (existsSync(real)) {
      const cut = cutAtFirstToolCall(readFileSync(real, 'utf8').split('\n').filter(Boolean), true);
      writeFileSync(join(work, 'crash-tail.jsonl'), text(cut.lines));
      files.push(join(work, 'crash-tail.jsonl'));
    }
    // A long log: five- and six-digit seqs, and chunk runs such as "10059–10100".
    writeFileSync(join(work, 'scale-10k.jsonl'), scaleLogText({ size: '10k' }).text);
    files.push(join(work, 'scale-10k.jsonl'));
    suite = await startSuite('timeline-layout', { files });
    // A crashed agent's file has been still for a while.
    const past = new Date(Date.now() - 10 * 60_000);
    for (const f of files) utimesSync(join(suite.workspace, basename(f)), past, past);
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

async function open(name) {
  await closeAllEditors(page);
  await openViaCommand(page, join(suite.workspace, name));
  await waitForTimeline(page, 180_000);
}

/** Opens (or leaves open) a panel by its toolbar toggle. */
async function ensurePressed(id) {
  const toggle = sessionView(page).locator(`#${id}`);
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  await until(async () => (await toggle.getAttribute('aria-pressed')) === 'true', 10_000, `${id} pressed`);
}

test(
  'a crash tail with Time and As of… open: nothing is drawn over anything else, and the list keeps eight rows',
  { timeout: 300_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', REAL)) return;
    await open('crash-tail.jsonl');
    await setOrder(page, 'log');
    await ensurePressed('toggle-inspector');
    await ensurePressed('toggle-time');
    await ensurePressed('toggle-asof');
    await sessionView(page).locator('#ghost-rows .ghost-row').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000);
    const frame = await webviewContentFrame(page);
    const { parts, listHeight, viewportHeight } = await frame.evaluate(partBoxesInFrame);
    await suite.shot(page, 'crash-tail-with-panels');
    assert.ok(parts['ghost rows'] && parts['time panel'] && parts['as-of panel'], `all parts drawn: ${Object.keys(parts)}`);
    assert.deepEqual(overlaps(parts), []);
    for (const [name, box] of Object.entries(parts)) assert.ok(box.bottom <= viewportHeight + 1, `${name} ends inside the editor`);
    assert.ok(listHeight >= 8 * 22, `the list shows ${Math.floor(listHeight / 22)} rows`);

    // Away from the end of a log whose last turn is open, "Follow the end" is offered: under the rows.
    await sessionView(page).locator('#timeline-list').focus();
    await page.keyboard.press('Home');
    const follow = sessionView(page).locator('#follow-tail');
    await follow.waitFor({ timeout: 15_000 });
    const button = await follow.boundingBox();
    const rows = await sessionView(page).locator('#timeline-list virtual-rows').boundingBox();
    await suite.shot(page, 'follow-the-end');
    const covered = Math.min(button.y + button.height, rows.y + rows.height) - Math.max(button.y, rows.y);
    assert.ok(covered <= 1, `"Follow the end" covers ${Math.round(covered)}px of the rows`);
  },
);

for (const name of ['session-compaction.jsonl', ...REAL_LOGS, 'scale-10k.jsonl']) {
  test(`${name}: no label is cut to a stub and every column head stands over its column`, { timeout: 300_000 }, async (t) => {
    if (REAL_LOGS.includes(name) && !sharedFile(t, 'fixtures', 'dsh-real', name)) return;
    await open(name);
    await setOrder(page, 'log');
    await ensurePressed('toggle-inspector');
    await waitForListAtRest(page);
    const frame = await webviewContentFrame(page);
    const heads = await frame.evaluate(headOffsetsInFrame);
    for (const [word, px] of Object.entries(heads)) assert.ok(Math.abs(px) <= 1, `the "${word}" head is ${px}px from its column`);
    const { problems, rows } = await cutLabelsThroughout(page, { steps: name === 'scale-10k.jsonl' ? 8 : 60 });
    if (name === 'scale-10k.jsonl') {
      // The end of a long log: its longest seqs and chunk runs.
      await sessionView(page).locator('#timeline-list').focus();
      await page.keyboard.press('End');
      await waitForListAtRest(page);
      problems.push(...(await cutLabelsThroughout(page, { steps: 1, fromTop: false })).problems);
    }
    await suite.shot(page, `labels-${name.slice(0, 30)}`);
    assert.ok(rows > 0);
    assert.deepEqual(problems, []);
  });
}

test(
  'the list is reached from the header with one tab stop for the orders; the arrows choose the order',
  { timeout: 180_000 },
  async () => {
    await open('session-compaction.jsonl');
    await setOrder(page, 'log');
    await sessionView(page).locator('#session-id').click();
    const stops = [];
    for (let i = 0; i < 20 && stops.at(-1) !== 'timeline-list'; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focusedId(page));
    }
    assert.equal(stops.at(-1), 'timeline-list', `the list was reached: ${stops.join(' → ')}`);
    assert.deepEqual(
      stops.filter((s) => s.startsWith('order-')),
      ['order-log'],
      `one stop for the orders, the chosen one: ${stops.join(' → ')}`,
    );
    // The header's jump to the line today's dsh refuses (this v0 sample does not migrate) is content, not a
    // control: the fixed controls before the list are at most eight stops.
    const controls = stops.filter((s) => s !== 'upgrade-reveal');
    assert.ok(stops.includes('upgrade-reveal'), `the refusal's jump is reachable: ${stops.join(' → ')}`);
    assert.ok(controls.length <= 8, `${controls.length} Tab presses to the list besides the refusal's jump: ${stops.join(' → ')}`);
    // In the group, the arrows move and choose.
    await sessionView(page).locator('#order-log').focus();
    await page.keyboard.press('ArrowRight');
    await sessionView(page).locator('#timeline-list[data-order="transcript"]').waitFor({ timeout: 15_000 });
    assert.equal(await focusedId(page), 'order-transcript');
    await page.keyboard.press('ArrowLeft');
    await sessionView(page).locator('#timeline-list[data-order="log"]').waitFor({ timeout: 15_000 });
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'type-filter', 'Tab leaves the group');
  },
);

test("a row's context menu offers the edits, and no Cut, Copy or Paste", { timeout: 180_000 }, async () => {
  await open('session-compaction.jsonl');
  await setOrder(page, 'log');
  const row = sessionView(page).locator('#timeline-list .row[data-surface="node"]').first();
  await row.click();
  await row.click({ button: 'right' });
  const items = page.locator('.context-view .action-label');
  await items.first().waitFor({ timeout: 15_000 });
  const labels = (await items.allInnerTexts()).map((l) => l.trim()).filter(Boolean);
  await suite.shot(page, 'row-context-menu');
  await page.keyboard.press('Escape');
  assert.ok(labels.includes('Compact Range…'), labels.join(', '));
  for (const word of ['Cut', 'Copy', 'Paste']) assert.ok(!labels.includes(word), `the menu offers ${word}: ${labels.join(', ')}`);
});

test('an empty reasoning block says it is empty instead of drawing an empty box', { timeout: 180_000 }, async (t) => {
  if (!sharedFile(t, 'fixtures', 'dsh-real', V4)) return;
  await open(V4);
  await setOrder(page, 'log');
  await ensurePressed('toggle-inspector');
  await selectSeq(page, 18);
  const block = inspector(page).locator('.block.reasoning');
  await block.waitFor({ timeout: 15_000 });
  await suite.shot(page, 'empty-reasoning');
  assert.equal(await block.locator('pre').count(), 0, 'no empty box');
  assert.match(await block.innerText(), /Empty: no text/);
});

test('Next Problem (F8) moves the timeline to the problem and opens no text editor', { timeout: 180_000 }, async () => {
  await open('session-with-errors.jsonl');
  await setOrder(page, 'log');
  await ensurePressed('toggle-inspector');
  await rowBySeq(page, 0).click();
  const groups = await page.locator('.editor-group-container').count();
  await page.keyboard.press('F8');
  const selected = sessionView(page).locator('#timeline-list .row.selected');
  await until(
    async () => (await selected.count()) > 0 && /\bsev-(error|warning|info)\b/.test((await selected.first().getAttribute('class')) ?? ''),
    30_000,
    'the problem row is selected',
  );
  const seq = await selected.first().getAttribute('data-seq');
  await inspector(page)
    .locator('#inspector-title', { hasText: new RegExp(`^seq ${seq} `) })
    .waitFor({ timeout: 15_000 });
  await page.waitForTimeout(3000);
  await suite.shot(page, 'next-problem');
  assert.equal(await page.locator('.editor-instance .monaco-editor .view-lines').count(), 0, 'a text editor opened');
  assert.equal(await page.locator('.editor-group-container').count(), groups, 'the editor was split');
});
