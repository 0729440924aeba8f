// What a new user meets first, as `npm start` sets it up: a workspace holding the six sample sessions and
// no dsh sessions folder. The Sessions view lists the workspace's own logs (it used to say "No dsh
// sessions folder was found"), each row showing its state and turns in a sidebar of the default width;
// the Time view of a real dsh log whose streamed chunks were written with `time: 0` shows the real
// span (not 1970 onwards) and says what it left out; the time column leaves such times blank.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES, SHARED, sharedFile, startSuite, until } from '../harness.mjs';
import { closeAllEditors } from '../workbench.mjs';
import { openViaCommand, sessionView } from '../session-editor.mjs';
import { revealRow, rowBySeq, setOrder, waitForTimeline } from '../timeline-page.mjs';
import { showSessionsView } from '../extension-ready.mjs';

/** A real dsh log (a snapshot dsh wrote) whose streamed chunks carry `time: 0` beside real times 117 ms apart. */
const ZERO_TIMES = 'headless-agent_snapshots_compaction-recovery_session.hdrfix.jsonl';
const SAMPLE_LOGS = readdirSync(SAMPLES).filter((n) => /\.jsonl(\.zstd)?$/.test(n));

let suite;
let page;
before(
  async () => {
    const real = join(SHARED, 'conformance', 'real', ZERO_TIMES);
    const files = SAMPLE_LOGS.map((n) => join(SAMPLES, n));
    suite = await startSuite('first-use', { files: existsSync(real) ? [...files, real] : files });
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

const pane = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Sessions/i }) }).last();

/** Each session row of the view: its label, its description, and how much of the description's first two parts is in view. */
async function sessionRows() {
  return pane()
    .locator('.monaco-list-row[aria-level="2"]')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const label = row.querySelector('.label-name')?.textContent?.trim() ?? '';
        const description = row.querySelector('.label-description');
        const text = description?.textContent ?? '';
        const clip = (row.querySelector('.monaco-icon-label-container') ?? row).getBoundingClientRect();
        // The state and the turns are the description's first two parts ("closed · 3 turns · v0").
        const parts = text.split(' · ');
        const shownUpTo = parts.slice(0, 2).join(' · ').length;
        let visible = false;
        const node = description?.firstChild;
        if (node && shownUpTo > 0) {
          const range = document.createRange();
          range.setStart(node, 0);
          range.setEnd(node, Math.min(shownUpTo, node.textContent.length));
          visible = range.getBoundingClientRect().right <= clip.right + 1;
        }
        return { label, description: text, stateAndTurnsVisible: visible };
      }),
    );
}

test(
  'the Sessions view lists the sample sessions of the workspace folder when there is no sessions folder',
  { timeout: 300_000 },
  async () => {
    await showSessionsView(page);
    const rows = await until(
      async () => {
        const r = await sessionRows();
        return r.length >= SAMPLE_LOGS.length ? r : undefined;
      },
      120_000,
      `the ${SAMPLE_LOGS.length} sample sessions listed`,
    );
    assert.equal(await page.locator('.welcome-view-content', { hasText: 'No dsh sessions folder was found' }).count(), 0);
    assert.ok(await pane().locator('.monaco-list-row', { hasText: 'This folder: workspace' }).count());
    console.log(`# rows: ${JSON.stringify(rows)}`);
    await suite.shot(page, 'sessions-view-workspace');
    const states = rows.map((r) => r.description.split(' · ')[0]);
    assert.ok(states.includes('closed') && states.includes('refused') && states.includes('live'), states.join(', '));
  },
);

test('each Sessions row shows its state and turns in a sidebar of the default width', { timeout: 120_000 }, async () => {
  await showSessionsView(page);
  const rows = await until(async () => ((await sessionRows()).length >= SAMPLE_LOGS.length ? sessionRows() : undefined), 60_000, 'rows');
  for (const row of rows) {
    assert.match(
      row.description,
      /^(closed|live|crashed|refused|unknown) · \d+ turns?( · v\d+)?( · (fork|subagent))?$/,
      `${row.label}: the state first`,
    );
    assert.ok(row.stateAndTurnsVisible, `${row.label}: “${row.description}” shows its state and turns`);
  }
});

test(
  'the Time view of a real log with zero times shows the real span and says what it left out; no "0" in the time column',
  { timeout: 240_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance', 'real', ZERO_TIMES)) return;
    const file = join(suite.workspace, ZERO_TIMES);
    const events = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(1)
      .map((l) => JSON.parse(l));
    // The chunks written with time 0: packed rows (`time0`), the first of which starts a collapsed run of chunks.
    const zero = events.filter((e) => (e.time ?? e.time0) === 0).map((e) => e.seq ?? e.seq0);
    assert.ok(zero.length > 0, 'the log has events written with time 0');
    await closeAllEditors(page);
    await openViaCommand(page, file);
    await waitForTimeline(page, 120_000);
    const view = sessionView(page);
    await view.locator('#toggle-time').click();
    const note = view.locator('#time-ignored');
    await note.waitFor({ timeout: 30_000 });
    assert.match(await note.textContent(), /cannot be real/);
    const canvas = view.locator('#time-canvas');
    await until(async () => (await canvas.getAttribute('data-range-ms')) !== null, 30_000, 'the time canvas drawn');
    const rangeMs = Number(await canvas.getAttribute('data-range-ms'));
    assert.ok(rangeMs > 0 && rangeMs < 60_000, `the span shown is the session's (${rangeMs} ms), not since 1970`);
    assert.ok(Number(await canvas.getAttribute('data-drawn-spans')) >= 3, 'turns, steps and spans are drawn in their lanes');
    await suite.shot(page, 'time-view-zero-times');
    await view.locator('#toggle-time').click();
    await setOrder(page, 'log');
    await revealRow(page, zero[0]);
    assert.equal((await rowBySeq(page, zero[0]).locator('.cell.time').textContent())?.trim(), '', `seq ${zero[0]} (time 0) shows no time`);
    const real = events.find((e) => e.time > 0 && e.seq > zero[0] && e.type !== 'assistant/chunk').seq;
    await revealRow(page, real);
    assert.match((await rowBySeq(page, real).locator('.cell.time').textContent())?.trim(), /\d{2}:\d{2}:\d{2}/);
  },
);
