// The timeline's search, As of…, Time, session and crash-review controllers, under Node and without a
// DOM, over a real log answered by the host's own request handler (test/support/timeline-controllers.ts).
import { strict as assert } from 'node:assert';
import { extendLoadedFile } from '../../../src/core';
import { notification, type RepairAction } from '../../../src/protocol';
import { richLog } from '../../support/build-log';
import { composeTimeline, idle, releaseTimelines, settle, timelineOver } from '../../support/timeline-controllers';

describe('webview controllers: search', () => {
  afterEach(releaseTimelines);

  it('a search typed runs once typing pauses; the next match is selected and announced', async () => {
    const t = await composeTimeline(timelineOver(richLog().bytes()));
    t.search.type('read');
    assert.equal(t.search.searchId, undefined, 'nothing is asked while typing');
    await settle(() => t.search.searchId !== undefined, 'the search ends');
    assert.ok(t.search.matchCount > 1);
    assert.match(t.host.said.at(-1)!, /^\d+ matches for read$/);
    assert.match(t.search.status, /^\d+ matches$/);
    t.search.submit('next');
    await settle(() => t.search.current !== undefined && t.view.selectedSeq === t.search.current.seq, 'the first match is selected');
    assert.equal(t.search.status, `1 of ${t.search.matchCount}`);
    assert.ok(t.search.matchedSeqs.has(t.view.selectedSeq!));
    await t.search.step('next');
    assert.equal(t.search.current?.matchIndex, 1);
    await t.search.step('previous');
    assert.equal(t.search.current?.matchIndex, 0);
  });

  it('no text, no search; no match is said so', async () => {
    const t = await composeTimeline(timelineOver(richLog().bytes()));
    await t.search.start('no such words anywhere');
    assert.equal(t.search.matchCount, 0);
    assert.equal(t.search.status, 'No matches');
    assert.equal(t.host.said.at(-1), 'No match for no such words anywhere');
    await t.search.start('');
    assert.equal(t.search.searchId, undefined);
    assert.equal(t.search.status, '');
  });
});

describe('webview controllers: As of… and Time', () => {
  afterEach(releaseTimelines);

  it('the surface as of a seq before and after a compaction, and their messages compared', async () => {
    const t = await composeTimeline(timelineOver(richLog().bytes()));
    const replacement = t.timeline.log.replacements()[0];
    await t.navigation.select(replacement.seq);
    t.asOf.toggle();
    assert.equal(t.asOf.asOfSeq, String(replacement.seq), 'it starts from the selection');
    await idle();
    assert.equal(t.page.focus.at(-1), 'asof-seq');
    t.asOf.asOfSeq = 'twelve';
    await t.asOf.show();
    assert.equal(t.asOf.error, 'Enter a seq (a whole number).');
    t.asOf.useSelection();
    await t.asOf.show();
    assert.equal(t.asOf.error, '');
    assert.equal(t.asOf.result?.asOfSeq, replacement.seq);
    await t.asOf.compare();
    assert.equal(t.asOf.diff?.fromSeq, replacement.seq - 1);
    assert.ok((t.asOf.diff?.removed ?? 0) > 0, 'the compaction removed messages');
    t.asOf.asOfSeq = String(t.timeline.log.eventCount + 10);
    await t.asOf.show();
    assert.match(t.asOf.error, /beyond the log/, "the host's refusal is shown as it said it");
  });

  it('the time range zooms around its anchor and pans; an interval chosen moves the list to its first span', async () => {
    const t = await composeTimeline(timelineOver(richLog().bytes()));
    await t.time.toggle();
    assert.ok(t.time.spans && t.time.spans.spans.length > 0);
    assert.equal(t.page.focus.at(-1), 'time-canvas');
    const { from, to } = t.time.range;
    const anchor = t.time.timeAt(0.25);
    t.time.zoom(0.5, 0.25);
    assert.ok(Math.abs(t.time.timeAt(0.25) - anchor) < 1e-6, 'the time under the pointer stays there');
    assert.ok(Math.abs(t.time.range.to - t.time.range.from - (to - from) / 2) < 1e-6);
    const before = t.time.range.from;
    assert.equal(t.time.key('ArrowRight', false), true);
    assert.ok(t.time.range.from > before);
    assert.equal(t.time.key('ArrowRight', true), false, 'Alt+Right is the history, not the canvas');
    t.time.chooseInterval(from, to);
    const first = Math.min(...t.time.chosen.map((s) => s.seq));
    assert.ok(t.time.chosen.every((s) => s.kind !== 'turn'));
    assert.match(t.host.said.at(-1)!, /spans? w(as|ere) active in the selected interval/);
    await settle(() => t.view.selectedSeq === first, 'the list moves to the first span of the interval');
    const redrawn = t.page.redrawnCanvas;
    t.host.requestUpdate();
    assert.equal(t.page.redrawnCanvas, redrawn + 1, 'an open panel draws its canvas after each update');
  });
});

describe('webview controllers: the session and its crash review', () => {
  afterEach(releaseTimelines);

  it("an append replaces the summary's facts with the host's words; it never words them itself", async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const first = b.bytes();
    const timeline = timelineOver(first);
    const t = await composeTimeline(timeline);
    const factsBefore = t.session.summary!.facts;
    b.toolResult('call-d', 'the answer, late');
    extendLoadedFile(timeline.source, b.bytes().subarray(first.length));
    const { surfaceChanged } = timeline.foldAppend();
    const note = timeline.appendedNote(1, surfaceChanged);
    t.client.receive(JSON.parse(JSON.stringify(notification('appended', note))));
    const s = t.session.summary!;
    assert.deepEqual(s.facts, note.facts, 'the facts are exactly the ones the host sent');
    assert.notDeepEqual(s.facts, factsBefore);
    assert.equal(s.facts.find((f) => f.name === 'events')?.value, String(timeline.log.eventCount));
    assert.deepEqual(s.generation, note.generation);
    assert.equal(s.counts.events, timeline.log.eventCount);
  });

  it('a summary of the same load is no new load; a reload is, and starts the list again', async () => {
    const timeline = timelineOver(richLog().bytes());
    const t = await composeTimeline(timeline);
    const summary = timeline.summary();
    t.client.receive(JSON.parse(JSON.stringify(notification('summary', { summary }))));
    t.client.receive(
      JSON.parse(JSON.stringify(notification('summary', { summary: { ...summary, generation: { ...summary.generation, load: 2 } } }))),
    );
    assert.deepEqual(
      t.page.summaries.map((x) => x.first),
      [true, false, true],
    );
  });

  it('the crash review of an open turn: its ghosts, its jumps, and the repair asked of the host', async () => {
    const actions: RepairAction[] = [];
    const t = await composeTimeline(
      timelineOver(richLog({ openTail: 'recorded-call' }).bytes(), {
        runRepairAction: async (action) => {
          actions.push(action);
          return true;
        },
      }),
    );
    await settle(() => t.crash.review !== undefined, 'the review arrives with the summary');
    const open = t.crash.review!.openTurn!;
    assert.ok(open.ghosts.length > 0, 'dsh would append closers');
    assert.equal(t.crash.openTurnActivity, open.activity);
    t.crash.go({ kind: 'event', seq: 3 });
    await settle(() => t.view.selectedSeq === 3, 'an event entry jumps to its row');
    await t.list.setOrder('transcript');
    t.crash.go({ kind: 'ghost', seq: open.ghosts[0].seq });
    await settle(() => t.page.focus.at(-1)?.startsWith('#ghost-rows') === true, 'a ghost entry focuses the ghost row');
    assert.equal(t.view.order, 'log', 'the transcript shows no ghosts: the Full log does');
    t.crash.run('apply');
    await settle(() => actions.length === 1, 'the repair is asked of the host');
    assert.deepEqual(actions, ['apply']);
  });
});
