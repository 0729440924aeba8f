// The timeline in a real VS Code (code-server + chromium), on the project's own samples and on real
// dsh logs: the compaction's shadowed bracket and replacement, chunk and call/result links, the Model
// view against `session-surface derive`, surface as of a seq, Reveal in Text Editor, host-side search
// of an off-screen string, and keyboard-only use. The hostile-content test is in timeline-safety.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { SAMPLES, SHARED, sharedFile, startSuite, until } from '../harness.mjs';
import { REPO } from '../toolchain.mjs';
import { closeAllEditors, focusWorkbench, quickOpen } from '../workbench.mjs';
import { openViaCommand, sessionView } from '../session-editor.mjs';
import { STREAMED_MARKER, writeTimelineSamples } from '../timeline-samples.mjs';
import {
  activeRowSeq,
  drawnRows,
  focusedId,
  inspector,
  list,
  listTotal,
  revealRow,
  rowBySeq,
  selectSeq,
  setOrder,
  waitForListAtRest,
  waitForTimeline,
  webviewContentFrame,
} from '../timeline-page.mjs';

// Real logs dsh loads, chosen for what they hold: streamed chunks with tool calls, several turns.
const REAL = [
  'acp-agent_snapshots_code-mode-turn_session.hdrfix.jsonl',
  'acp-agent_snapshots_bash-tool-turn_session.hdrfix.jsonl',
  'web_snapshots_goal-multi-turn-actions_session.hdrfix.jsonl',
  // A compaction dsh made itself: one user message shadowed by the checkpoint at seq 21.
  'headless-agent_snapshots_compaction-recovery_session.hdrfix.jsonl',
];
const realFiles = () => REAL.map((f) => join(SHARED, 'conformance', 'real', f)).filter((f) => existsSync(f));

const generated = mkdtempSync(join(tmpdir(), 'timeline-samples-'));
const [compaction, , long] = writeTimelineSamples(generated);

let suite;
let page;
before(async () => {
  suite = await startSuite('timeline', { files: [compaction, long, join(SAMPLES, 'session-small.jsonl'), ...realFiles()] });
  ({ page } = await suite.openPage());
  page.on('pageerror', (e) => console.log('# pageerror', e.message));
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, `FAILED-${t.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
});

/** Screenshots are artifacts for people, not assertions: a slow one never fails a test. */
const shot = (label) => suite.shot(page, label).catch(() => undefined);

async function open(file) {
  await closeAllEditors(page);
  await openViaCommand(page, join(suite.workspace, file));
  await waitForTimeline(page, 180_000);
}

function derive(file) {
  const out = execFileSync(process.execPath, [join(REPO, 'bin', 'session-surface.js'), 'derive', '--json', file], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n')[0]).messages;
}

const roleOf = (type) =>
  type.startsWith('assistant/')
    ? 'assistant'
    : type.startsWith('system/')
      ? 'system'
      : type.startsWith('developer/')
        ? 'developer'
        : 'user';

test('the compaction log shows its shadowed bracket, the replacement and the shadowed nodes marked', { timeout: 180_000 }, async () => {
  await open('session-compaction.jsonl');
  await setOrder(page, 'log');
  const bracket = sessionView(page).getByRole('group', { name: 'Shadowed by seq 38 (8 events)' });
  await revealRow(page, 38);
  await bracket.waitFor({ timeout: 15_000 });
  assert.equal(await rowBySeq(page, 38).getAttribute('data-type'), 'user/message');
  for (const seq of [2, 4, 6, 9, 14, 16, 18, 21]) {
    await revealRow(page, seq);
    assert.equal(await rowBySeq(page, seq).getAttribute('data-surface'), 'shadowed', `seq ${seq} is shadowed`);
    assert.equal(await rowBySeq(page, seq).getAttribute('data-shadowed-by'), '38');
  }
  await revealRow(page, 28);
  assert.equal(await rowBySeq(page, 28).getAttribute('data-surface'), 'node');
  await revealRow(page, 38);
  await bracket.locator('.bracket-head').click();
  await until(async () => (await bracket.locator('.bracket-row').count()) === 8, 15_000, 'the bracket lists its 8 shadowed nodes');
  assert.deepEqual(
    await bracket.locator('.bracket-row').evaluateAll((a) => a.map((x) => Number(x.getAttribute('data-seq')))),
    [2, 4, 6, 9, 14, 16, 18, 21],
  );
  await shot('compaction-bracket-log');
  // In the Model view the replacement sits at its surface position (first), with its bracket.
  await setOrder(page, 'surface');
  const rows = await drawnRows(page);
  assert.equal(rows[0].seq, 38, 'the checkpoint replaces the first surface nodes');
  await sessionView(page).getByRole('group', { name: 'Shadowed by seq 38 (8 events)' }).waitFor();
  await shot('compaction-bracket-model');
});

test('Model view lists exactly the derived messages, in order (the compaction sample)', { timeout: 120_000 }, async () => {
  await open('session-compaction.jsonl');
  await setOrder(page, 'surface');
  const messages = derive(join(suite.workspace, 'session-compaction.jsonl'));
  assert.equal(await listTotal(page), messages.length);
  const rows = await drawnRows(page);
  assert.deepEqual(
    rows.map((r) => r.messageIndex),
    messages.map((_, i) => i),
  );
  assert.deepEqual(
    rows.map((r) => roleOf(r.type)),
    messages.map((m) => m.role),
  );
});

test('selecting an assistant/message shows and highlights its chunk links', { timeout: 120_000 }, async () => {
  await open('session-compaction.jsonl');
  await setOrder(page, 'log');
  await selectSeq(page, 50);
  const links = inspector(page).locator('a.link[data-relation="chunk"]');
  await until(async () => (await links.count()) > 0, 15_000, 'chunk links in the inspector');
  const targets = await links.evaluateAll((a) => a.map((x) => Number(x.getAttribute('data-target'))));
  for (const seq of [43, 44, 45, 46]) assert.ok(targets.includes(seq), `chunk ${seq} is linked (got ${targets})`);
  // The list marks the linked rows (a packed run row counts for its chunks).
  await until(async () => (await sessionView(page).locator('#timeline-list .row.linked').count()) > 0, 10_000, 'linked rows highlighted');
  await shot('assistant-chunk-links');
});

test('tool/call and tool/result link to each other, and links are followed with the keyboard and back', { timeout: 120_000 }, async () => {
  await open('session-compaction.jsonl');
  await setOrder(page, 'log');
  await selectSeq(page, 29);
  const toResult = inspector(page).locator('a.link[data-relation="result"][data-target="30"]');
  await toResult.waitFor({ timeout: 15_000 });
  await toResult.focus();
  await page.keyboard.press('Enter');
  await inspector(page)
    .locator('#inspector-title', { hasText: /^seq 30 tool\/result/ })
    .waitFor({ timeout: 15_000 });
  await inspector(page).locator('a.link[data-relation="answers"][data-target="29"]').waitFor({ timeout: 15_000 });
  await page.keyboard.press('Alt+ArrowLeft');
  await inspector(page)
    .locator('#inspector-title', { hasText: /^seq 29 tool\/call/ })
    .waitFor({ timeout: 15_000 });
  await page.keyboard.press('Alt+ArrowRight');
  await inspector(page)
    .locator('#inspector-title', { hasText: /^seq 30 tool\/result/ })
    .waitFor({ timeout: 15_000 });
  await shot('call-result-links');
});

test('surface as of a seq before the compaction differs from after, and the diff says how', { timeout: 120_000 }, async () => {
  await open('session-compaction.jsonl');
  const view = sessionView(page);
  await view.locator('#toggle-asof').click();
  await view.locator('#asof-seq').fill('35');
  await view.locator('#asof-show').click();
  const before = await view
    .locator('#asof-result[data-as-of="35"]')
    .waitFor({ timeout: 15_000 })
    .then(() => view.locator('#asof-result'));
  const beforeMessages = Number(await before.getAttribute('data-messages'));
  await view.locator('#asof-seq').fill('39');
  await view.locator('#asof-show').click();
  await view.locator('#asof-result[data-as-of="39"]').waitFor({ timeout: 15_000 });
  const afterMessages = Number(await view.locator('#asof-result').getAttribute('data-messages'));
  assert.equal(beforeMessages, 12, 'three turns of four messages before the compaction');
  assert.equal(afterMessages, 5, 'the checkpoint and turn 3 after it');
  await view.locator('#diff-from').fill('35');
  await view.locator('#diff-to').fill('39');
  await view.locator('#diff-show').click();
  const diff = view.locator('#diff-result');
  await diff.waitFor({ timeout: 15_000 });
  assert.equal(await diff.getAttribute('data-removed'), '8');
  assert.equal(await diff.getAttribute('data-added'), '1');
  await shot('surface-as-of-diff');
  await view.locator('#toggle-asof').click();
});

test("Reveal in Text Editor opens the log at the event's line", { timeout: 120_000 }, async () => {
  await open('session-compaction.jsonl');
  await setOrder(page, 'log');
  await selectSeq(page, 38);
  await inspector(page).locator('#reveal-line').click();
  // The compaction's replacing user/message is line 40 of the file (header line 1, seq 0 on line 2).
  const status = page.locator('.statusbar-item[id="status.editor.selection"]');
  await until(async () => /Ln 40,/.test((await status.textContent().catch(() => '')) ?? ''), 30_000, 'the text editor at line 40');
  await shot('reveal-line-40');
});

test('hidden and shown again, the timeline comes back in the same order, with the same event selected', { timeout: 180_000 }, async () => {
  await open('session-compaction.jsonl');
  await setOrder(page, 'surface');
  await selectSeq(page, 38);
  // Another editor in the same group hides the session webview, which VS Code then discards.
  await quickOpen(page, 'session-small.jsonl');
  await until(
    async () => (await page.locator('iframe.webview').count()) === 0 || !(await page.locator('iframe.webview').first().isVisible()),
    30_000,
    'the session webview hidden',
  );
  await page.locator('.tabs-container .tab', { hasText: 'session-compaction.jsonl' }).first().click();
  await waitForTimeline(page);
  await sessionView(page).locator('#timeline-list[data-order="surface"]').waitFor({ timeout: 30_000 });
  await inspector(page)
    .locator('#inspector-title', { hasText: /^seq 38 / })
    .waitFor({ timeout: 30_000 });
  await shot('state-after-hide-show');
});

test('search finds a string that is off screen, with a match count, and scrolls to it', { timeout: 180_000 }, async () => {
  await open('session-long.jsonl');
  await setOrder(page, 'log');
  const target = await sessionView(page).locator(`#timeline-list .row[data-seq="963"]`).count();
  assert.equal(target, 0, 'the matching event is not drawn before the search');
  await sessionView(page).locator('#search-input').fill(STREAMED_MARKER);
  await sessionView(page).locator('#search-input').press('Enter');
  await until(
    async () => /of \d+|\d+ match/.test((await sessionView(page).locator('#search-status').textContent()) ?? ''),
    30_000,
    'a match count',
  );
  const status = await sessionView(page).locator('#search-status').textContent();
  assert.match(status ?? '', /\d/);
  const selected = sessionView(page).locator('#timeline-list .row.selected');
  await selected.waitFor({ timeout: 15_000 });
  const seq = Number(await selected.getAttribute('data-seq'));
  assert.ok(seq > 900 && seq < 1000, `the match is in the middle of the log (seq ${seq})`);
  await shot('search-off-screen');
});

test('scrolling the list keeps each row that stays in view in its own element, at its own place', { timeout: 180_000 }, async () => {
  await open('session-long.jsonl');
  await setOrder(page, 'log');
  // A closed log opens at its start; with nothing being written there is no end to follow.
  assert.equal(await sessionView(page).locator('#follow-tail').count(), 0);
  const frame = await webviewContentFrame(page);
  const scroller = list(page).locator('virtual-rows');
  await scroller.evaluate((el) => {
    el.scrollTop = Math.round(el.scrollHeight / 2);
  });
  await waitForListAtRest(page);
  // Every drawn row element is marked with the seq it shows.
  const before = await frame.evaluate(() =>
    [...document.querySelectorAll('#timeline-list .row[data-seq]')].map((row) => {
      row.shownSeq = Number(row.dataset.seq);
      return row.shownSeq;
    }),
  );
  assert.ok(before.length > 10, `rows are drawn (${before.length})`);
  // Three rows up, as a user drags the scroll bar.
  const moved = await scroller.evaluate((el) => {
    const was = el.scrollTop;
    el.scrollTop = was - 66;
    return { was, now: el.scrollTop, height: el.scrollHeight };
  });
  assert.equal(moved.was - moved.now, 66, `the list scrolled (${JSON.stringify(moved)})`);
  await until(
    async () =>
      !(await frame.evaluate(
        (seqs) => [...document.querySelectorAll('#timeline-list .row[data-seq]')].every((r) => seqs.includes(Number(r.dataset.seq))),
        before,
      )),
    10_000,
    'rows come into view',
  );
  await waitForListAtRest(page);
  const after = await frame.evaluate(() => {
    const rows = [...document.querySelectorAll('#timeline-list .row[data-seq]')];
    const total = Number(document.querySelector('#timeline-list').dataset.total);
    return {
      total,
      rows: rows.map((row) => ({
        seq: Number(row.dataset.seq),
        index: Number(row.dataset.index),
        top: row.getBoundingClientRect().top,
        markedWith: row.shownSeq,
        posInSet: Number(row.getAttribute('aria-posinset')),
        setSize: Number(row.getAttribute('aria-setsize')),
      })),
    };
  });
  const kept = after.rows.filter((r) => before.includes(r.seq));
  assert.ok(
    kept.length > 5 && kept.length < after.rows.length,
    `some rows stayed in view, some came in (${kept.length} of ${after.rows.length})`,
  );
  for (const r of kept) assert.equal(r.markedWith, r.seq, `the element of seq ${r.seq} still shows seq ${r.seq}`);
  // Rows are drawn in list order, one row height apart, and say their place in the whole list.
  const ordered = [...after.rows].sort((a, b) => a.index - b.index);
  assert.ok(Math.min(...ordered.map((r) => r.seq)) < Math.min(...before), 'the list moved up');
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i].index !== ordered[i - 1].index + 1) continue;
    assert.equal(Math.round(ordered[i].top - ordered[i - 1].top), 22, `row ${ordered[i].index} sits under row ${ordered[i - 1].index}`);
  }
  for (const r of after.rows) {
    assert.equal(r.posInSet, r.index + 1);
    assert.equal(r.setSize, after.total);
  }
});

test('keyboard only: every feature is reached from the keyboard', { timeout: 240_000 }, async () => {
  await open('session-compaction.jsonl');
  // Focus into the webview the keyboard way: the editor has focus after opening; Tab walks its controls.
  const seen = new Set();
  await sessionView(page).locator('#order-surface').focus();
  for (let i = 0; i < 40; i++) {
    seen.add(await focusedId(page));
    await page.keyboard.press('Tab');
  }
  for (const id of [
    'order-surface',
    'type-filter',
    'search-input',
    'toggle-inspector',
    'toggle-time',
    'toggle-asof',
    'timeline-list',
    'overview-strip',
  ]) {
    assert.ok(seen.has(id), `Tab reaches #${id} (reached: ${[...seen].join(', ')})`);
  }
  // One tab stop for the list: rows are not tab stops.
  assert.equal(await sessionView(page).locator('#timeline-list .row[tabindex="0"]').count(), 0);
  // Orders with Alt+1..3; moving with j/k and arrows; Enter opens the inspector.
  await sessionView(page).locator('#timeline-list').focus();
  await page.keyboard.press('Alt+2');
  await sessionView(page).locator('#timeline-list[data-order="log"]').waitFor();
  await page.keyboard.press('Home');
  await until(async () => (await activeRowSeq(page)) === 0, 10_000, 'Home goes to the first row');
  await page.keyboard.press('j');
  await page.keyboard.press('ArrowDown');
  await until(async () => (await activeRowSeq(page)) === 2, 10_000, 'j and ArrowDown move down');
  await page.keyboard.press('k');
  await until(async () => (await activeRowSeq(page)) === 1, 10_000, 'k moves up');
  await page.keyboard.press('Enter');
  await until(async () => (await focusedId(page)) === 'inspector', 10_000, 'Enter opens (focuses) the inspector');
  await page.keyboard.press('Escape');
  await until(async () => (await focusedId(page)) === 'timeline-list', 10_000, 'Escape returns to the list');
  // `/` searches; Enter goes to the match; Escape returns to the list.
  await page.keyboard.press('/');
  await until(async () => (await focusedId(page)) === 'search-input', 10_000, '/ focuses the search box');
  await page.keyboard.type('entry point');
  await page.keyboard.press('Enter');
  await sessionView(page).locator('#timeline-list .row.selected').waitFor({ timeout: 15_000 });
  await page.keyboard.press('Escape');
  // `l` follows the selection's links; Alt+Left comes back.
  await sessionView(page).locator('#timeline-list').focus();
  for (let i = 0; i < 60 && (await activeRowSeq(page)) !== 29; i++) await page.keyboard.press((await activeRowSeq(page)) < 29 ? 'j' : 'k');
  await inspector(page)
    .locator('#inspector-title', { hasText: /^seq 29 / })
    .waitFor({ timeout: 15_000 });
  await page.keyboard.press('l');
  await until(async () => (await activeRowSeq(page)) !== 29, 10_000, 'l follows a link');
  await page.keyboard.press('Alt+ArrowLeft');
  await until(async () => (await activeRowSeq(page)) === 29, 10_000, 'Alt+Left comes back');
  // A replacement's bracket opens with ArrowRight.
  for (let i = 0; i < 20 && (await activeRowSeq(page)) !== 38; i++) await page.keyboard.press((await activeRowSeq(page)) < 38 ? 'j' : 'k');
  await page.keyboard.press('ArrowRight');
  await sessionView(page).locator('.bracket.open').waitFor({ timeout: 10_000 });
  await shot('keyboard-only');
});

test('real dsh logs: Model view lists exactly the derived messages, calls link to results', { timeout: 300_000 }, async (t) => {
  const present = REAL.map((f) => sharedFile(t, 'conformance', 'real', f)).filter(Boolean);
  if (present.length === 0) return;
  for (const source of present) {
    const expected = JSON.parse(readFileSync(source.replace(/\.jsonl$/, '.derived.json'), 'utf8'));
    await open(basename(source));
    await setOrder(page, 'surface');
    assert.equal(await listTotal(page), expected.length, `${basename(source)}: ${expected.length} derived messages`);
    const rows = await drawnRows(page);
    assert.deepEqual(
      rows.map((r) => roleOf(r.type)),
      expected.slice(0, rows.length).map((m) => m.role),
      basename(source),
    );
    await setOrder(page, 'log');
    const call = sessionView(page).locator('#timeline-list .row[data-type="tool/call"]').first();
    if (await call.count()) {
      const seq = Number(await call.getAttribute('data-seq'));
      await selectSeq(page, seq);
      await inspector(page).locator('a.link[data-relation="result"]').first().waitFor({ timeout: 15_000 });
    }
    await shot(`real-${basename(source).slice(0, 40)}`);
  }
});

test(
  'a real dsh compaction: its bracket names the one event it shadows, and the shadowed message is marked',
  { timeout: 180_000 },
  async (t) => {
    const source = sharedFile(t, 'conformance', 'real', 'headless-agent_snapshots_compaction-recovery_session.hdrfix.jsonl');
    if (!source) return;
    await open(basename(source));
    await setOrder(page, 'log');
    await revealRow(page, 21);
    const bracket = sessionView(page).getByRole('group', { name: 'Shadowed by seq 21 (1 event)' });
    await bracket.waitFor({ timeout: 15_000 });
    await revealRow(page, 4);
    assert.equal(await rowBySeq(page, 4).getAttribute('data-surface'), 'shadowed');
    assert.equal(await rowBySeq(page, 4).getAttribute('data-shadowed-by'), '21');
    await revealRow(page, 21);
    await bracket.locator('.bracket-head').click();
    await until(async () => (await bracket.locator('.bracket-row').count()) === 1, 15_000, 'the bracket lists its shadowed node');
    assert.equal(await bracket.locator('.bracket-row').getAttribute('data-seq'), '4');
    await shot('real-compaction-bracket');
  },
);

test('screenshots of the timeline in light, dark and high-contrast themes (docs/)', { timeout: 300_000 }, async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const settingsDir = join(suite.workspace, '.vscode');
  mkdirSync(settingsDir, { recursive: true });
  const docs = join(REPO, 'docs');
  mkdirSync(docs, { recursive: true });
  await open('session-compaction.jsonl');
  await setOrder(page, 'log');
  await selectSeq(page, 50);
  const bracket = sessionView(page).getByRole('group', { name: 'Shadowed by seq 38 (8 events)' });
  await bracket.locator('.bracket-head').click();
  for (const [name, theme] of [
    ['light', 'Default Light Modern'],
    ['dark', 'Default Dark Modern'],
    ['high-contrast', 'Default High Contrast'],
  ]) {
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({ 'workbench.colorTheme': theme }));
    await until(
      async () => {
        const cls = (await page.locator('.monaco-workbench').getAttribute('class')) ?? '';
        return name === 'light' ? /\bvs\b(?!-)/.test(cls) : name === 'dark' ? /\bvs-dark\b/.test(cls) : /\bhc-black\b/.test(cls);
      },
      30_000,
      `the ${theme} theme`,
    );
    await page.waitForTimeout(1500);
    await focusWorkbench(page);
    await page.locator('.part.editor').screenshot({ path: join(docs, `timeline-${name}.png`) });
  }
  writeFileSync(join(settingsDir, 'settings.json'), '{}');
});
