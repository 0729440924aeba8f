// The v0 → v1 edge and the v1 restore, read through readGeneration: what the edge rewrites (with the
// member order dsh's encoder then writes), what it refuses and how the refusal is reported (stage,
// edge, dsh's wrapped message, the line of the row being decoded), and the catalog's own limits.
import { strict as assert } from 'node:assert';
import { assertArtifactRelationships, assertEventPayload } from '../../src/core/format/v0-to-v1';
import { readFormatHeader, type Artifact, type FormatEvent } from '../../src/core/format';
import { logBytes, physicalHeader, plainTurn, read, SESSION_ID } from '../support/format-logs';

const WRAP = '@deepseek-ai/dsh-session-format-v0-to-v1 refuses this format v0 Session: ';

/** The v1 form of a v0 log whose rows are a whole turn with `rows` spliced in after its step/start. */
function migrate(rows: Record<string, unknown>[]) {
  const turn = plainTurn();
  const all = [...turn.slice(0, 2), ...rows, ...turn.slice(2)].map((row, seq) => ({ ...row, seq }));
  return read(logBytes(physicalHeader(0), all));
}

function migrated(rows: Record<string, unknown>[]): FormatEvent[] {
  const result = migrate(rows);
  assert.equal(result.verdict.ok, true, JSON.stringify(result.verdict));
  return result.artifact!.events.slice(2, 2 + rows.length);
}

describe('format v0 → v1: normalisation', () => {
  it('renames compact/* to compaction/* and mints one legacy compaction id for the group', () => {
    const events = migrated([
      { type: 'compact/start', time: 1, data: { turn: 1 } },
      {
        type: 'user/message',
        time: 1,
        data: { id: 'c', role: 'user', content: [], source: { kind: 'plugin', plugin: 'compact' } },
        surfaceOp: 'append',
      },
      { type: 'compact/end', time: 1, data: { turn: 1, error: 'x' } },
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['compaction/start', 'user/message', 'compaction/end'],
    );
    const id = `legacy-compaction:${SESSION_ID}:2`;
    assert.deepEqual(events[0].data, { turn: 1, compactionId: id });
    assert.deepEqual((events[1].data as any).source, { kind: 'plugin', plugin: 'compact', compactionId: id });
    assert.deepEqual(events[2].data, { turn: 1, error: 'x', compactionId: id });
  });

  it('turns a bare steering message into a user message with a legacy id, appended members last', () => {
    const [event] = migrated([
      { type: 'steering/message', time: 1, data: { turn: 1, content: [], source: { kind: 'user' } }, surfaceOp: 'append' },
    ]);
    assert.equal(event.type, 'user/message');
    assert.deepEqual(Object.keys(event.data as object), ['content', 'source', 'id', 'role']);
    assert.equal((event.data as any).id, `legacy-message:${SESSION_ID}:2`);
  });

  it('rewrites retired turn/end reasons and drops turn/start.trigger', () => {
    const turn = plainTurn();
    turn[0] = { ...turn[0], data: { turn: 1, trigger: { kind: 'user' } } };
    turn[5] = { ...turn[5], data: { turn: 1, reason: { kind: 'error', step: 1, message: 'boom' } } };
    const events = read(logBytes(physicalHeader(0), turn)).artifact!.events;
    assert.deepEqual(events[0].data, { turn: 1 });
    assert.deepEqual(events[5].data, { turn: 1, reason: { kind: 'error', error: { message: 'boom', code: 'UNKNOWN' } } });
    turn[5] = { ...turn[5], data: { turn: 1, reason: { kind: 'disposed' } } };
    assert.deepEqual(read(logBytes(physicalHeader(0), turn)).artifact!.events[5].data, {
      turn: 1,
      reason: { kind: 'aborted', reason: { kind: 'disposed' } },
    });
  });

  it('gives retries of one chain one legacy retry id', () => {
    const retry = (n: number): Record<string, unknown> => ({
      type: 'llm/retry',
      time: 1,
      data: { turn: 1, step: 1, provider: 'p', mode: 'always', policyKey: 'k', retry: n, delayMs: 0, failure: { message: 'm', code: 'c' } },
    });
    const events = migrated([retry(1), retry(2)]);
    assert.deepEqual(
      events.map((e) => (e.data as any).retryId),
      [`legacy-retry:${SESSION_ID}:2`, `legacy-retry:${SESSION_ID}:2`],
    );
  });

  it('upgrades a pre-identity tool result, a replacement inheriting the replaced message’s id', () => {
    const turn = plainTurn();
    const call = { type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' };
    (turn[3].data as any).message.content.push(call);
    const rows = [
      ...turn.slice(0, 4),
      { type: 'tool/call', seq: 4, time: 2, data: { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}' } },
      {
        type: 'tool/result',
        seq: 5,
        time: 2,
        data: { turn: 1, step: 1, callId: 'c1', content: [{ type: 'text', text: 'x' }], isError: false },
        surfaceOp: 'append',
      },
      {
        type: 'tool/result',
        seq: 6,
        time: 2,
        data: { turn: 1, step: 1, callId: 'c1', content: [], isError: false },
        surfaceOp: { op: 'replace', start: 5, end: 5 },
        sourceEventSeqs: [5],
      },
    ];
    const events = read(logBytes(physicalHeader(0), rows)).artifact!.events;
    assert.deepEqual((events[5].data as any).message, {
      id: `legacy-message:${SESSION_ID}:5`,
      role: 'user',
      content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'x' }], isError: false }],
      source: { kind: 'tool', callId: 'c1' },
    });
    assert.equal((events[6].data as any).message.id, `legacy-message:${SESSION_ID}:5`);
  });

  it('drops request/header messagePrefix', () => {
    const [event] = migrated([
      {
        type: 'request/header',
        time: 1,
        data: { header: { config: { provider: 'p', model: 'm' }, messagePrefix: [] }, reason: 'initial' },
      },
    ]);
    assert.deepEqual(event.data, { header: { config: { provider: 'p', model: 'm' } }, reason: 'initial' });
  });
});

describe('format v0 → v1: refusals', () => {
  const refusedAt = (rows: Record<string, unknown>[]) => {
    const { verdict } = migrate(rows);
    assert.equal(verdict.ok, false);
    return verdict;
  };

  it('refuses retired mode/set with dsh’s message, the edge and the row’s line', () => {
    const verdict = refusedAt([{ type: 'mode/set', time: 1, data: {} }]);
    assert.deepEqual(
      [verdict.stage, verdict.edge, verdict.errorName, verdict.dshError, verdict.line],
      [
        'migrate',
        'v0-to-v1',
        'SessionFormatUnsupportedMigrationError',
        `session "${SESSION_ID}" contains unsupported legacy mode/set event at seq 2`,
        4,
      ],
    );
  });

  it('refuses an unknown type even when ignorable', () => {
    const verdict = refusedAt([{ type: 'future/thing', time: 1, data: {}, ignorable: true }]);
    assert.equal(
      verdict.dshError,
      'format v0 contains unknown historical event type "future/thing" at seq 2; migration refuses unknown historical events even when ignorable',
    );
  });

  it('refuses subagent/descriptor version 2 (v1 keeps other versions for a later package)', () => {
    const descriptor = { type: 'subagent/descriptor', time: 1, data: { mode: 'one-shot', version: 2, provider: 'p' } };
    assert.equal(refusedAt([descriptor]).dshError, 'subagent/descriptor 2 uses unsupported descriptor version 2');
    assert.doesNotThrow(() => assertEventPayload({ ...descriptor, seq: 2 } as FormatEvent, 1));
  });

  it('wraps a payload rule’s refusal in the edge’s name', () => {
    const verdict = refusedAt([{ type: 'request/context', time: 1, data: { provider: '', model: 'm' } }]);
    assert.equal(verdict.dshError, `${WRAP}request/context 2 provider must be a non-empty string`);
    assert.equal(
      refusedAt([{ type: 'plan/mode', time: 1, data: { active: true, x: 1 } }]).dshError,
      `${WRAP}plan/mode 2 data has unexpected member "x"`,
    );
  });

  it('refuses a v0 delivery marker naming another session', () => {
    const marker = { type: 'session-log-deepseek/delivery-accepted', time: 1, data: { sessionId: 'other', throughSeq: 0 } };
    assert.equal(refusedAt([marker]).dshError, `${WRAP}current-generation delivery marker names the wrong Session`);
  });
});

describe('format v1 restore and the catalog', () => {
  it('a native v1 log with an unknown required type is refused at restore', () => {
    const rows = [...plainTurn(), { type: 'future/thing', seq: 6, time: 4, data: {} }];
    const verdict = read(logBytes(physicalHeader(1), rows)).verdict;
    assert.deepEqual(
      [verdict.stage, verdict.errorName, verdict.dshError, verdict.line],
      [
        'restore',
        'SessionFormatUnsupportedMigrationError',
        'format v1 contains unknown required event type "future/thing" at seq 6',
        undefined,
      ],
    );
    rows[6] = { ...rows[6], ignorable: true };
    assert.equal(read(logBytes(physicalHeader(1), rows)).verdict.ok, true);
  });

  it('a time of -0 passes the v0 edge and is refused by the v1 restore', () => {
    const text = new TextDecoder()
      .decode(logBytes(physicalHeader(0), plainTurn()))
      .replace('"time":3,"data":{"turn":1,"step":1}', '"time":-0,"data":{"turn":1,"step":1}');
    const verdict = read(new TextEncoder().encode(text)).verdict;
    assert.deepEqual([verdict.stage, verdict.dshError], ['restore', 'Session event 4 time must be a safe integer']);
  });

  it('reads a header alone as dsh readHeader does', () => {
    assert.equal(readFormatHeader(physicalHeader(1), 1).status, 'current');
    const migrating = readFormatHeader(physicalHeader(0, { seedLength: 2 }), 1);
    assert.deepEqual([migrating.status, migrating.header?.version, migrating.header?.isSeeded], ['migration-required', 1, true]);
    assert.deepEqual(readFormatHeader(physicalHeader(2), 1).reason, 'stored Session uses newer format v2; this build writes v1');
    const malformed = readFormatHeader({ version: '1' }, 1);
    assert.deepEqual([malformed.status, malformed.reason], ['malformed', 'Session format version must be a non-negative safe integer']);
    assert.equal(readFormatHeader(physicalHeader(0, { cwd: 'rel' }), 1).reason, 'format v0 header cwd must be absolute');
  });

  it('with transformed validation a restore refusal of a migrated log is a migration refusal; the file name must match the header', () => {
    const text = new TextDecoder()
      .decode(logBytes(physicalHeader(0), plainTurn()))
      .replace('"time":3,"data":{"turn":1,"step":1}', '"time":-0,"data":{"turn":1,"step":1}');
    const verdict = read(new TextEncoder().encode(text), 1, { validation: 'transformed' }).verdict;
    assert.deepEqual(
      [verdict.stage, verdict.errorName, verdict.dshError],
      [
        'restore',
        'SessionFormatUnsupportedMigrationError',
        'Session migration from v0 to v1 refuses the transformed artifact: Session event 4 time must be a safe integer',
      ],
    );
    const named = read(logBytes(physicalHeader(0), plainTurn()), 1, { fileNameVersion: 1 }).verdict;
    assert.deepEqual(
      [named.stage, named.dshError],
      ['header', 'resolved JSONL source filename identifies v1, but its header identifies v0'],
    );
  });

  it('a target the build does not register is a verdict, not a crash', () => {
    const verdict = read(logBytes(physicalHeader(0), plainTurn()), 9).verdict;
    assert.deepEqual([verdict.ok, verdict.stage, verdict.errorName], [false, 'header', 'TargetNotRegistered']);
    assert.match(verdict.reason!, /format v9 is not registered in this build/);
  });

  it('values nested 100k levels deep are refused or kept, never a RangeError', () => {
    const deep = (leaf: string): string => '['.repeat(100_000) + leaf + ']'.repeat(100_000);
    const base = new TextDecoder().decode(logBytes(physicalHeader(0), plainTurn()));
    for (const [from, to] of [
      ['"type":"turn/start"', `"type":${deep('"x"')}`],
      ['"data":{"turn":1}', `"data":{"turn":${deep('1')}}`],
      ['"id":"u1"', `"id":${deep('"u"')}`],
    ]) {
      for (const targetVersion of [0, 1]) {
        const { verdict } = read(new TextEncoder().encode(base.replace(from, to)), targetVersion);
        assert.notEqual(verdict.errorName, 'RangeError', JSON.stringify(verdict).slice(0, 300));
        assert.doesNotMatch(verdict.dshError ?? '', /call stack/);
      }
    }
  });
});

describe('format v0/v1 relationships', () => {
  const artifact = (events: Record<string, unknown>[]): Artifact =>
    ({
      header: { version: 1, id: SESSION_ID, createdAt: 0, isSeeded: false, delegationDepth: 0 },
      inheritedEventCount: 0,
      events,
    }) as Artifact;

  it('accepts a whole turn and refuses a step left open at turn end', () => {
    assert.doesNotThrow(() => assertArtifactRelationships(artifact(plainTurn())));
    const open = plainTurn();
    open.splice(4, 1);
    open.forEach((event, seq) => (event.seq = seq));
    assert.throws(() => assertArtifactRelationships(artifact(open)), { message: 'turn/end 1 crosses an open step' });
  });

  it('refuses a tool call nobody advertised, and a replacement that omits a shadowed node', () => {
    const turn = plainTurn();
    turn.splice(4, 0, { type: 'tool/call', seq: 4, time: 2, data: { turn: 1, step: 1, callId: 'c9', name: 'x', arguments: '' } });
    turn.forEach((event, seq) => (event.seq = seq));
    assert.throws(() => assertArtifactRelationships(artifact(turn)), { message: 'tool/call c9 does not match one advertised tool call' });
    const replace = plainTurn();
    replace[3] = { ...replace[3], surfaceOp: { op: 'replace', start: 2, end: 2 }, sourceEventSeqs: [] };
    assert.throws(() => assertArtifactRelationships(artifact(replace)), {
      message: 'assistant/message replacement sourceEventSeqs omit a shadowed surface node',
    });
  });

  it('accepts the legacy restart only with the extension', () => {
    const first = plainTurn().slice(0, 5);
    const splice = { type: 'agent/inbox/spliced', seq: 5, time: 3, data: { target: 'next-turn', start: 0, inserted: [{}] } };
    const second = plainTurn(6, 2);
    const events = [...first, splice, ...second];
    assert.throws(() => assertArtifactRelationships(artifact(events)), { message: 'turn/start 2 does not open expected turn 1' });
    assert.doesNotThrow(() => assertArtifactRelationships(artifact(events), { legacyInterruptedTurnRestart: true }));
  });
});
