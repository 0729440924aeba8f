// Appends are typed so the compiler refuses surface metadata mistakes, and planAppend repeats the
// rule at run time for widened types. The `@ts-expect-error` lines are part of the test: `npm run
// typecheck` fails if the compiler ever accepts them.
import { strict as assert } from 'node:assert';
import { loadSession, type NewEvent, type WidenedEvent } from '../../src/core';
import { LogBuilder } from '../support/build-log';

const user = { content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' }, role: 'user', id: 'u-typed' };

describe('typed appends', () => {
  it('the compiler requires surfaceOp on surface types and refuses it elsewhere', () => {
    const ok: NewEvent[] = [
      { type: 'user/message', seq: 0, time: 0, data: user, surfaceOp: 'append' },
      { type: 'todo/write', seq: 1, time: 0, data: { todos: [] } },
    ];
    // @ts-expect-error a user/message without surfaceOp
    const missing: NewEvent = { type: 'user/message', seq: 0, time: 0, data: user };
    // @ts-expect-error surfaceOp on a type that is not surface-eligible
    const extra: NewEvent = { type: 'turn/start', seq: 0, time: 0, data: { turn: 1 }, surfaceOp: 'append' };
    assert.equal(ok.length + [missing, extra].length, 4);
  });

  it('planAppend refuses a widened surface event without surfaceOp and leaves the session untouched', () => {
    const builder = new LogBuilder();
    builder.chatTurn('question');
    const log = loadSession(builder.bytes());
    const before = { count: log.eventCount, surface: [...log.surface()] };
    const widened = JSON.parse(JSON.stringify({ type: 'user/message', seq: log.eventCount, time: 1, data: user })) as WidenedEvent;
    const result = log.append([widened]);
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.problems[0].rule, 'surface.eligible-requires-marker');
    assert.equal(log.eventCount, before.count);
    assert.deepEqual([...log.surface()], before.surface);
  });
});
