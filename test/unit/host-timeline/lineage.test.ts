// A child session in the timeline: the seed it inherited from its parent is marked on its rows, the
// summary names the parent and the seed, and the lineage requests reach the editor's links (or say
// there are none where no Sessions view handed them in).
import { strict as assert } from 'node:assert';
import { loadSessionFile } from '../../../src/core';
import { handleRequest } from '../../../src/host/timeline/request-handlers';
import { SessionTimeline, type TimelineHost } from '../../../src/host/timeline/session-timeline';
import { Formatter } from '../../../src/present';
import { isResponseMessage, type LineageTarget, type RowWindow, type SessionSummary } from '../../../src/protocol';
import { LogBuilder } from '../../support/build-log';

const fmt = new Formatter({ locale: 'en-US', timeZone: 'UTC' });

function childLog(header: ConstructorParameters<typeof LogBuilder>[0]): Uint8Array {
  const b = new LogBuilder(header);
  for (let turn = 0; turn < 2; turn++) {
    b.turnStart();
    b.user(`question ${turn}`);
    b.assistant({ text: `answer ${turn}` });
    b.turnEnd();
  }
  return b.bytes();
}

function timelineOf(bytes: Uint8Array, extra: Partial<TimelineHost> = {}): SessionTimeline {
  return new SessionTimeline(loadSessionFile(bytes), 1, fmt, {
    summaryContext: () => ({
      fileName: 'c.jsonl',
      filePath: '/tmp/c.jsonl',
      turns: 2,
      file: { state: 'following', size: bytes.length, mtimeMs: 0 },
      followLiveLogs: true,
      fileBytes: bytes.length,
      restrictedMode: false,
      loadMs: 1,
    }),
    reveal: async () => true,
    reload: () => {},
    ...extra,
  });
}

async function result<T>(t: SessionTimeline, method: string, params: unknown): Promise<T> {
  const response = await handleRequest(t, { type: 'request', id: 1, method, params }, () => {});
  assert.ok(response && isResponseMessage(response), `the response validates: ${JSON.stringify(response).slice(0, 300)}`);
  assert.ok(response.ok, JSON.stringify(response));
  return response.result as T;
}

describe('host timeline: lineage of a child session', () => {
  const header = { cwd: '/work/project', parentSession: 'parent-0001', seedLength: 4, origin: 'subagent' };

  it('marks the inherited seed on its rows (seq < seedLength) and on no other', async () => {
    const t = timelineOf(childLog(header));
    const window = await result<RowWindow>(t, 'rows', { order: 'log', start: 0, count: 100 });
    assert.ok(window.rows.length > 4);
    for (const row of window.rows) assert.equal(row.inherited === true, row.seq < 4, `seq ${row.seq}`);
  });

  it('names the parent, the origin and the seed in the summary', async () => {
    const s = await result<SessionSummary>(timelineOf(childLog(header)), 'summary', {});
    assert.deepEqual(s.lineage, { parentSession: 'parent-0001', origin: 'subagent', seedLength: 4 });
  });

  it('a session of its own has no lineage and no inherited rows', async () => {
    const t = timelineOf(childLog({ cwd: '/work/project' }));
    assert.equal((await result<SessionSummary>(t, 'summary', {})).lineage, undefined);
    const window = await result<RowWindow>(t, 'rows', { order: 'log', start: 0, count: 100 });
    assert.ok(window.rows.every((r) => r.inherited === undefined));
  });

  it('asks the editor for children and opens the parent or a child through it', async () => {
    const opened: LineageTarget[] = [];
    const t = timelineOf(childLog(header), {
      childSessions: async () => 3,
      openLineage: async (to) => {
        opened.push(to);
        return true;
      },
    });
    assert.deepEqual(await result(t, 'lineage', {}), { children: 3 });
    assert.deepEqual(await result(t, 'openLineage', { to: 'parent' }), { opened: true });
    assert.deepEqual(await result(t, 'openLineage', { to: 'children' }), { opened: true });
    assert.deepEqual(opened, ['parent', 'children']);
  });

  it('without a Sessions view there are no children and nothing opens', async () => {
    const t = timelineOf(childLog(header));
    assert.deepEqual(await result(t, 'lineage', {}), { children: 0 });
    assert.deepEqual(await result(t, 'openLineage', { to: 'parent' }), { opened: false });
    const bad = await handleRequest(t, { type: 'request', id: 2, method: 'openLineage', params: { to: 'sideways' } }, () => {});
    assert.equal(bad?.ok, false);
  });
});
