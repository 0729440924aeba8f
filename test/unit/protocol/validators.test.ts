// The protocol's validators accept what each side sends and refuse anything else: a webview message
// is untrusted input for the host, a host message is checked by the webview before it draws.
import { strict as assert } from 'node:assert';
import {
  isHostMessage,
  isNotificationMessage,
  isResponseEnvelope,
  isResponseMessage,
  isWebviewToHost,
  MAX_WINDOW,
  NOTIFICATIONS,
  PARAMS,
  RESULTS,
  sameGeneration,
  type ResponseMessage,
  type RowWindow,
} from '../../../src/protocol';

const generation = { events: 10, replaceGeneration: 1, load: 1 };
const row: RowWindow['rows'][number] = {
  kind: 'event',
  index: 0,
  seq: 0,
  type: 'user/message',
  label: 'User message',
  icon: 'account',
  line: 2,
  summary: '[user] "hi"',
  surface: 'node',
  surfaceIndex: 0,
  messageIndex: 0,
};

describe('protocol validators', () => {
  it('accepts well-formed requests and refuses bad params', () => {
    assert.ok(isWebviewToHost({ type: 'request', id: 1, method: 'rows', params: { order: 'log', start: 0, count: 100 } }));
    assert.ok(
      isWebviewToHost({
        type: 'request',
        id: 2,
        method: 'rows',
        params: { order: 'surface', start: 5, count: 10, filter: { types: ['tool/call'], collapseChunkRuns: true } },
      }),
    );
    assert.ok(isWebviewToHost({ type: 'request', id: 3, method: 'summary', params: {} }));
    assert.ok(isWebviewToHost({ type: 'request', id: 4, method: 'revealInTextEditor', params: { seq: 3 } }));
    const bad = [
      { type: 'request', id: 1, method: 'rows', params: { order: 'sideways', start: 0, count: 1 } },
      { type: 'request', id: 1, method: 'rows', params: { order: 'log', start: -1, count: 1 } },
      { type: 'request', id: 1, method: 'rows', params: { order: 'log', start: 0, count: MAX_WINDOW + 1 } },
      { type: 'request', id: 1.5, method: 'summary', params: {} },
      { type: 'request', id: 1, method: 'constructor', params: {} },
      { type: 'request', id: 1, method: '__proto__', params: {} },
      { type: 'request', id: 1, method: 'eventDetail', params: { seq: '3' } },
      { type: 'request', id: 1, method: 'revealInTextEditor', params: {} },
      { type: 'request', id: 1, method: 'revealInTextEditor', params: { line: 0 } },
      { type: 'request', id: 1, method: 'search', params: { text: '', order: 'log' } },
      { type: 'request', id: 1, method: 'overview', params: { buckets: 0 } },
      { type: 'request', id: 1, method: 'rows' },
      null,
      'request',
    ];
    for (const m of bad) assert.equal(isWebviewToHost(m), false, JSON.stringify(m));
  });

  it('checks every method has params and result validators, every notification a params validator', () => {
    for (const [method, check] of Object.entries(PARAMS)) assert.equal(typeof check, 'function', method);
    assert.deepEqual(Object.keys(RESULTS).sort(), Object.keys(PARAMS).sort());
    for (const [method, check] of Object.entries(NOTIFICATIONS)) assert.equal(typeof check, 'function', method);
  });

  it('accepts the messages of the webview itself and nothing retired', () => {
    assert.ok(isWebviewToHost({ type: 'ready', protocolVersion: 3 }));
    assert.ok(isWebviewToHost({ type: 'rendered', events: 3, hasHeader: true }));
    for (const retired of [
      { type: 'reload' },
      { type: 'revealLine', line: 3 },
      { type: 'testReport', name: 'x', values: {} },
      { type: 'request', id: 1, method: 'provenance', params: { seq: 1 } },
    ])
      assert.equal(isWebviewToHost(retired), false, JSON.stringify(retired));
    assert.equal(isHostMessage({ type: 'snapshot', snapshot: {} }), false);
  });

  it('accepts a typed response or a typed error, and refuses a result of the wrong shape', () => {
    const ok: ResponseMessage<'rows'> = {
      type: 'response',
      id: 1,
      method: 'rows',
      ok: true,
      generation,
      result: { order: 'log', start: 0, total: 1, rows: [row] },
    };
    assert.ok(isResponseMessage(ok));
    assert.ok(isResponseMessage({ type: 'response', id: 1, method: 'rows', ok: false, error: { code: 'outOfRange', message: 'beyond' } }));
    assert.equal(isResponseMessage({ ...ok, generation: { events: 1 } }), false);
    assert.equal(isResponseMessage({ ...ok, result: { ...ok.result, rows: [{ ...row, line: 0 }] } }), false);
    assert.equal(isResponseMessage({ ...ok, result: { ...ok.result, rows: [{ ...row, surface: 'maybe' }] } }), false);
    assert.equal(isResponseMessage({ type: 'response', id: 1, method: 'rows', ok: false, error: { code: 'oops', message: 'x' } }), false);
    // The envelope alone passes the page's first check; the request waiting for it checks the result.
    assert.ok(isResponseEnvelope({ ...ok, result: { ...ok.result, rows: [{ ...row, line: 0 }] } }));
    assert.equal(isResponseEnvelope({ ...ok, method: 'provenance' }), false);
  });

  it('checks notifications: appended, search progress, loading, reveal', () => {
    const note = (method: string, params: unknown) => ({ type: 'notification', method, params });
    assert.ok(
      isNotificationMessage(
        note('appended', {
          generation,
          added: 1,
          surfaceChanged: true,
          live: 'live',
          liveText: 'Live',
          counts: { events: 10, turns: 1, packedRows: 0, errors: 0, warnings: 0, infos: 0, linesBeyondDamage: 0 },
          facts: [{ name: 'events', label: 'Events', value: '10' }],
          file: { state: 'following', size: 100, mtimeMs: 1 },
        }),
      ),
    );
    assert.equal(isNotificationMessage(note('appended', { generation, added: 1 })), false);
    assert.ok(isNotificationMessage(note('searchProgress', { searchId: 1, scanned: 10, total: 100, matchCount: 2 })));
    assert.ok(isNotificationMessage(note('loading', { fileName: 'a.jsonl', totalBytes: 10, phase: 'parsing', fraction: 0.5 })));
    assert.equal(isNotificationMessage(note('loading', { fileName: 'a.jsonl', totalBytes: 10, phase: 'thinking' })), false);
    assert.ok(isNotificationMessage(note('reveal', { seq: 4, reason: 'goToSeq' })));
    assert.equal(isNotificationMessage(note('reveal', { reason: 'goToSeq' })), false, 'a reveal names a seq or a line');
    assert.equal(isNotificationMessage(note('reveal', { line: 0, reason: 'nextProblem' })), false, 'lines are 1-based');
    assert.equal(isNotificationMessage(note('hello', {})), false);
    assert.equal(
      isNotificationMessage({ type: 'loading', fileName: 'a.jsonl', totalBytes: 10, phase: 'parsing' }),
      false,
      'the old envelope',
    );
  });

  it('tells a stale generation from the current one', () => {
    assert.ok(sameGeneration(generation, { ...generation }));
    assert.equal(sameGeneration(generation, { ...generation, events: 11 }), false);
    assert.equal(sameGeneration(generation, { ...generation, replaceGeneration: 2 }), false);
    assert.equal(sameGeneration(generation, { ...generation, load: 2 }), false);
  });
});
