// Following a log an agent is still writing: the open last turn shows as live, an appended event shows
// up within 2 s without a reload, and a truncation is detected and explained with a reload action.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES, startSuite } from '../harness.mjs';
import { SessionLogBuilder } from '../session-log-generator.mjs';
import { openViaCommand, readSessionView, sessionView, waitForEventCount, waitForHeader } from '../session-editor.mjs';

const APPEND_DEADLINE_MS = 2000;

let suite;
let page;
before(async () => {
  suite = await startSuite('live-follow', { files: [join(SAMPLES, 'session-live.jsonl')] });
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
