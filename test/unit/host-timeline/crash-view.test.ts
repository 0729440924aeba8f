// The timeline's crash-repair requests over real core loads: the open turn with its ghost closers
// (codes, links to the calls, live versus crash), a torn tail with its inert preview, repairs already
// in a log marked on their rows and kept by the repairs filter, health entries with their targets,
// and the repair actions handed to the host — every answer validated by the shared protocol.
import { strict as assert } from 'node:assert';
import { loadSessionFile, planRepair } from '../../../src/core';
import { handleRequest } from '../../../src/host/timeline/request-handlers';
import { SessionTimeline, type TimelineHost } from '../../../src/host/timeline/session-timeline';
import { Formatter } from '../../../src/present';
import {
  isNotificationMessage,
  isResponseMessage,
  isWebviewToHost,
  type CrashReviewView,
  type RepairAction,
  type RowWindow,
} from '../../../src/protocol';
import { richLog } from '../../support/build-log';

const fmt = new Formatter({ locale: 'en-US', timeZone: 'UTC' });
const enc = new TextEncoder();

function timelineOf(bytes: Uint8Array, options: { mtimeMs?: number; actions?: RepairAction[] } = {}): SessionTimeline {
  const host: TimelineHost = {
    summaryContext: () => ({
      fileName: 's.jsonl',
      filePath: '/tmp/s.jsonl',
      turns: 0,
      file: { state: 'following', size: bytes.length, mtimeMs: options.mtimeMs ?? 0 },
      followLiveLogs: true,
      fileBytes: bytes.length,
      restrictedMode: false,
      loadMs: 1,
    }),
    reveal: async () => true,
    reload: () => {},
    readFileBytes: async () => bytes,
    runRepairAction: async (action) => {
      options.actions?.push(action);
      return true;
    },
  };
  return new SessionTimeline(loadSessionFile(bytes), 1, fmt, host);
}

async function result<T>(t: SessionTimeline, method: string, params: unknown): Promise<T> {
  const request = { type: 'request', id: 3, method, params };
  assert.ok(isWebviewToHost(request), `the request validates: ${method}`);
  const response = await handleRequest(t, request, () => {});
  assert.ok(response && isResponseMessage(response), `the response validates: ${JSON.stringify(response).slice(0, 400)}`);
  assert.ok(response.ok, JSON.stringify(response));
  return response.result as T;
}

describe('host timeline: crash review', () => {
  it('an open turn after a recorded call: ghost closers with TOOL_OUTCOME_UNKNOWN linked to the tool/call, then step/end and turn/end', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const t = timelineOf(b.bytes());
    const review = await result<CrashReviewView>(t, 'crashReview', {});
    const open = review.openTurn!;
    const callSeq = b.events.findIndex((e) => e.type === 'tool/call' && (e.data as any).callId === 'call-d');
    assert.deepEqual(
      open.ghosts.map((g) => [g.seq, g.type, g.code]),
      [
        [b.events.length, 'tool/result', 'TOOL_OUTCOME_UNKNOWN'],
        [b.events.length + 1, 'step/end', undefined],
        [b.events.length + 2, 'turn/end', undefined],
      ],
    );
    assert.equal(open.ghosts[0].linkSeq, callSeq);
    assert.match(open.ghosts[0].linkText!, new RegExp(`answers tool/call seq ${callSeq}`));
    assert.match(open.ghosts[0].meaning!, /recorded as started, but its result never was/);
    // The row shows the seq, type and code itself: the summary says only the rest.
    assert.match(open.ghosts[0].summary, /^for read call "call-d"$/);
    assert.match(open.ghosts[1].summary, /^closing step \d+$/);
    assert.match(open.ghosts[2].summary, /^ending turn \d+ as interrupted$/);
    assert.deepEqual(
      open.ghosts.map((g) => g.onSurface),
      [true, false, false],
    );
    assert.equal(open.pendingCalls[0].code, 'TOOL_OUTCOME_UNKNOWN');
    assert.equal(open.pendingCalls[0].jumpSeq, callSeq);
    assert.equal(open.activity, 'still', 'a file unchanged since 1970 looks crashed');
    assert.match(open.activityText, /looks like a crash/);
    assert.equal(open.blockedText, undefined);
    assert.equal(review.tornTail, undefined);
    const pending = review.health.find((e) => e.kind === 'pending-call')!;
    assert.deepEqual(pending.target, { kind: 'event', seq: callSeq });
  });

  it('a call never recorded as started: TOOL_NOT_STARTED linked to the message that asked for it; a file that just changed looks live', async () => {
    const b = richLog({ openTail: 'unrecorded-call' });
    const t = timelineOf(b.bytes(), { mtimeMs: Date.now() });
    const open = (await result<CrashReviewView>(t, 'crashReview', {})).openTurn!;
    const messageSeq = b.events.findIndex((e) => e.type === 'assistant/message' && JSON.stringify(e.data).includes('"id":"call-d"'));
    assert.equal(open.ghosts[0].code, 'TOOL_NOT_STARTED');
    assert.equal(open.ghosts[0].linkSeq, messageSeq);
    assert.match(open.ghosts[0].linkText!, /never started/);
    assert.equal(open.activity, 'growing');
    assert.match(open.activityText, /still writing this turn/);
  });

  it('a torn last line: size, an inert preview, what is kept, and the repair blocked until it is removed', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const t = timelineOf(b.bytes({ tornTail: '{"type":"tool/result","x":"\u202e<script>' }));
    const review = await result<CrashReviewView>(t, 'crashReview', {});
    const tail = review.tornTail!;
    assert.equal(tail.kind, 'torn-line');
    assert.match(tail.heading, /Torn last line: \d+ bytes at line \d+ with no newline/);
    assert.ok(tail.preview.includes('\\u202e'), 'the bidi override is shown escaped');
    assert.match(tail.keptText, /^kept: .* everything from line \d+ on is not part of the session$/);
    assert.match(review.openTurn!.blockedText!, /Remove the torn tail first/);
    assert.deepEqual(review.health.find((e) => e.kind === 'torn-tail')!.target, { kind: 'tornTail' });
  });

  it('repairs already made: rows marked, the Repairs list, the repairs filter in the Full log and Model view', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const open = loadSessionFile(b.bytes()).log;
    const plan = planRepair(open);
    assert.ok(plan.ok);
    const first = open.eventCount;
    const repaired = enc.encode(b.text() + plan.lines.map((l) => `${l}\n`).join(''));
    const t = timelineOf(repaired);
    const review = await result<CrashReviewView>(t, 'crashReview', {});
    assert.equal(review.openTurn, undefined);
    assert.equal(review.repairs.length, 1);
    assert.deepEqual([review.repairs[0].firstSeq, review.repairs[0].turnEndSeq], [first, first + 2]);
    assert.match(review.repairs[0].text, /closed by crash repair .*TOOL_OUTCOME_UNKNOWN/);
    const all = await result<RowWindow>(t, 'rows', { order: 'log', start: 0, count: 2000 });
    assert.deepEqual(
      all.rows.filter((r) => r.repair).map((r) => [r.seq, r.repair]),
      [
        [first, 'closer'],
        [first + 1, 'closer'],
        [first + 2, 'closer'],
      ],
    );
    const only = await result<RowWindow>(t, 'rows', {
      order: 'log',
      start: 0,
      count: 2000,
      filter: { repairsOnly: true, collapseChunkRuns: true },
    });
    assert.deepEqual(
      only.rows.map((r) => r.seq),
      [first, first + 1, first + 2],
    );
    const model = await result<RowWindow>(t, 'rows', { order: 'surface', start: 0, count: 2000, filter: { repairsOnly: true } });
    assert.deepEqual(
      model.rows.map((r) => r.type),
      ['tool/result'],
      'of the closers only the tool result is a message',
    );
    const at = await result<{ index?: number }>(t, 'rowOf', {
      order: 'log',
      seq: first + 2,
      filter: { repairsOnly: true, collapseChunkRuns: true },
    });
    assert.equal(at.index, 2);
  });

  it('the repair actions go to the host; a bad action is refused as a bad request', async () => {
    const actions: RepairAction[] = [];
    const t = timelineOf(richLog({ openTail: 'recorded-call' }).bytes(), { actions });
    assert.deepEqual(await result(t, 'repairAction', { action: 'apply' }), { started: true });
    assert.deepEqual(await result(t, 'repairAction', { action: 'removeTornTail' }), { started: true });
    assert.deepEqual(actions, ['apply', 'removeTornTail']);
    assert.equal(isWebviewToHost({ type: 'request', id: 1, method: 'repairAction', params: { action: 'rm -rf' } }), false);
    const refused = await handleRequest(t, { type: 'request', id: 4, method: 'repairAction', params: { action: 'truncate' } }, () => {});
    assert.equal(refused?.ok, false);
  });

  it('the webview refuses a review whose ghost row has an unknown code or type', () => {
    const generation = { events: 1, replaceGeneration: 0, load: 1 };
    const ghost = {
      seq: 5,
      type: 'tool/result',
      label: 'Tool result',
      icon: 'tools',
      summary: 's',
      code: 'TOOL_OUTCOME_UNKNOWN',
      onSurface: true,
    };
    const review = (g: unknown) => ({
      type: 'response',
      id: 1,
      method: 'crashReview',
      ok: true,
      generation,
      result: {
        repairs: [],
        health: [],
        healthOmitted: 0,
        openTurn: { activity: 'still', activityText: 'x', pendingCalls: [], ghosts: [g] },
      },
    });
    assert.ok(isResponseMessage(review(ghost)));
    assert.equal(isResponseMessage(review({ ...ghost, code: 'MAYBE' })), false);
    assert.equal(isResponseMessage(review({ ...ghost, type: 'user/message' })), false);
    assert.equal(
      isResponseMessage({
        type: 'response',
        id: 1,
        method: 'crashReview',
        ok: true,
        generation,
        result: {
          repairs: [],
          health: [{ kind: 'x', severity: 'error', message: 'm', target: { kind: 'line', line: 0 } }],
          healthOmitted: 0,
        },
      }),
      false,
    );
  });

  it('the strings table the webview words its labels with holds only strings', () => {
    assert.ok(
      isNotificationMessage({
        type: 'notification',
        method: 'strings',
        params: { language: 'zh-cn', strings: { 'Open turn': '未结束的轮次' } },
      }),
    );
    assert.equal(
      isNotificationMessage({
        type: 'notification',
        method: 'strings',
        params: { language: 'zh-cn', strings: { 'Open turn': { toString: 1 } } },
      }),
      false,
    );
  });
});
