// The timeline's request handler over real core loads of logs built in code: row windows in every
// order, the Model view equal to deriveMessages, generation stamps that go stale on appends and
// replaces, search, surface as of a seq and its diff, details, provenance and appends folded in.
import { strict as assert } from 'node:assert';
import { extendLoadedFile, loadSessionFile, type LoadedFile } from '../../../src/core';
import { handleRequest } from '../../../src/host/timeline/request-handlers';
import { SessionTimeline } from '../../../src/host/timeline/session-timeline';
import { Formatter } from '../../../src/present';
import { isResponseMessage, sameGeneration, type ResponseMessage } from '../../../src/protocol';
import { LogBuilder, richLog } from '../../support/build-log';

const fmt = new Formatter({ locale: 'en-US', timeZone: 'UTC' });

function timelineOf(bytes: Uint8Array, load = 1): SessionTimeline {
  const source: LoadedFile = loadSessionFile(bytes);
  return new SessionTimeline(source, load, fmt, {
    summaryContext: () => ({
      fileName: 's.jsonl',
      filePath: '/tmp/s.jsonl',
      turns: 0,
      file: { state: 'following', size: bytes.length, mtimeMs: 0 },
      followLiveLogs: true,
      fileBytes: bytes.length,
      restrictedMode: false,
      loadMs: 1,
    }),
    reveal: async () => true,
    reload: () => {},
  });
}

async function ask(t: SessionTimeline, method: string, params: unknown): Promise<ResponseMessage> {
  const response = await handleRequest(t, { type: 'request', id: 7, method, params }, () => {});
  assert.ok(response, 'answered');
  assert.ok(isResponseMessage(response), `the response validates: ${JSON.stringify(response).slice(0, 300)}`);
  return response;
}

async function result<T>(t: SessionTimeline, method: string, params: unknown): Promise<T> {
  const r = await ask(t, method, params);
  assert.ok(r.ok, `ok: ${JSON.stringify(r)}`);
  return r.result as T;
}

describe('host timeline: requests over a loaded log', () => {
  const b = richLog();
  const t = timelineOf(b.bytes());
  const log = t.log;

  it('answers full-log windows, one row per event, with 1-based lines and surface marks', async () => {
    const w = await result<any>(t, 'rows', { order: 'log', start: 0, count: 2000 });
    assert.equal(w.total, log.eventCount);
    assert.equal(w.rows.length, log.eventCount);
    w.rows.forEach((row: any, i: number) => {
      assert.equal(row.seq, i);
      assert.equal(row.line, log.place(i)!.line);
      assert.equal(row.type, log.eventType(i));
    });
    const shadowed = w.rows.filter((r: any) => r.surface === 'shadowed');
    const expected = log
      .replacements()
      .flatMap((r) => r.shadowedSeqs)
      .filter((s) => !log.surface().includes(s));
    assert.deepEqual(
      shadowed.map((r: any) => r.seq).sort((a: number, c: number) => a - c),
      [...new Set(expected)].sort((a, c) => a - c),
    );
    for (const r of shadowed) assert.ok(r.shadowedBy !== undefined);
    const window = await result<any>(t, 'rows', { order: 'log', start: 5, count: 3 });
    assert.deepEqual(
      window.rows.map((r: any) => r.seq),
      [5, 6, 7],
    );
  });

  it('Model view rows are exactly the derived messages, in order', async () => {
    const w = await result<any>(t, 'rows', { order: 'surface', start: 0, count: 2000 });
    const derived = log.deriveMessages();
    assert.equal(w.total, derived.length);
    assert.equal(w.rows.length, derived.length);
    w.rows.forEach((row: any, i: number) => {
      assert.equal(row.messageIndex, i);
      const event = log.event(row.seq)!;
      const message = event.type === 'user/message' ? event.data : event.data.message;
      assert.deepEqual(message, derived[i]);
    });
    assert.deepEqual(b.derivedMessages(), derived);
  });

  it('the transcript order is the core transcript; a type filter narrows every order', async () => {
    const w = await result<any>(t, 'rows', { order: 'transcript', start: 0, count: 2000 });
    assert.deepEqual(
      w.rows.map((r: any) => r.seq),
      log.transcript(),
    );
    const calls = await result<any>(t, 'rows', { order: 'log', start: 0, count: 2000, filter: { types: ['tool/call'] } });
    assert.ok(calls.total > 0);
    for (const r of calls.rows) assert.equal(r.type, 'tool/call');
    const rowOf = await result<any>(t, 'rowOf', { order: 'log', seq: calls.rows[1].seq, filter: { types: ['tool/call'] } });
    assert.equal(rowOf.index, 1);
  });

  it('collapses packed chunk runs to one row that expands', async () => {
    const all = await result<any>(t, 'rows', { order: 'log', start: 0, count: 2000 });
    const collapsed = await result<any>(t, 'rows', { order: 'log', start: 0, count: 2000, filter: { collapseChunkRuns: true } });
    const runs = collapsed.rows.filter((r: any) => r.kind === 'chunkRun');
    assert.ok(runs.length > 0, 'the sample streams chunks');
    const hidden = runs.reduce((n: number, r: any) => n + r.runLength - 1, 0);
    assert.equal(collapsed.total, all.total - hidden);
    for (const r of runs) for (let s = r.seq; s <= r.lastSeq; s++) assert.equal(log.eventType(s), 'assistant/chunk');
    const expanded = await result<any>(t, 'rows', {
      order: 'log',
      start: 0,
      count: 2000,
      filter: { collapseChunkRuns: true, expandedRuns: [runs[0].seq] },
    });
    assert.equal(expanded.total, collapsed.total + runs[0].runLength - 1);
  });

  it('details: readable content, bounded raw line, provenance links both ways', async () => {
    const message = [...Array(log.eventCount).keys()].find(
      (s) => log.eventType(s) === 'assistant/message' && log.event(s)!.data.message.content.some((c: any) => c.type === 'tool-call'),
    )!;
    const d = await result<any>(t, 'eventDetail', { seq: message });
    assert.ok(d.blocks.some((x: any) => x.kind === 'toolCall'));
    assert.equal(d.raw.text, log.lineText(message));
    assert.ok(
      d.links.some((l: any) => l.relation === 'call'),
      'a message links to the calls it asked for',
    );
    assert.deepEqual(
      [...d.highlight].sort((a: number, c: number) => a - c),
      [...new Set<number>(d.links.map((l: any) => l.target))].sort((a, c) => a - c),
      'the detail carries the rows its links mark in the list',
    );
    const call = d.links.find((l: any) => l.relation === 'call').target;
    const p = await result<any>(t, 'eventDetail', { seq: call });
    assert.ok(p.links.some((l: any) => l.relation === 'requestedBy' && l.target === message));
    assert.ok(p.links.some((l: any) => l.relation === 'result'));
    assert.ok(p.highlight.includes(message), 'selecting the call marks the message that asked for it');
    const replacement = log.replacements()[0];
    const r = await result<any>(t, 'eventDetail', { seq: replacement.seq });
    assert.deepEqual(
      r.links
        .filter((l: any) => l.relation === 'shadowed')
        .map((l: any) => l.target)
        .sort((a: number, c: number) => a - c),
      [...replacement.shadowedSeqs].sort((a, c) => a - c),
    );
    const brackets = await result<any>(t, 'shadowBrackets', {});
    assert.equal(brackets.brackets.length, log.replacements().length);
    assert.equal(brackets.brackets[0].shadowedCount, replacement.shadowedSeqs.length);
    assert.match(brackets.brackets[0].tokensText, /1,000 tokens shadowed/);
  });

  it('answers a seq beyond the log with outOfRange and bad params with badRequest', async () => {
    const far = await ask(t, 'eventDetail', { seq: log.eventCount + 5 });
    assert.equal(far.ok, false);
    assert.equal(!far.ok && far.error.code, 'outOfRange');
    const bad = await ask(t, 'rows', { order: 'sideways', start: 0, count: 1 });
    assert.equal(!bad.ok && bad.error.code, 'badRequest');
  });

  it('surface as of a seq before a compaction differs from after it; the diff says how', async () => {
    const replacement = log.replacements()[0];
    const before = await result<any>(t, 'surfaceAsOf', { seq: replacement.seq - 1, start: 0, count: 2000 });
    const after = await result<any>(t, 'surfaceAsOf', { seq: replacement.seq, start: 0, count: 2000 });
    assert.ok(before.nodes.some((n: any) => replacement.shadowedSeqs.includes(n.seq)));
    assert.ok(!after.nodes.some((n: any) => replacement.shadowedSeqs.includes(n.seq)));
    assert.ok(after.nodes.some((n: any) => n.seq === replacement.seq));
    const end = await result<any>(t, 'surfaceAsOf', { seq: log.eventCount - 1, start: 0, count: 2000 });
    assert.deepEqual(
      end.nodes.map((n: any) => n.seq),
      [...log.surface()],
    );
    assert.equal(end.messageCount, log.deriveMessages().length);
    const diff = await result<any>(t, 'diffAsOf', { fromSeq: replacement.seq - 1, toSeq: replacement.seq });
    assert.equal(diff.added, 1);
    assert.equal(
      diff.removed,
      replacement.shadowedSeqs.filter((s) => before.nodes.some((n: any) => n.seq === s && n.messageIndex !== undefined)).length,
    );
    assert.equal(diff.toCount, diff.fromCount - diff.removed + diff.added);
  });

  it('searches the whole log and steps to the next and previous match', async () => {
    const found = await result<any>(t, 'search', { text: 'READ TWO', order: 'log' });
    assert.equal(found.complete, true);
    assert.ok(found.matchCount >= 1);
    for (const m of found.first) assert.match(log.lineText(m.seq)!, /read two/i);
    const exact = await result<any>(t, 'search', { text: 'READ TWO', order: 'log', caseSensitive: true });
    assert.equal(exact.matchCount, 0);
    const calls = await result<any>(t, 'search', { text: 'call-', order: 'log' });
    const next = await result<any>(t, 'searchStep', { searchId: calls.searchId, fromRow: calls.first[0].rowIndex, direction: 'next' });
    assert.ok(next.match.rowIndex > calls.first[0].rowIndex);
    const prev = await result<any>(t, 'searchStep', { searchId: calls.searchId, fromRow: calls.first[0].rowIndex, direction: 'previous' });
    assert.equal(prev.match.matchIndex, calls.matchCount - 1, 'previous from the first match wraps to the last');
    const page = await result<any>(t, 'searchMatches', { searchId: calls.searchId, start: 1, count: 2 });
    assert.deepEqual(
      page.matches.map((m: any) => m.matchIndex),
      [1, 2],
    );
    const gone = await ask(t, 'searchMatches', { searchId: 9999, start: 0, count: 1 });
    assert.equal(!gone.ok && gone.error.code, 'unknownSearch');
  });

  it('overview, time spans and usage are small and consistent', async () => {
    const o = await result<any>(t, 'overview', { buckets: 10 });
    assert.ok(o.surface.length <= 10);
    assert.equal(
      o.surface.reduce((a: number, c: number) => a + c, 0),
      log.surface().length,
    );
    assert.ok(o.marks.some((m: any) => m.kind === 'compaction'));
    assert.ok(o.marks.some((m: any) => m.kind === 'prune'));
    const spans = await result<any>(t, 'timeSpans', { maxSpans: 1000 });
    assert.ok(spans.spans.some((s: any) => s.kind === 'turn' && s.duration !== undefined));
    assert.ok(spans.spans.some((s: any) => s.kind === 'tool' && s.endSeq !== undefined));
    const usage = await result<any>(t, 'usage', { level: 'turn', start: 0, count: 100 });
    assert.ok(usage.total >= 3);
  });
});

describe('host timeline: live appends and generations', () => {
  it('folds an append into the indexes and marks earlier windows stale', async () => {
    const b = new LogBuilder();
    b.chatTurn('first');
    const first = b.bytes();
    const t = timelineOf(first);
    const w1 = await ask(t, 'rows', { order: 'surface', start: 0, count: 100 });
    assert.ok(w1.ok);
    b.chatTurn('second');
    const all = b.bytes();
    extendLoadedFile(t.source, all.subarray(first.length));
    const folded = t.foldAppend();
    assert.equal(folded.surfaceChanged, true);
    const w2 = await ask(t, 'rows', { order: 'surface', start: 0, count: 100 });
    assert.ok(w2.ok);
    assert.equal(sameGeneration(w1.generation, w2.generation), false, 'a window from before the append is stale');
    assert.equal((w2.result as any).total, t.log.deriveMessages().length);
    assert.ok((w2.result as any).total > (w1.result as any).total);

    // A replace bumps the replace generation.
    const beforeCompaction = b.bytes();
    b.compact();
    extendLoadedFile(t.source, b.bytes().subarray(beforeCompaction.length));
    t.foldAppend();
    const w3 = await ask(t, 'rows', { order: 'surface', start: 0, count: 100 });
    assert.ok(w3.ok);
    assert.ok(w3.generation.replaceGeneration > w2.generation.replaceGeneration);
    assert.equal((w3.result as any).total, t.log.deriveMessages().length);
    const marks = await ask(t, 'rows', { order: 'log', start: 0, count: 1000 });
    assert.ok(marks.ok && (marks.result as any).rows.some((r: any) => r.surface === 'shadowed'));
  });

  it('a reload is a new generation even with the same counts', () => {
    const bytes = richLog().bytes();
    assert.equal(sameGeneration(timelineOf(bytes, 1).generation, timelineOf(bytes, 2).generation), false);
  });
});
