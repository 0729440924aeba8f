// Following a log an agent is still writing: the open last turn shows as live, an appended event shows
// up within 2 s without a reload, and a truncation is detected and explained with a reload action; in
// a long live log the list follows the end until the user scrolls up, and "Follow the end" resumes it.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLES, startSuite, until } from '../harness.mjs';
import { headerLine, SessionLogBuilder } from '../session-log-generator.mjs';
import { closeAllEditors } from '../workbench.mjs';
import { openViaCommand, readSessionView, sessionView, waitForEventCount, waitForHeader } from '../session-editor.mjs';
import { rowBySeq, waitForTimeline } from '../timeline-page.mjs';

const APPEND_DEADLINE_MS = 2000;

// A live log longer than a screen: 120 closed turns and an open last one.
const longLive = new SessionLogBuilder();
const longLiveLines = [headerLine({ id: 'sample-live-long' })];
for (let turn = 0; turn < 120; turn++) longLiveLines.push(...longLive.turnLines());
longLiveLines.push(...longLive.turnLines({ open: true }));
const longLiveFile = join(mkdtempSync(join(tmpdir(), 'live-follow-')), 'session-live-long.jsonl');
writeFileSync(longLiveFile, longLiveLines.join('\n') + '\n');

let suite;
let page;
before(async () => {
  suite = await startSuite('live-follow', { files: [join(SAMPLES, 'session-live.jsonl'), longLiveFile] });
  ({ page } = await suite.openPage());
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

/** The events that close the sample's open turn, continuing its seqs (the sample is made the same way). */
function closingLines() {
  const b = new SessionLogBuilder();
  b.turnLines();
  b.turnLines({ open: true });
  return b.closeOpenTurnLines();
}

test('an open last turn shows as live; appended events show within 2 s; truncation is explained', { timeout: 120_000 }, async () => {
  const file = join(suite.workspace, 'session-live.jsonl');
  await openViaCommand(page, file);
  await waitForHeader(page);
  const before = await readSessionView(page);
  assert.match(before.live ?? '', /^Live/);
  assert.equal(before.events, 18);
  await suite.shot(page, 'live-open-turn');

  const [result, stepEnd, turnEnd] = closingLines();
  appendFileSync(file, result + '\n');
  const firstMs = await waitForEventCount(page, 19, APPEND_DEADLINE_MS);
  console.log(`# appended event shown after ${firstMs} ms`);
  // The timeline follows the end: the appended event's row is drawn too.
  await sessionView(page).locator('#timeline-list .row[data-seq="18"]').waitFor({ timeout: APPEND_DEADLINE_MS });
  await suite.shot(page, 'after-one-append');

  appendFileSync(file, `${stepEnd}\n${turnEnd}\n`);
  const restMs = await waitForEventCount(page, 21, APPEND_DEADLINE_MS);
  await sessionView(page).locator('#timeline-list .row[data-seq="20"]').waitFor({ timeout: APPEND_DEADLINE_MS });
  console.log(`# two more appended events shown after ${restMs} ms`);
  await sessionView(page).locator('#live-status', { hasText: 'Every turn is closed' }).waitFor({ timeout: APPEND_DEADLINE_MS });
  await suite.shot(page, 'after-turn-closed');

  const size = readFileSync(file).length;
  truncateSync(file, Math.floor(size / 2));
  const notice = sessionView(page).locator('#file-notice[data-state="truncated"]');
  await notice.waitFor({ timeout: APPEND_DEADLINE_MS });
  assert.match((await notice.textContent()) ?? '', /fewer than the [\d,]+ bytes already read/);
  assert.equal((await readSessionView(page)).events, 21, 'the view keeps what it had read');
  await suite.shot(page, 'truncated-explained');

  await sessionView(page).locator('#reload').click();
  await notice.waitFor({ state: 'detached', timeout: 10_000 });
  const reloaded = await readSessionView(page);
  assert.ok(reloaded.events < 21, `after reload the shorter file shows fewer events (${reloaded.events})`);
  await suite.shot(page, 'reloaded');
});

test('a long live log: the list follows the end until the user scrolls up; Follow the end resumes it', { timeout: 120_000 }, async () => {
  await closeAllEditors(page);
  const file = join(suite.workspace, 'session-live-long.jsonl');
  await openViaCommand(page, file);
  await waitForTimeline(page);
  const events = longLiveLines.length - 1;
  await rowBySeq(page, events - 1).waitFor({ timeout: 15_000 });
  const follow = sessionView(page).locator('#follow-tail');
  assert.equal(await follow.count(), 0, 'following: no button to resume it');

  // Scrolled up, as a user drags the scroll bar: the list stays there while the log grows.
  await sessionView(page)
    .locator('#timeline-list virtual-rows')
    .evaluate((el) => {
      el.scrollTop = 0;
    });
  await follow.waitFor({ timeout: 10_000 });
  const [result, stepEnd, turnEnd] = longLive.closeOpenTurnLines();
  appendFileSync(file, result + '\n');
  await waitForEventCount(page, events + 1, APPEND_DEADLINE_MS);
  await rowBySeq(page, 0).waitFor({ timeout: 5_000 });
  assert.equal(await rowBySeq(page, events).count(), 0, 'the appended row is not scrolled to');
  await until(async () => /\(1 new\)/.test((await follow.textContent()) ?? ''), 5_000, 'the button counts the appended event');
  await suite.shot(page, 'live-long-scrolled-up');

  // Follow the end: the list goes to the last row and follows the next appends again.
  await follow.click();
  await rowBySeq(page, events).waitFor({ timeout: 5_000 });
  await follow.waitFor({ state: 'detached', timeout: 5_000 });
  appendFileSync(file, `${stepEnd}\n${turnEnd}\n`);
  await waitForEventCount(page, events + 3, APPEND_DEADLINE_MS);
  await rowBySeq(page, events + 2).waitFor({ timeout: APPEND_DEADLINE_MS });
  await suite.shot(page, 'live-long-following-again');
});
