// The released v0/v1 codec read through readGeneration: physical header rules, packed chunk rows,
// range-encoded sourceEventSeqs, recovery (the first issue truncates unless a later turn/end makes
// it fatal), and the header dsh's encoder writes. Messages are dsh's, byte for byte.
import { strict as assert } from 'node:assert';
import type { EventPlace } from '../../src/core/format';
import { releasedV1Codec } from '../../src/core/format/v0-to-v1';
import { logBytes, physicalHeader, plainTurn, read } from '../support/format-logs';

const v1 = (extra: Record<string, unknown> = {}): Record<string, unknown> => physicalHeader(1, extra);

function refusal(bytes: Uint8Array, targetVersion = 1, recovery: 'strict' | 'recoverable' = 'recoverable') {
  const { verdict } = read(bytes, targetVersion, { recovery });
  assert.equal(verdict.ok, false, `expected a refusal, got ${JSON.stringify(verdict)}`);
  return verdict;
}

const textChunks = (seq0: number, texts: string[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'text-chunks',
  seq0,
  time0: 100,
  data: { turn: 1, step: 1, index: 0, dt: texts.slice(1).map((_, i) => i + 1), texts, ...extra },
});

describe('format v0/v1 codec: physical header', () => {
  it('refuses unknown header members (unlike dsh 0.1.1, which dropped them)', () => {
    const verdict = refusal(logBytes(v1({ title: 'x' }), []));
    assert.equal(verdict.stage, 'header');
    assert.equal(verdict.errorName, 'readHeader:malformed');
    assert.equal(verdict.dshError, 'released v1 physical header has unexpected member "title"');
  });

  it('names a missing member, a wrong type tag, a relative cwd and a foreign origin', () => {
    const { delegationDepth: _d, ...noDepth } = v1();
    assert.equal(refusal(logBytes(noDepth, [])).dshError, 'released v1 physical header lacks required member "delegationDepth"');
    assert.equal(refusal(logBytes(v1({ type: 'log' }), [])).dshError, 'expected released v1 physical Session header');
    assert.equal(refusal(logBytes(v1({ cwd: 'tmp/x' }), [])).dshError, 'format v1 header cwd must be absolute');
    assert.equal(refusal(logBytes(v1({ origin: 'fork' }), [])).dshError, 'released v1 header origin must be "subagent"');
    assert.equal(
      refusal(logBytes(v1({ seedLength: -1 }), [])).dshError,
      'released v1 header seedLength must be a non-negative safe integer',
    );
  });

  it('refuses a newer stored version as dsh readHeader does', () => {
    const verdict = refusal(logBytes(physicalHeader(3, { isSeeded: false }), []));
    assert.deepEqual(
      [verdict.stage, verdict.errorName, verdict.dshError, verdict.headerVersion],
      ['header', 'readHeader:unsupported', 'stored Session uses newer format v3; this build writes v1', 3],
    );
  });

  it('reads seedLength as the inherited cut and writes it back in dsh’s member order', () => {
    const header = v1({ parentSession: 'p', seedLength: 6, origin: 'subagent' });
    const result = read(logBytes(header, plainTurn()));
    assert.equal(result.verdict.ok, true);
    assert.equal(result.verdict.inheritedEventCount, 6);
    assert.equal(result.verdict.isSeeded, true);
    const encoded = releasedV1Codec.encodeHeader(result.artifact!.header, 6);
    assert.deepEqual(Object.keys(encoded), [
      'type',
      'version',
      'id',
      'createdAt',
      'cwd',
      'parentSession',
      'seedLength',
      'origin',
      'delegationDepth',
    ]);
    const tooLong = refusal(logBytes(v1({ seedLength: 7 }), plainTurn()));
    assert.deepEqual([tooLong.stage, tooLong.dshError], ['decode', 'Session inheritedEventCount exceeds its event count']);
  });
});

describe('format v0/v1 codec: packed chunk rows', () => {
  const step = [
    { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
    { type: 'step/start', seq: 1, time: 1, data: { turn: 1, step: 1 } },
  ];

  it('expands a packed row into assistant/chunk events with times rebuilt from dt, and knows their places', () => {
    const bytes = logBytes(v1(), [...step, textChunks(2, ['a', 'b', 'c'])]);
    const places: EventPlace[] = [];
    const result = read(bytes, 1, { onEvent: (_event, place) => places.push(place) });
    assert.equal(result.verdict.ok, true, JSON.stringify(result.verdict));
    const chunks = result.artifact!.events.slice(2);
    assert.deepEqual(
      chunks.map((e) => [e.seq, e.time, (e.data as any).chunk]),
      [
        [2, 100, { type: 'text-delta', index: 0, text: 'a' }],
        [3, 101, { type: 'text-delta', index: 0, text: 'b' }],
        [4, 103, { type: 'text-delta', index: 0, text: 'c' }],
      ],
    );
    assert.deepEqual(
      places.map((place) => [place.line, place.member]),
      [
        [2, -1],
        [3, -1],
        [4, 0],
        [4, 1],
        [4, 2],
      ],
    );
    // Each place names its row's text exactly (this log is ASCII: bytes and characters agree).
    const text = new TextDecoder().decode(bytes);
    const lines = text.split('\n');
    for (const place of places) assert.equal(text.slice(place.offset, place.offset + place.length), lines[place.line - 1]);
  });

  it('tool-call rows carry id and optional name on every delta', () => {
    const row = {
      type: 'tool-call-chunks',
      seq0: 2,
      time0: 5,
      data: { turn: 1, step: 1, index: 1, id: 'c1', name: 'read', dt: [0], args: ['{"a"', ':1}'] },
    };
    const events = read(logBytes(v1(), [...step, row])).artifact!.events;
    assert.deepEqual((events[3].data as any).chunk, { type: 'tool-call-delta', index: 1, id: 'c1', name: 'read', argumentsDelta: ':1}' });
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ['an extra row member', { ...textChunks(2, ['a']), x: 1 }, 'released text-chunks row 2 has unexpected member "x"'],
    ['an empty payload', textChunks(2, []), 'released text-chunks row 2 payload must be a non-empty string array'],
    [
      'a non-string member',
      { ...textChunks(2, ['a']), data: { ...(textChunks(2, ['a']).data as object), texts: [1] } },
      'released text-chunks row 2 payload must be a non-empty string array',
    ],
    ['dt of the wrong length', textChunks(2, ['a', 'b'], { dt: [] }), 'released text-chunks row 2 dt length must match its payload'],
    ['a fractional gap', textChunks(2, ['a', 'b'], { dt: [0.5] }), 'released text-chunks row 2 dt member must be a safe integer'],
    [
      'a member time beyond safe integers',
      { ...textChunks(2, ['a', 'b'], { dt: [2 ** 53 - 1] }) },
      'released text-chunks row 2 member time must be a safe integer',
    ],
    ['a negative seq0', { ...textChunks(2, ['a']), seq0: -1 }, 'released text-chunks row 2 seq0 must be a non-negative safe integer'],
    [
      'a data member of tool rows on a text row',
      textChunks(2, ['a'], { id: 'x' }),
      'released text-chunks row 2 data has unexpected member "id"',
    ],
  ];
  for (const [what, row, message] of cases) {
    it(`refuses ${what} (strict), naming the row`, () => {
      const verdict = refusal(logBytes(v1(), [...step, row]), 1, 'strict');
      assert.deepEqual([verdict.stage, verdict.errorName, verdict.dshError, verdict.line], ['decode', 'SessionFormatError', message, 4]);
    });
  }

  it('refuses a tool row without an id', () => {
    const row = { type: 'tool-call-chunks', seq0: 2, time0: 5, data: { turn: 1, step: 1, index: 1, id: '', dt: [], args: ['x'] } };
    assert.equal(
      refusal(logBytes(v1(), [...step, row]), 1, 'strict').dshError,
      'released tool-call-chunks row 2 id and optional name must be strings',
    );
  });
});

describe('format v0/v1 codec: sourceEventSeqs ranges', () => {
  const withSources = (sources: unknown): Record<string, unknown>[] => {
    const rows = plainTurn();
    rows[3] = { ...rows[3], sourceEventSeqs: sources };
    return rows;
  };

  it('expands [start, end] pairs and keeps the list in the member’s place', () => {
    const event = read(logBytes(v1(), withSources([[0, 2]]))).artifact!.events[3];
    assert.deepEqual(event.sourceEventSeqs, [0, 1, 2]);
    assert.deepEqual(Object.keys(event), ['type', 'seq', 'time', 'data', 'surfaceOp', 'sourceEventSeqs']);
  });

  const cases: [unknown, string][] = [
    [[[0, 1, 2]], 'sourceEventSeqs range must be a [start, end] pair'],
    [['1'], 'sourceEventSeqs range must be a [start, end] pair'],
    [[[2, 1]], 'sourceEventSeqs range exceeds its event seq'],
    [[[0, 3]], 'sourceEventSeqs range exceeds its event seq'],
    [[0, 1, 2, 0], 'sourceEventSeqs exceeds its event seq'],
    [[2, [0, 1]], 'sourceEventSeqs ranges must be strictly increasing'],
    [[-1], 'sourceEventSeqs member must be a non-negative safe integer'],
    [{}, 'sourceEventSeqs must be an array'],
  ];
  for (const [sources, message] of cases) {
    it(`refuses ${JSON.stringify(sources)}`, () => {
      const verdict = refusal(logBytes(v1(), withSources(sources)), 1, 'strict');
      assert.deepEqual([verdict.stage, verdict.dshError, verdict.line], ['decode', message, 5]);
    });
  }

  it('a plain list that is not increasing is kept as written (only range lists must increase)', () => {
    assert.deepEqual(read(logBytes(v1(), withSources([2, 0]))).artifact!.events[3].sourceEventSeqs, [2, 0]);
  });

  it('never expands a range claiming billions of seqs on a row that is dropped anyway', () => {
    const rows = plainTurn();
    rows.push({ ...rows[2], seq: 4_000_000_000_000, sourceEventSeqs: [[0, 3_999_999_999_999]] });
    const started = Date.now();
    const { verdict } = read(logBytes(v1(), rows));
    assert.equal(verdict.ok, true);
    assert.deepEqual(verdict.recovered, { line: 8, error: 'released Session row 6 has seq gap (expected 6, got 4000000000000)' });
    assert.ok(Date.now() - started < 2000);
  });
});

describe('format v0/v1 codec: recovery', () => {
  it('a seq gap in the tail truncates the accepted prefix silently', () => {
    const rows = [...plainTurn(), { type: 'turn/start', seq: 7, time: 4, data: { turn: 2 } }];
    const { verdict } = read(logBytes(v1(), rows));
    assert.equal(verdict.ok, true);
    assert.equal(verdict.events, 6);
    assert.deepEqual(verdict.recovered, { line: 8, error: 'released Session row 6 has seq gap (expected 6, got 7)' });
  });

  it('a later turn/end makes the first issue fatal, at the issue’s line', () => {
    const rows = plainTurn();
    rows.splice(1, 1); // step/start of seq 1 gone: the gap is at row 1 (line 3), the turn/end at line 6
    const verdict = refusal(logBytes(v1(), rows));
    assert.deepEqual(
      [verdict.stage, verdict.dshError, verdict.line, verdict.throwLine],
      ['decode', 'released Session row 1 has seq gap (expected 1, got 2)', 3, 6],
    );
  });

  it('a malformed row is an issue like a gap: a non-object, or an unexpected packed member', () => {
    const rows: unknown[] = plainTurn();
    rows.splice(2, 0, '[1]');
    const verdict = refusal(logBytes(v1(), rows));
    assert.deepEqual([verdict.dshError, verdict.line, verdict.throwLine], ['released Session row 2 must be a JSON object', 4, 8]);
    const strict = refusal(logBytes(v1(), rows), 1, 'strict');
    assert.deepEqual([strict.dshError, strict.line, strict.throwLine], ['released Session row 2 must be a JSON object', 4, undefined]);
  });

  it('the gap message shows an unvalidated seq as dsh’s template does', () => {
    const rows: Record<string, unknown>[] = plainTurn();
    rows[1] = { ...rows[1], seq: [1, [2]] };
    assert.equal(refusal(logBytes(v1(), rows), 1, 'strict').dshError, 'released Session row 1 has seq gap (expected 1, got 1,2)');
  });
});
