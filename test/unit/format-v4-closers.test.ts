// The closers dsh's v4 writer appends to an open final turn (spec §7), compared whole: event shapes,
// key order, ids, seqs, times and dsh's two texts byte for byte; then the repaired log passes the v4
// restore, for a crash (`interrupted`) and for a fork cut inside the turn (`forked`).
import { strict as assert } from 'node:assert';
import type { FormatEvent } from '../../src/core/format';
import { restoreV4, v4Closers } from '../../src/core/format/v3-to-v4';
import { CloserScan } from '../../src/core/surface/repair';
import type { SessionEvent } from '../../src/core/types';
import { artifactOf, assistantMessage, baseV4Log, EventList, systemMessage, userMessage, type LooseEvent } from '../support/v4-artifacts';

const OUTCOME_UNKNOWN =
  'The tool call was interrupted after it was recorded, but no result was durably recorded. Its outcome is unknown. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.';
const NOT_STARTED = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.';

/** A turn whose second step advertised two calls, started the first, and stopped there. */
function openTurn(): LooseEvent[] {
  const list = new EventList();
  list.add('turn/start', { turn: 1 });
  list.add('step/start', { turn: 1, step: 1 });
  list.add('system/message', systemMessage(1, 1, 's1', 'You are an agent.'), { surfaceOp: 'append' });
  list.add('user/message', userMessage('u1', 'edit two files'), { surfaceOp: 'append' });
  list.add('request/header', { header: { config: { provider: 'p', model: 'm' } }, reason: 'initial' });
  list.add('assistant/message', assistantMessage(1, 1, 'a0', [{ type: 'text', text: 'Looking.' }]), { surfaceOp: 'append' });
  list.add('step/end', { turn: 1, step: 1 });
  list.add('step/start', { turn: 1, step: 2 });
  const calls = [
    { type: 'tool-call', id: 'call-a', name: 'write', arguments: '{"path":"a"}' },
    { type: 'tool-call', id: 'call-b', name: 'write', arguments: '{"path":"b"}' },
  ];
  list.add('assistant/message', assistantMessage(1, 2, 'a1', calls), { surfaceOp: 'append' });
  list.add('tool/call', { turn: 1, step: 2, callId: 'call-a', name: 'write', arguments: '{"path":"a"}' });
  return list.events;
}

describe('format v4 closers (spec §7)', () => {
  it('§7: per pending call a tool-role result (TOOL_OUTCOME_UNKNOWN citing its tool/call, TOOL_NOT_STARTED), then step/end, then turn/end interrupted', () => {
    const events = openTurn();
    const last = events[events.length - 1];
    const closers = v4Closers(events);
    assert.deepEqual(closers, [
      {
        type: 'tool/result',
        seq: 10,
        time: last.time,
        data: {
          turn: 1,
          step: 2,
          message: {
            id: 'interrupted-tool-result-call-a-10',
            role: 'tool',
            toolCallId: 'call-a',
            isError: true,
            source: { kind: 'tool', callId: 'call-a' },
            content: [{ type: 'text', text: OUTCOME_UNKNOWN }],
          },
          error: { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' },
        },
        surfaceOp: 'append',
        sourceEventSeqs: [9],
      },
      {
        type: 'tool/result',
        seq: 11,
        time: last.time,
        data: {
          turn: 1,
          step: 2,
          message: {
            id: 'interrupted-tool-result-call-b-11',
            role: 'tool',
            toolCallId: 'call-b',
            isError: true,
            source: { kind: 'tool', callId: 'call-b' },
            content: [{ type: 'text', text: NOT_STARTED }],
          },
          error: { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' },
        },
        surfaceOp: 'append',
      },
      { type: 'step/end', seq: 12, time: last.time, data: { turn: 1, step: 2 } },
      { type: 'turn/end', seq: 13, time: last.time, data: { turn: 1, reason: { kind: 'interrupted' } } },
    ]);
    // Key order is part of the bytes dsh writes.
    assert.equal(
      JSON.stringify(closers[1]),
      '{"type":"tool/result","seq":11,"time":' +
        last.time +
        ',"data":{"turn":1,"step":2,"message":{"id":"interrupted-tool-result-call-b-11","role":"tool","toolCallId":"call-b","isError":true,"source":{"kind":"tool","callId":"call-b"},"content":[{"type":"text","text":"' +
        NOT_STARTED +
        '"}]},"error":{"name":"ToolNotStartedError","code":"TOOL_NOT_STARTED"}},"surfaceOp":"append"}',
    );
  });

  it('§7: the repaired log passes the v4 restore', () => {
    const events = openTurn();
    restoreV4(artifactOf([...events, ...v4Closers(events)]));
  });

  it('§7: the v4 closers are the v0 core’s, except a tool-role message with direct content', () => {
    const events = openTurn();
    const scan = new CloserScan();
    for (const event of events) scan.observe(event as unknown as SessionEvent);
    const v0 = scan.closers();
    const v4 = v4Closers(events);
    assert.equal(v0.length, v4.length);
    v0.forEach((closer, i) => {
      const other = v4[i] as LooseEvent;
      assert.equal(other.type, closer.type);
      assert.equal(other.seq, closer.seq);
      assert.equal(other.time, closer.time);
      assert.deepEqual(other.sourceEventSeqs, closer.sourceEventSeqs);
      if (closer.type !== 'tool/result') return assert.deepEqual(other.data, closer.data);
      assert.equal(other.data.message.id, closer.data.message.id);
      assert.deepEqual(other.data.error, closer.data.error);
      assert.equal(closer.data.message.role, 'user');
      assert.equal(closer.data.message.content[0].type, 'tool-result');
    });
  });

  it('§7: a closed log, or an empty one, needs no closers; an open turn without an open step gets only turn/end', () => {
    assert.deepEqual(v4Closers(baseV4Log().list.events), []);
    assert.deepEqual(v4Closers([]), []);
    const between = openTurn().slice(0, 7);
    assert.deepEqual(v4Closers(between), [
      { type: 'turn/end', seq: 7, time: between[6].time, data: { turn: 1, reason: { kind: 'interrupted' } } },
    ]);
  });

  it('§7: a call whose result is already written, or advertised in a closed step, gets none', () => {
    const events = openTurn();
    const answered: FormatEvent = {
      type: 'tool/result',
      seq: 10,
      time: 1,
      data: {
        turn: 1,
        step: 2,
        message: { role: 'tool', source: { kind: 'tool', callId: 'call-a' }, toolCallId: 'call-a', content: [], id: 'r' },
      },
      surfaceOp: 'append',
      sourceEventSeqs: [9],
    };
    const closers = v4Closers([...events, answered]);
    assert.deepEqual(
      closers.map((c) => (c.data as LooseEvent['data']).message?.toolCallId ?? c.type),
      ['call-b', 'step/end', 'turn/end'],
    );
  });

  it('§5 fork results / §7: a fork cut inside the turn closes with forked results and turn/end forked, and the seed passes the v4 restore', () => {
    const events = openTurn();
    const seed = [
      ...events,
      { type: 'session/end-seed', seq: events.length, time: events[events.length - 1].time, data: { inherited: true } },
    ];
    const closers = v4Closers(seed, 'forked') as LooseEvent[];
    assert.equal(closers[0].data.message.id, 'forked-tool-result-call-a-11');
    assert.match(
      closers[0].data.message.content[0].text,
      /^The history inherited by this branch records this tool call starting but does not include its result\./,
    );
    assert.deepEqual(closers[0].data.error, { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' });
    assert.equal(closers[1].data.message.id, 'forked-tool-result-call-b-12');
    assert.match(
      closers[1].data.message.content[0].text,
      /^The history inherited by this branch has no record of this tool call starting\./,
    );
    assert.deepEqual(closers[3].data, { turn: 1, reason: { kind: 'forked' } });
    restoreV4(artifactOf([...seed, ...closers], { isSeeded: true, parentSession: 'parent' }, events.length));
  });

  it('§7: a call id nested thousands of levels deep does not overflow the stack', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const events = openTurn();
    events[8].data.message.content = [{ type: 'tool-call', id: deep, name: 'w', arguments: '{}' }];
    events.pop();
    const closers = v4Closers(events);
    assert.equal(closers.length, 3);
    assert.equal(typeof (closers[0] as LooseEvent).data.message.id, 'string');
  });
});
