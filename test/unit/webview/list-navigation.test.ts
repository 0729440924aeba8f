// The timeline's list, selection and navigation, keyboard and expansion controllers, under Node and
// without a DOM, over a real log: the core loads it, the host's own request handler answers, and the
// webview's client carries every message as JSON (test/support/timeline-controllers.ts).
import { strict as assert } from 'node:assert';
import type { TimelineRow } from '../../../src/protocol';
import { richLog } from '../../support/build-log';
import { composeTimeline, idle, key, releaseTimelines, settle, timelineOver } from '../../support/timeline-controllers';

const bytes = richLog().bytes();

/** Every row of the current order and filter, as the host lists them. */
async function rowsOf(t: Awaited<ReturnType<typeof composeTimeline>>): Promise<TimelineRow[]> {
  await t.list.cache.ready(0, t.list.total - 1);
  return [...Array(t.list.total).keys()].map((i) => t.list.row(i)!);
}

describe('webview controllers: the list', () => {
  afterEach(releaseTimelines);

  it('a closed log opens at its start with the rows of the Full log, chunk runs collapsed', async () => {
    const t = await composeTimeline(timelineOver(bytes));
    const log = t.timeline.log;
    const rows = await rowsOf(t);
    const hidden = rows.filter((r) => r.kind === 'chunkRun').reduce((n, r) => n + (r.runLength ?? 1) - 1, 0);
    assert.ok(hidden > 0, 'the log streams chunks');
    assert.equal(t.list.total, log.eventCount - hidden);
    assert.equal(t.surface.count, t.list.total, 'the drawn list learnt the count');
    assert.equal(t.view.following, false, 'a closed log is not followed');
    assert.equal(t.list.activeIndex, 0);
    assert.deepEqual(t.page.summaries, [{ first: true, events: log.eventCount }]);
    assert.deepEqual(t.page.busy, [false]);
    assert.equal(t.page.firstRowsShown, 1);
    await settle(() => t.expansion.brackets.size > 0 && t.session.overview !== undefined, 'the brackets and the overview follow the rows');
    assert.equal(t.session.overview?.events, log.eventCount);
  });

  it('an order keeps the selected event in view; a type filter narrows the rows; both search again', async () => {
    const t = await composeTimeline(timelineOver(bytes));
    const log = t.timeline.log;
    // The last assistant message: the compaction shadowed the first ones, which the Model view has no row for.
    const message = [...Array(log.eventCount).keys()].filter((s) => log.eventType(s) === 'assistant/message').at(-1)!;
    await t.navigation.jumpTo(message);
    t.search.type('files');
    await settle(() => t.search.searchId !== undefined, 'the search typed ends');
    const searched = t.host.said.length;
    await t.list.setOrder('surface');
    await idle();
    assert.equal(t.view.order, 'surface');
    assert.equal(t.list.total, log.deriveMessages().length, 'Model view: one row per derived message');
    assert.equal(t.list.row(t.list.activeIndex)?.seq, message, 'the selection is still the active row');
    assert.deepEqual(t.surface.scrolls.at(-1), { index: t.list.activeIndex, block: 'center' });
    assert.ok(t.host.said.includes('Model view'), 'the order is announced');
    await settle(() => t.host.said.length > searched + 1, 'the search runs again over the new order');
    await t.list.setOrder('log');
    t.list.setTypeFilter('tool/call');
    await settle(() => t.list.rowsArrived && t.list.total > 0, 'the filtered rows arrive');
    const calls = [...Array(log.eventCount).keys()].filter((s) => log.eventType(s) === 'tool/call');
    assert.deepEqual(
      (await rowsOf(t)).map((r) => r.seq),
      calls,
    );
  });

  it('a live log follows its end; an append out of sight is counted until the end is followed again', async () => {
    const live = richLog({ openTail: 'recorded-call' });
    const t = await composeTimeline(timelineOver(live.bytes()));
    assert.equal(t.view.following, true, 'a live log opens at its end');
    t.list.setFollowing(false);
    t.list.onAppended(3, { ...t.session.summary!.generation, events: t.session.summary!.generation.events + 3 });
    assert.equal(t.list.appendedUnseen, 3);
    t.list.followEnd();
    assert.equal(t.list.appendedUnseen, 0);
    assert.deepEqual(t.surface.scrolls.at(-1), { index: t.list.total - 1, block: 'end' });
  });
});

describe('webview controllers: selection and navigation', () => {
  afterEach(releaseTimelines);

  it('a jump selects the event, shows its detail and marks the rows it links to', async () => {
    const t = await composeTimeline(timelineOver(bytes));
    const log = t.timeline.log;
    const call = [...Array(log.eventCount).keys()].find((s) => log.eventType(s) === 'tool/call')!;
    await t.navigation.jumpTo(call);
    assert.equal(t.view.selectedSeq, call);
    assert.equal(t.navigation.detail?.seq, call);
    assert.equal(t.list.row(t.list.activeIndex)?.seq, call);
    const targets = new Set(t.navigation.detail!.links.map((l) => l.target));
    assert.ok(targets.size > 0);
    assert.deepEqual([...t.navigation.highlighted].sort(), [...targets].sort(), 'one request brings the detail and its marks');
    assert.deepEqual(t.page.focus.at(-1), 'list');
  });

  it('an event the order has no row for is shown in the Full log, unfiltered', async () => {
    const t = await composeTimeline(timelineOver(bytes), { order: 'surface' });
    const log = t.timeline.log;
    const turnStart = [...Array(log.eventCount).keys()].find((s) => log.eventType(s) === 'turn/start')!;
    await t.navigation.jumpTo(turnStart);
    assert.equal(t.view.order, 'log');
    assert.deepEqual(t.view.filter, []);
    assert.equal(t.view.selectedSeq, turnStart);
  });

  it('back and forward return to the places jumped from; links are followed in turn', async () => {
    const t = await composeTimeline(timelineOver(bytes));
    const log = t.timeline.log;
    const result = [...Array(log.eventCount).keys()].find((s) => log.eventType(s) === 'tool/result')!;
    await t.navigation.jumpTo(2);
    await t.navigation.jumpTo(result);
    const links = t.navigation.detail!.links.map((l) => l.target);
    await t.navigation.followNextLink();
    assert.equal(t.view.selectedSeq, links[0]);
    await t.navigation.back();
    assert.equal(t.view.selectedSeq, result);
    await t.navigation.back();
    assert.equal(t.view.selectedSeq, 2);
    await t.navigation.forward();
    assert.equal(t.view.selectedSeq, result);
    assert.equal(t.navigation.history.canGoForward, true);
  });

  it('Shift grows a range from where the selection was; any other selection starts again', async () => {
    const t = await composeTimeline(timelineOver(bytes));
    await t.navigation.select(4);
    t.navigation.extendRange(true);
    await t.navigation.select(9);
    await idle();
    assert.deepEqual(t.navigation.range, { start: 4, end: 9 });
    assert.match(t.host.said.at(-1)!, /^Seqs 4–9 selected/);
    t.navigation.extendRange(false);
    await t.navigation.select(2);
    assert.equal(t.navigation.range, undefined);
  });
});

describe('webview controllers: keyboard and expansion', () => {
  afterEach(releaseTimelines);

  it('list keys move the active row and select its event; Enter opens the inspector', async () => {
    const t = await composeTimeline(timelineOver(bytes));
    assert.equal(t.keyboard.listKey(key('j')), true);
    assert.equal(t.keyboard.listKey(key('ArrowDown')), true);
    await idle();
    assert.equal(t.list.activeIndex, 2);
    assert.equal(t.view.selectedSeq, t.list.row(2)!.seq);
    t.keyboard.listKey(key('End'));
    await idle();
    assert.equal(t.list.activeIndex, t.list.total - 1);
    t.keyboard.listKey(key('Home'));
    t.keyboard.listKey(key('k'));
    await idle();
    assert.equal(t.list.activeIndex, 0, 'the list does not move above its first row');
    t.keyboard.listKey(key('Enter'));
    await settle(() => t.page.focus.includes('inspector'), 'Enter opens the inspector');
    assert.equal(t.keyboard.listKey(key('x')), false, 'a key of nobody is left to the page');
  });

  it('page keys: Alt+digit picks an order, / searches, Escape leaves the inspector, typing is left alone', async () => {
    const t = await composeTimeline(timelineOver(bytes));
    const onKey = t.keys.onKey!;
    assert.ok(onKey, 'the keymap listens while the host is connected');
    assert.equal(onKey(key('1', { altKey: true })), true);
    await idle();
    assert.equal(t.view.order, 'surface');
    assert.equal(onKey(key('/', { typing: true })), false);
    assert.equal(onKey(key('/')), true);
    assert.equal(t.page.focus.at(-1), 'search');
    assert.equal(onKey(key('Escape', { inInspector: true })), true);
    assert.equal(t.page.focus.at(-1), 'list');
    t.host.disconnect();
    assert.equal(t.keys.onKey, undefined, 'and stops listening when it is disconnected');
  });

  it('ArrowRight expands a chunk run into its chunks, ArrowLeft collapses it again', async () => {
    const t = await composeTimeline(timelineOver(bytes));
    const rows = await rowsOf(t);
    const run = rows.find((r) => r.kind === 'chunkRun')!;
    const before = t.list.total;
    await t.navigation.select(run.seq, { index: run.index }); // the keys select the row they reach
    assert.equal(t.keyboard.listKey(key('ArrowRight')), true);
    await settle(() => t.list.total === before + (run.runLength ?? 1) - 1, 'the run opens');
    assert.deepEqual(t.surface.scrolls.at(-1), { index: t.list.activeIndex, block: 'center' }, 'the run stays in view');
    await t.list.cache.ready(t.list.activeIndex, t.list.activeIndex);
    assert.equal(t.list.row(t.list.activeIndex)?.seq, run.seq, 'its first chunk is the active row');
    assert.equal(t.keyboard.listKey(key('ArrowLeft')), true);
    await settle(() => t.list.total === before, 'the run closes');
    assert.equal(t.keyboard.listKey(key('ArrowLeft')), false, 'nothing more to close');
  });

  it("a replacement's bracket opens on the rows it shadowed, as the Full log draws them", async () => {
    const t = await composeTimeline(timelineOver(bytes));
    const replacement = t.timeline.log.replacements()[0];
    await t.expansion.loadBrackets();
    assert.equal(t.expansion.brackets.size, t.timeline.log.replacements().length);
    const bracket = t.expansion.brackets.get(replacement.seq)!;
    t.expansion.toggleBracket(replacement.seq);
    await settle(() => t.expansion.rowsOf(bracket).every((r) => r !== undefined), 'the shadowed rows arrive');
    assert.deepEqual(
      t.expansion.rowsOf(bracket).map((r) => r!.seq),
      [...replacement.shadowedSeqs],
    );
    t.expansion.toggleBracket(replacement.seq);
    assert.equal(t.expansion.expandedBrackets.size, 0);
  });
});
