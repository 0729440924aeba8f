// The v1→v2 migration on crafted v1 logs: chunk events and packed runs folded into a message's
// `stream` or a log-only `assistant/attempt`, dense renumbering with every declared reference
// remapped, the legacy restart and goal repairs, the seeded cut marker, and each refusal in dsh's words.
import { strict as assert } from 'node:assert';
import { SessionFormatUnsupportedMigrationError, type EventRun, type FormatEvent, type LogicalHeader } from '../../src/core/format';
import { v1ToV2Migration, v2Codec } from '../../src/core/format/v1-to-v2';
import { encodeLines, migrate, type SourceItem } from '../support/format-stages';

const HEADER: LogicalHeader = { version: 1, id: 's1', createdAt: 1000, cwd: '/w', isSeeded: false, delegationDepth: 0 };
const MODEL = { kind: 'model', provider: 'p', model: 'm' };

let seq = 0;
function ev(type: string, data: unknown, extra: Partial<FormatEvent> = {}): FormatEvent {
  const at = seq++;
  return { type, seq: at, time: 1000 + at, data, ...extra };
}
function fresh(): void {
  seq = 0;
}
const chunk = (value: unknown, time?: number): FormatEvent => {
  const event = ev('assistant/chunk', { turn: 1, step: 1, chunk: value });
  if (time !== undefined) event.time = time;
  return event;
};
const userMessage = (id: string): FormatEvent =>
  ev('user/message', { id, role: 'user', content: [{ type: 'text', text: id }], source: { kind: 'user' } }, { surfaceOp: 'append' });
const assistantMessage = (sources: number[] | undefined, text = 'Hello'): FormatEvent =>
  ev(
    'assistant/message',
    { turn: 1, step: 1, message: { id: 'a1', role: 'assistant', content: [{ type: 'text', text }], source: MODEL } },
    {
      ...(sources ? { sourceEventSeqs: sources } : {}),
      surfaceOp: 'append',
    },
  );

function toV2(items: SourceItem[], header: LogicalHeader = HEADER, cut = 0) {
  return migrate([v1ToV2Migration], header, cut, items);
}

function refusal(run: () => unknown, message: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof SessionFormatUnsupportedMigrationError, String(error));
    assert.equal((error as Error).message, message);
    return true;
  });
}

/** A v1 turn whose one step streams "Hello" as chunks and settles it as a message citing them. */
function streamedTurn(): SourceItem[] {
  fresh();
  return [
    ev('turn/start', { turn: 1 }),
    userMessage('u1'),
    ev('step/start', { turn: 1, step: 1 }),
    chunk({ type: 'block-start', index: 0, blockType: 'text' }),
    chunk({ type: 'text-delta', index: 0, text: 'Hel' }),
    chunk({ type: 'text-delta', index: 0, text: 'lo' }, 1006),
    chunk({ type: 'block-end', index: 0, block: { type: 'text', text: 'Hello' } }, 1007),
    chunk({ type: 'finish', reason: { kind: 'stop' } }, 1008),
    assistantMessage([3, 4, 5, 6, 7]),
    ev('step/end', { turn: 1, step: 1 }),
    ev('session/title', { title: 't', messageSeqs: [1], source: { kind: 'fallback' } }),
    ev('turn/end', { turn: 1, reason: { kind: 'completed' } }),
  ];
}

describe('format v1→v2: assistant streams', () => {
  it('folds a cited chunk attempt into the message’s stream, token boundaries kept, and renumbers densely', () => {
    const v2 = toV2(streamedTurn());
    assert.deepEqual(
      v2.events.map((event) => event.type),
      ['turn/start', 'user/message', 'step/start', 'assistant/message', 'step/end', 'session/title', 'turn/end'],
    );
    assert.deepEqual(encodeLines(v2Codec, v2).slice(4, 7), [
      '{"type":"assistant/message","seq":3,"time":1008,"data":{"turn":1,"step":1,"message":{"id":"a1","role":"assistant","content":[{"type":"text","text":"Hello"}],"source":{"kind":"model","provider":"p","model":"m"}},"stream":[' +
        '{"type":"chunk","time":1003,"chunk":{"type":"block-start","index":0,"blockType":"text"}},' +
        '{"type":"text-chunks","time0":1004,"index":0,"dt":[2],"texts":["Hel","lo"]},' +
        '{"type":"chunk","time":1007,"chunk":{"type":"block-end","index":0,"block":{"type":"text","text":"Hello"}}},' +
        '{"type":"chunk","time":1008,"chunk":{"type":"finish","reason":{"kind":"stop"}}}]},"surfaceOp":"append"}',
      '{"type":"step/end","seq":4,"time":1009,"data":{"turn":1,"step":1}}',
      '{"type":"session/title","seq":5,"time":1010,"data":{"title":"t","messageSeqs":[1],"source":{"kind":"fallback"}}}',
    ]);
    assert.equal(
      encodeLines(v2Codec, v2)[0],
      '{"type":"session","version":2,"id":"s1","createdAt":1000,"cwd":"/w","isSeeded":false,"delegationDepth":0}',
    );
  });

  it('continues a packed row’s run with the chunks after it, and starts a new run on another index or call', () => {
    fresh();
    const start = [ev('turn/start', { turn: 1 }), userMessage('u1'), ev('step/start', { turn: 1, step: 1 })];
    const packed: EventRun = {
      runType: 'released-assistant-chunks',
      firstSeq: 3,
      eventCount: 2,
      turn: 1,
      step: 1,
      lastSeq: 4,
      lastTime: 1010,
      stream: { type: 'reasoning-chunks', time0: 1005, index: 0, dt: [5], texts: ['th', 'ink'] },
      expand: () => assert.fail('the v1→v2 stage takes a packed run whole'),
    };
    seq = 5;
    const after = [
      chunk({ type: 'reasoning-delta', index: 0, text: 'ing' }, 1011),
      chunk({ type: 'tool-call-delta', index: 1, id: 'c1', name: 'read', argumentsDelta: '{"a"' }, 1012),
      chunk({ type: 'tool-call-delta', index: 1, id: 'c1', name: 'read', argumentsDelta: ':1}' }, 1015),
      chunk({ type: 'tool-call-delta', index: 1, id: '', argumentsDelta: 'x' }, 1016),
      chunk({ type: 'tool-call-delta', index: 2, id: 'c2', argumentsDelta: '{}' }, 1017),
    ];
    const v2 = toV2([...start, packed, ...after]);
    const attempt = v2.events[3];
    assert.equal(attempt.type, 'assistant/attempt');
    assert.deepEqual(attempt, {
      type: 'assistant/attempt',
      seq: 3,
      time: 1017,
      data: {
        turn: 1,
        step: 1,
        stream: [
          { type: 'reasoning-chunks', time0: 1005, index: 0, dt: [5, 1], texts: ['th', 'ink', 'ing'] },
          { type: 'tool-call-chunks', time0: 1012, index: 1, dt: [3], id: 'c1', name: 'read', args: ['{"a"', ':1}'] },
          // A delta without a call id cannot key a run: dsh keeps it as a raw chunk.
          { type: 'chunk', time: 1016, chunk: { type: 'tool-call-delta', index: 1, id: '', argumentsDelta: 'x' } },
          { type: 'tool-call-chunks', time0: 1017, index: 2, dt: [], id: 'c2', args: ['{}'] },
        ],
      },
    });
  });

  it('records an unclaimed attempt as assistant/attempt at its last chunk, before the events that waited for it', () => {
    fresh();
    const items = [
      ev('turn/start', { turn: 1 }),
      userMessage('u1'),
      ev('step/start', { turn: 1, step: 1 }),
      chunk({ type: 'text-delta', index: 0, text: 'par' }),
      ev('todo/write', { todos: [] }),
      chunk({ type: 'finish', reason: { kind: 'error', failure: { message: 'boom', code: 'X' } } }),
      ev('todo/write', { todos: [{ content: 'later', status: 'pending' }] }),
      ev('step/end', { turn: 1, step: 1 }),
      ev('turn/end', { turn: 1, reason: { kind: 'error', error: { message: 'boom', code: 'X' } } }),
    ];
    const v2 = toV2(items);
    assert.deepEqual(
      v2.events.map((event) => `${event.seq}:${event.type}`),
      ['0:turn/start', '1:user/message', '2:step/start', '3:todo/write', '4:assistant/attempt', '5:todo/write', '6:step/end', '7:turn/end'],
    );
    assert.equal(v2.events[4].time, 1005);
    assert.deepEqual((v2.events[4].data as { stream: unknown[] }).stream.length, 2);
  });

  it('refuses a message that cites part of its attempt, and a reference to a consumed chunk', () => {
    const partial = streamedTurn();
    partial[8] = { ...partial[8], sourceEventSeqs: [4, 5, 6, 7] };
    refusal(() => toV2(partial), 'assistant/message 8 chunk provenance is not one complete ordered attempt');

    const uncited = streamedTurn();
    const { sourceEventSeqs: _cited, ...withoutSources } = uncited[8] as FormatEvent;
    uncited[8] = withoutSources;
    refusal(() => toV2(uncited), 'assistant/message 8 does not cite its complete v1 chunk attempt');

    const citesChunk = streamedTurn();
    citesChunk[10] = { ...citesChunk[10], data: { title: 't', messageSeqs: [4], source: { kind: 'fallback' } } };
    refusal(() => toV2(citesChunk), 'session/title 10 messageSeqs targets consumed assistant/chunk 4');
  });

  it('refuses an unknown v1 event even when it is ignorable', () => {
    fresh();
    refusal(
      () => toV2([ev('turn/start', { turn: 1 }), ev('future/thing', {}, { ignorable: true })]),
      'format v1 contains unknown event type "future/thing" at seq 1',
    );
  });
});

describe('format v1→v2: legacy repairs', () => {
  it('closes the legacy restart with an interrupted turn/end at the next turn/start', () => {
    fresh();
    const splice = {
      target: 'next-turn',
      start: 0,
      inserted: [{ id: 'u2', role: 'user', content: [{ type: 'text', text: 'more' }], source: { kind: 'user' } }],
    };
    const items = [ev('turn/start', { turn: 1 }), userMessage('u1'), ev('agent/inbox/spliced', splice), ev('turn/start', { turn: 2 })];
    const v2 = toV2(items);
    assert.deepEqual(v2.events.slice(3), [
      { type: 'turn/end', seq: 3, time: 1003, data: { turn: 1, reason: { kind: 'interrupted' } } },
      { type: 'turn/start', seq: 4, time: 1003, data: { turn: 2 } },
    ]);
    // Without the splice the restart is not the legacy pattern: refused.
    fresh();
    refusal(
      () => toV2([ev('turn/start', { turn: 1 }), userMessage('u1'), ev('turn/start', { turn: 2 })]),
      'turn/start 2 does not close the prior turn',
    );
  });

  it('splits a round-zero goal mutation into goal/change and the message with plugin attribution', () => {
    fresh();
    const goal = { id: 'g1', revision: 1, objective: 'do it', phase: 'active', maxGoalRounds: 8 };
    const change = { kind: 'goal/change', version: 1, operation: 'create', goal, roundsStarted: 0, createdAt: 5, updatedAt: 5 };
    const text = `<goal_state>${JSON.stringify({ goal, roundsStarted: 0, createdAt: 5, updatedAt: 5 })}</goal_state>`;
    const start = ev('turn/start', { turn: 1 });
    const message = ev(
      'user/message',
      { id: 'gm', role: 'user', content: [{ type: 'text', text }], source: { kind: 'goal', goalId: 'g1', revision: 1, round: 0, change } },
      { surfaceOp: 'append' },
    );
    const v2 = toV2([start, message]);
    assert.deepEqual(v2.events.slice(1), [
      { type: 'goal/change', seq: 1, time: 1001, data: change },
      {
        ...message,
        seq: 2,
        data: { id: 'gm', role: 'user', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'goal' } },
      },
    ]);
  });
});

describe('format v1→v2: the inherited cut', () => {
  const seeded: LogicalHeader = { ...HEADER, parentSession: 'parent', isSeeded: true, origin: 'subagent', delegationDepth: 1 };

  it('marks the cut with session/end-seed {inherited: true} before the first event past it', () => {
    const v2 = toV2(streamedTurn(), seeded, 2);
    assert.equal(v2.inheritedEventCount, 2);
    assert.deepEqual(v2.events[2], { type: 'session/end-seed', seq: 2, time: 1002, data: { inherited: true } });
    assert.equal(v2.events[3].type, 'step/start');
    assert.match(encodeLines(v2Codec, v2)[0], /"isSeeded":true/);
  });

  it('turns the source’s own end-seed at the cut into the marker, replacing its data', () => {
    fresh();
    const items = [ev('turn/start', { turn: 1 }), ev('session/end-seed', {}), ev('turn/end', { turn: 1, reason: { kind: 'completed' } })];
    const v2 = toV2(items, seeded, 1);
    assert.equal(v2.inheritedEventCount, 1);
    assert.deepEqual(v2.events[1], { type: 'session/end-seed', seq: 1, time: 1001, data: { inherited: true } });
    assert.equal(v2.events.length, 3);
  });

  it('places the marker at the end when every event is inherited', () => {
    fresh();
    const v2 = toV2([ev('turn/start', { turn: 1 })], seeded, 1);
    assert.deepEqual(v2.events[1], { type: 'session/end-seed', seq: 1, time: 1000, data: { inherited: true } });
    assert.equal(v2.inheritedEventCount, 1);
  });

  it('refuses a cut that splits an assistant attempt', () => {
    refusal(() => toV2(streamedTurn(), seeded, 5), 'inherited Session cut 5 splits one Assistant attempt');
  });
});
