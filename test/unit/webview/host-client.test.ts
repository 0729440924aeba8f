// The webview's client of the protocol: each request gets its own id and is settled by the response of
// that id only; a result is checked against the method that was asked (a result of the wrong shape, or
// of another method, is refused, never drawn); a host error keeps its code; a request the host never
// answers times out; notifications go to the handler of their method, anything else is ignored.
import { strict as assert } from 'node:assert';
import { notification, RequestError, type NotificationHandlers, type RequestMessage } from '../../../src/protocol';
import { HostClient } from '../../../webview/host-client';

const generation = { events: 3, replaceGeneration: 0, load: 1 };

function client(timeoutMs?: number) {
  const sent: RequestMessage[] = [];
  const c = new HostClient({ postMessage: (m) => m.type === 'request' && sent.push(JSON.parse(JSON.stringify(m))) }, timeoutMs);
  return { c, sent };
}

const codeOf = (error: unknown) => (error instanceof RequestError ? error.code : `not a RequestError: ${String(error)}`);

describe('webview: host client', () => {
  it('settles each request with the response of its own id, checked against its method', async () => {
    const { c, sent } = client();
    const rowOf = c.request('rowOf', { order: 'log', seq: 2 });
    const lineage = c.request('lineage', {});
    assert.deepEqual(
      sent.map((m) => [m.id, m.method]),
      [
        [1, 'rowOf'],
        [2, 'lineage'],
      ],
    );
    c.receive({ type: 'response', id: 2, method: 'lineage', ok: true, generation, result: { children: 4 } });
    c.receive({ type: 'response', id: 1, method: 'rowOf', ok: true, generation, result: { index: 2, total: 3 } });
    assert.deepEqual((await lineage).result, { children: 4 });
    const answer = await rowOf;
    assert.deepEqual(answer.result, { index: 2, total: 3 });
    assert.deepEqual(answer.generation, generation);
    assert.equal(c.pending, 0);
  });

  it('refuses a result of the wrong shape, or of another method, as a bad response', async () => {
    const { c } = client();
    const wrongShape = c.request('rowOf', { order: 'log', seq: 2 });
    c.receive({ type: 'response', id: 1, method: 'rowOf', ok: true, generation, result: { index: -1, total: 3 } });
    await assert.rejects(wrongShape, (e) => codeOf(e) === 'badResponse');
    const otherMethod = c.request('rowOf', { order: 'log', seq: 2 });
    c.receive({ type: 'response', id: 2, method: 'lineage', ok: true, generation, result: { children: 1 } });
    await assert.rejects(otherMethod, (e) => codeOf(e) === 'badResponse');
  });

  it("keeps the host's error code and message", async () => {
    const { c } = client();
    const far = c.request('eventDetail', { seq: 99 });
    c.receive({ type: 'response', id: 1, method: 'eventDetail', ok: false, error: { code: 'outOfRange', message: 'seq 99 is beyond' } });
    await assert.rejects(far, (e) => codeOf(e) === 'outOfRange' && (e as Error).message === 'seq 99 is beyond');
  });

  it('times out a request the host never answers; a late answer is then ignored', async () => {
    const { c } = client(10);
    const never = c.request('summary', {});
    await assert.rejects(never, (e) => codeOf(e) === 'timeout');
    c.receive({ type: 'response', id: 1, method: 'lineage', ok: true, generation, result: { children: 1 } });
    assert.equal(c.pending, 0);
  });

  it('hands each notification to the handler of its method and ignores what is not the protocol', () => {
    const { c } = client();
    const got: string[] = [];
    const handlers: NotificationHandlers = {
      loading: (p) => got.push(`loading ${p.phase}`),
      summary: () => got.push('summary'),
      appended: () => got.push('appended'),
      loadFailed: (p) => got.push(`failed ${p.message}`),
      searchProgress: (p) => got.push(`progress ${p.scanned}/${p.total}`),
      reveal: (p) => got.push(`reveal ${p.seq}`),
      strings: (p) => got.push(`strings ${p.language}`),
      pendingEdits: (p) => got.push(`pending ${p.events.length}`),
    };
    c.receive(notification('reveal', { seq: 4, reason: 'goToSeq' }));
    assert.deepEqual(got, [], 'nothing is handled before there are handlers');
    c.listen(handlers);
    c.receive(notification('reveal', { seq: 4, reason: 'goToSeq' }));
    c.receive(notification('searchProgress', { searchId: 1, scanned: 5, total: 10, matchCount: 0 }));
    c.receive(notification('loadFailed', { fileName: 'a.jsonl', message: 'gone' }));
    c.receive({ type: 'notification', method: 'reveal', params: { reason: 'goToSeq' } });
    c.receive({ type: 'reveal', seq: 4 });
    c.receive({ type: 'notification', method: 'toString', params: {} });
    c.receive('summary');
    assert.deepEqual(got, ['reveal 4', 'progress 5/10', 'failed gone']);
  });
});
