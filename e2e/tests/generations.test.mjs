// Today's dsh's logs in a real VS Code: the real v3 and v4 samples, a v3 log of dsh's own with a
// compaction (its shadowed bracket, the startSeq/endSeq replacement, the replaced system head), a v2
// seeded subagent child whose v0 parent sits in a session folder beside its v4 successor (migrated with
// the child's catalog entry), and a generated v4 fork (system head replacements, developer messages,
// an attempt, tool-role results, the fork's closers). The Model view equals `session-surface derive`,
// an assistant message shows its stream records, today's dsh's verdict is in the health header, the
// status bar's health list and the Problems panel, and the lineage crosses generations both ways.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED, sharedFile, startSuite, until } from '../harness.mjs';
import { REPO } from '../toolchain.mjs';
import { closeAllEditors, focusWorkbench, runCommand } from '../workbench.mjs';
import { openViaCommand, readSessionView, sessionView, waitForHeader } from '../session-editor.mjs';
import { drawnRows, inspector, listTotal, revealRow, rowBySeq, selectSeq, setOrder, waitForTimeline } from '../timeline-page.mjs';
import { showSessionsView } from '../extension-ready.mjs';
import { CHILD_V2, generatedV4Text, PARENT_V0, writeGenerationsFolder } from '../generation-samples.mjs';

const V3 = 'v3-catchup-sanitized-excerpt.jsonl';
const V4 = 'v4-catchup-sanitized-headless-run.jsonl';
const COMPACTED = 'headless-agent_snapshots_compaction-recovery_session.hdrfix.session.v3.jsonl';
const CHILD = CHILD_V2.at(-1);
const GENERATED = 'generated-v4.jsonl';
const CLI = join(REPO, 'bin', 'session-surface.js');

let suite;
let page;
/** The seq of the parent's catalog entry for its v2 child, in its v4 generation. */
let catalogSeq;
before(
  async () => {
    const made = mkdtempSync(join(tmpdir(), 'generations-'));
    writeFileSync(join(made, GENERATED), generatedV4Text());
    const shared = [['fixtures', 'dsh-real', V3], ['fixtures', 'dsh-real', V4], ['conformance-v3', 'v3', COMPACTED], CHILD_V2].map(
      (parts) => join(SHARED, ...parts),
    );
    suite = await startSuite('generations', { files: [join(made, GENERATED), ...shared], aged: true });
    // The parent's session folder, as dsh 0.2 leaves it: the v0 log and its v4 successor beside it.
    const { v4Text } = await writeGenerationsFolder(
      join(suite.workspace, 'parent-session'),
      join(SHARED, ...PARENT_V0),
      [join(SHARED, ...CHILD_V2)],
      made,
    );
    catalogSeq = JSON.parse(v4Text.split('\n').find((l) => l.includes('"type":"subagent/catalog"'))).seq;
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['session.jsonl', 'session.v4.jsonl.zstd'])
      utimesSync(join(suite.workspace, 'parent-session', name), anHourAgo, anHourAgo);
    ({ page } = await suite.openPage());
    page.on('pageerror', (e) => console.log('# pageerror', e.message));
  },
  { timeout: 300_000 },
);
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, `FAILED-${t.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
});

const shot = (label) => suite.shot(page, label).catch(() => undefined);

async function open(file) {
  await closeAllEditors(page);
  await openViaCommand(page, join(suite.workspace, file));
  await waitForTimeline(page, 180_000);
}

function derive(file) {
  const out = execFileSync(process.execPath, [CLI, 'derive', '--json', file], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n')[0]).messages;
}

/** The role a row's message has: a tool/result is a tool-role message in v4, a user message holding a tool-result block before. */
const roleMatches = (type, role) => (type === 'tool/result' ? role === 'tool' || role === 'user' : type.split('/')[0] === role);

/** The Model view lists exactly the messages `derive` prints, in order and with their roles. */
async function assertModelViewIsDerive(file) {
  await setOrder(page, 'surface');
  const messages = derive(join(suite.workspace, file));
  assert.equal(await listTotal(page), messages.length, `${file}: as many rows as derived messages`);
  const rows = (await drawnRows(page)).slice(0, messages.length);
  assert.deepEqual(
    rows.map((r) => r.messageIndex),
    messages.slice(0, rows.length).map((_, i) => i),
  );
  for (const [i, row] of rows.entries())
    assert.ok(roleMatches(row.type, messages[i].role), `row ${i} (seq ${row.seq} ${row.type}) gives a ${messages[i].role} message`);
  return rows;
}

const cellText = (seq, cell) => rowBySeq(page, seq).locator(`.cell.${cell}`).textContent();

test(
  'the real v4 sample: its types worded, the system head marked, the Model view equals derive, today’s dsh opens it',
  { timeout: 240_000 },
  async (t) => {
    if (!sharedFile(t, 'fixtures', 'dsh-real', V4)) return;
    await open(V4);
    const view = sessionView(page);
    // A log of today's generation: one pill ("dsh opens this log"), and the line under it says today's dsh opens it as it is.
    await view.locator('#upgrade-detail[data-ok="true"]').waitFor({ timeout: 60_000 });
    assert.match(await view.locator('#upgrade-detail').textContent(), /opens this log as it is/);
    assert.equal(await view.locator('#upgrade-verdict').count(), 0, 'no second pill repeating the first');
    assert.match(await view.locator('#count-fields [data-field="format"]').textContent(), /^v4 \(dsh 0\.1\.7 and 0\.2\.x\)$/);
    await setOrder(page, 'log');
    for (const [seq, label] of [
      [0, 'Permission preset'],
      [1, 'Sandbox mode'],
      [2, 'Approval policy'],
      [7, 'System prompt'],
    ])
      assert.equal((await cellText(seq, 'label'))?.trim(), label, `seq ${seq}`);
    assert.equal(await rowBySeq(page, 7).getAttribute('data-system-head'), 'true');
    assert.match(await rowBySeq(page, 7).getAttribute('aria-label'), /the protected system head/);
    await shot('v4-sample-log');
    const rows = await assertModelViewIsDerive(V4);
    assert.equal(rows[0].type, 'system/message', 'the model reads the system prompt first');
  },
);

test(
  'the real v3 sample: the replaced empty head, a stream in the message, and today’s dsh’s refusal everywhere it is told',
  { timeout: 300_000 },
  async (t) => {
    if (!sharedFile(t, 'fixtures', 'dsh-real', V3)) return;
    await open(V3);
    const view = sessionView(page);
    await view.locator('#upgrade-verdict[data-ok="false"]').waitFor({ timeout: 60_000 });
    assert.equal(await view.locator('#verdict').getAttribute('data-ok'), 'true', 'its own generation’s dsh opens it');
    assert.match(await view.locator('#upgrade-detail').textContent(), /format v4 request\/header at seq 7 has an invalid reason/);
    await setOrder(page, 'log');
    assert.equal((await cellText(3, 'summary'))?.trim(), 'no system prompt (empty)');
    assert.equal(await rowBySeq(page, 3).getAttribute('data-surface'), 'shadowed');
    assert.equal(await rowBySeq(page, 6).getAttribute('data-system-head'), 'true');
    await selectSeq(page, 9);
    const records = inspector(page).locator('#stream-records .stream-record');
    await until(async () => (await records.count()) > 0, 15_000, 'the stream records of seq 9');
    assert.equal(await records.first().getAttribute('data-block'), '0');
    await shot('v3-sample-stream');
    await assertModelViewIsDerive(V3);
    // The status bar's health list says it too.
    await page.locator('.statusbar-item', { hasText: 'dsh opens this log' }).first().click();
    const item = page.locator('.quick-input-list .monaco-list-row', { hasText: "Today's dsh would refuse this log" }).first();
    await item.waitFor({ timeout: 30_000 });
    await shot('v3-health-list');
    await page.keyboard.press('Escape');
    // And the Problems panel.
    await focusWorkbench(page);
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const panel = page.locator('.markers-panel');
    await until(
      async () => /Today's dsh would refuse this log/.test(await panel.innerText().catch(() => '')),
      30_000,
      'the refusal in the Problems panel',
    );
    await shot('v3-problems');
    await runCommand(page, 'View: Hide Panel');
  },
);

test(
  'dsh’s own v3 compaction: its shadowed bracket under the startSeq/endSeq replacement; the Model view equals derive',
  { timeout: 240_000 },
  async (t) => {
    if (!sharedFile(t, 'conformance-v3', 'v3', COMPACTED)) return;
    await open(COMPACTED);
    await setOrder(page, 'log');
    const log = join(suite.workspace, COMPACTED);
    const { replacements } = JSON.parse(
      execFileSync(process.execPath, [CLI, 'inspect', '--json', log], { encoding: 'utf8' }).split('\n')[0],
    );
    // The last replacement is the compaction's checkpoint (the first replaces the empty system head).
    const replacement = replacements.at(-1);
    assert.equal(
      JSON.parse(execFileSync(process.execPath, [CLI, 'inspect', '--json', log], { encoding: 'utf8' }).split('\n')[0]).format.version,
      3,
    );
    const shadowedSeq = replacement.shadowedSeqs[0];
    await revealRow(page, replacement.seq);
    const bracket = sessionView(page).getByRole('group', { name: `Shadowed by seq ${replacement.seq} (1 event)` });
    await bracket.waitFor({ timeout: 30_000 });
    assert.equal(await rowBySeq(page, shadowedSeq).getAttribute('data-shadowed-by'), String(replacement.seq));
    await shot('v3-compaction-bracket');
    await assertModelViewIsDerive(COMPACTED);
  },
);

test(
  'the generated v4 fork: head, developer message, attempt, stream records and fork closers; the Model view equals derive',
  { timeout: 300_000 },
  async () => {
    await open(GENERATED);
    const file = join(suite.workspace, GENERATED);
    const inspected = JSON.parse(execFileSync(process.execPath, [CLI, 'inspect', '--json', file], { encoding: 'utf8' }).split('\n')[0]);
    const head = inspected.surface[0];
    const rows = await assertModelViewIsDerive(GENERATED);
    assert.equal(rows[0].seq, head);
    await setOrder(page, 'log');
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(1)
      .map((l) => JSON.parse(l));
    const first = (type, pred = () => true) => lines.find((e) => e.type === type && pred(e)).seq;
    const developer = first('developer/message');
    await selectSeq(page, developer);
    await inspector(page).locator('a.link[data-relation="requestHeader"]').waitFor({ timeout: 15_000 });
    assert.equal(await inspector(page).locator('.block.tool-change[data-change="addition"]').count(), 1);
    const attempt = first('assistant/attempt');
    await selectSeq(page, attempt);
    await inspector(page).locator('a.link[data-relation="step"]').waitFor({ timeout: 15_000 });
    await inspector(page).locator('a.link[data-relation="settledBy"]').waitFor({ timeout: 15_000 });
    const message = first('assistant/message', (e) => e.seq > inspected.inheritedEventCount);
    await selectSeq(page, message);
    const records = inspector(page).locator('#stream-records .stream-record');
    await until(async () => (await records.count()) >= 3, 15_000, 'the stream records of the message');
    assert.ok((await inspector(page).locator('.block-to-stream').count()) > 0, 'each streamed block links to its records');
    assert.equal(await inspector(page).locator('#stream-mismatches').count(), 0);
    await shot('v4-generated-stream');
    const forked = first('turn/end', (e) => e.data.reason.kind === 'forked');
    await selectSeq(page, forked);
    assert.match((await cellText(forked, 'summary'))?.trim(), /: forked$/);
    // The seed ends at the end-seed marker; the fork's closers after it are the child's own.
    const seed = inspected.inheritedEventCount;
    await revealRow(page, seed - 1);
    assert.equal(await rowBySeq(page, seed - 1).getAttribute('data-inherited'), 'true');
    assert.equal(await rowBySeq(page, seed).getAttribute('data-inherited'), null);
  },
);

test(
  'a session folder holding v0 and v4: one row, its history under it; the v2 child and its parent lead to each other',
  { timeout: 300_000 },
  async (t) => {
    if (!sharedFile(t, ...CHILD_V2)) return;
    await closeAllEditors(page);
    await showSessionsView(page);
    const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Sessions/i }) }).last();
    // The parent's session folder is one row (known by its title, its current generation v4); the v2
    // child (a loose copy, known by its file name) sits under it, one level deeper.
    const parentRow = pane
      .locator('.monaco-list-row[aria-label^="This turn is cut off"]')
      .filter({ has: page.locator('.label-description', { hasText: /\bv4$/ }) })
      .first();
    await parentRow.waitFor({ timeout: 120_000 });
    const childRow = pane.locator(`.monaco-list-row[aria-label^="${CHILD}, "]`).first();
    assert.match(await childRow.locator('.label-description').textContent(), /· v2 · subagent$/);
    assert.equal(Number(await childRow.getAttribute('aria-level')), Number(await parentRow.getAttribute('aria-level')) + 1);
    // The subagent child (v2) sits under its parent (v4), the parent's v0 history after it.
    const history = pane.locator('.monaco-list-row', { hasText: 'v0 · dsh 0.1.0–0.1.2' }).first();
    await until(
      async () => {
        if (await history.count()) return true;
        if ((await parentRow.getAttribute('aria-expanded')) === 'false') await parentRow.locator('.monaco-tl-twistie').click();
        return false;
      },
      30_000,
      'the older generation listed under the session',
    );
    await until(
      async () => /today's dsh migrates it/.test((await history.textContent()) ?? ''),
      60_000,
      'the history row says what today’s dsh does',
    );
    await shot('sessions-generations');
    await parentRow.click();
    await page.locator('.tabs-container .tab', { hasText: 'session.v4.jsonl.zstd' }).waitFor({ timeout: 60_000 });
    await waitForHeader(page);
    // The parent's subagent catalog entry (appended by the v3→v4 migration) opens the v2 child.
    await setOrder(page, 'log');
    await selectSeq(page, catalogSeq);
    assert.match(await inspector(page).locator('#inspector-title').textContent(), /subagent\/catalog/);
    await inspector(page).locator('a.open-child').click();
    await page.locator('.tabs-container .tab', { hasText: CHILD }).waitFor({ timeout: 60_000 });
    await waitForHeader(page);
    const child = sessionView(page);
    await child.locator('#seed-note').waitFor({ timeout: 30_000 });
    assert.equal(await child.locator('#lineage').getAttribute('data-seed-length'), '12');
    await child.locator('#open-parent').click();
    await until(
      async () => (await readSessionView(page)).id === '7f1c9a04-5b52-4a7e-9a63-1d2ab7c90d11',
      60_000,
      'the v4 parent opens again',
    );
    // The history itself: shown as an older generation, read-only.
    await closeAllEditors(page);
    await history.click();
    await waitForHeader(page);
    const older = sessionView(page).locator('#older-generation');
    await older.waitFor({ timeout: 30_000 });
    assert.equal(await older.getAttribute('data-current'), 'session.v4.jsonl.zstd');
    await shot('older-generation');
  },
);
