// The v2 physical layout (dsh's released v2 codec): `isSeeded` header, one event per row, range-encoded
// `sourceEventSeqs`, the inherited cut from the last `session/end-seed {inherited: true}`, seq gaps and
// recovery; and the v2 restore's envelope and vocabulary rules. Crafted rows, dsh's messages verbatim.
import { strict as assert } from 'node:assert';
import {
  SessionFormatError,
  SessionFormatUnsupportedMigrationError,
  type EventRun,
  type FormatEvent,
  type Recovery,
} from '../../src/core/format';
import { encodeSourceSeqs, expandSourceSpans, readSourceSpans, restoreV2Artifact, v2Codec } from '../../src/core/format/v1-to-v2';

const HEADER = { type: 'session', version: 2, id: 's', createdAt: 5, cwd: '/w', isSeeded: false, delegationDepth: 0 };

function decode(rows: unknown[], recovery: Recovery = 'strict', header: unknown = HEADER): { events: FormatEvent[]; cut: number } {
  const decoder = v2Codec.createDecoder(header, recovery);
  const events: FormatEvent[] = [];
  const sink = { emitEvent: (event: FormatEvent) => events.push(event), emitRun: (_run: EventRun) => assert.fail('v2 has no runs') };
  for (const row of rows) decoder.decodeRow(row, sink);
  return { events, cut: decoder.finish(sink) };
}

const turn = (seq: number, type: string, data: unknown = { turn: 1 }): FormatEvent => ({ type, seq, time: 100 + seq, data });

function throwsFormat(run: () => unknown, message: string, errorClass: typeof SessionFormatError = SessionFormatError): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${String(error)}`);
    assert.equal((error as Error).message, message);
    return true;
  });
}

describe('format v2 codec: sourceEventSeqs ranges', () => {
  it('packs runs of three or more consecutive seqs into [start, end] pairs, and only those', () => {
    assert.deepEqual(encodeSourceSeqs([1, 2, 3, 5, 6, 9, 10, 11, 12, 14]), [[1, 3], 5, 6, [9, 12], 14]);
    assert.deepEqual(encodeSourceSeqs([4]), [4]);
    assert.deepEqual(encodeSourceSeqs([]), []);
  });

  it('writes a list that is not increasing as it is (a pair would reorder it)', () => {
    assert.deepEqual(encodeSourceSeqs([16, 17, 18, 5]), [16, 17, 18, 5]);
  });

  it('reads pairs and members back into the seqs they stand for', () => {
    assert.deepEqual(expandSourceSpans(readSourceSpans([[1, 3], 5, 6, [9, 12]], 20)), [1, 2, 3, 5, 6, 9, 10, 11, 12]);
    // A list without pairs may be in any order, as long as its seqs are unique and earlier.
    assert.deepEqual(expandSourceSpans(readSourceSpans([16, 17, 5], 18)), [16, 17, 5]);
  });

  it('refuses what dsh refuses, in dsh’s words', () => {
    throwsFormat(() => readSourceSpans('1', 5), 'sourceEventSeqs must be an array');
    throwsFormat(() => readSourceSpans([[1, 2, 3]], 5), 'sourceEventSeqs range must be a [start, end] pair');
    throwsFormat(() => readSourceSpans([[3, 1]], 5), 'sourceEventSeqs range exceeds its event seq');
    throwsFormat(() => readSourceSpans([[1, 5]], 5), 'sourceEventSeqs range exceeds its event seq');
    throwsFormat(() => readSourceSpans([-1], 5), 'sourceEventSeqs member must be a non-negative safe integer');
    throwsFormat(() => readSourceSpans([12], 12), 'sourceEventSeqs ranges must contain unique earlier seqs');
    throwsFormat(() => readSourceSpans([16, 16, 5], 18), 'sourceEventSeqs ranges must contain unique earlier seqs');
    throwsFormat(() => readSourceSpans([[1, 3], 2], 9), 'sourceEventSeqs ranges must contain unique earlier seqs');
    throwsFormat(() => readSourceSpans([5, [1, 3]], 9), 'sourceEventSeqs ranges must be strictly increasing');
  });

  it('judges a hostile pair without expanding it', () => {
    const big = Number.MAX_SAFE_INTEGER - 1;
    const spans = readSourceSpans([[0, big - 1]], big);
    assert.equal(spans.count, big);
    // The decoder finds the seq gap before it would expand the list.
    throwsFormat(
      () => decode([turn(0, 'turn/start'), { type: 'user/message', seq: big, time: 1, data: {}, sourceEventSeqs: [[0, big - 1]] }]),
      `released v2 row 1 has seq gap (expected 1, got ${big})`,
    );
  });
});

describe('format v2 codec: header', () => {
  it('decodes the header to the logical header and writes it back in dsh’s key order', () => {
    const header = v2Codec.decodeHeader({
      type: 'session',
      version: 2,
      id: 'x',
      createdAt: 1,
      agentPreset: 'code',
      delegationDepth: 1,
      origin: 'subagent',
      isSeeded: true,
      parentSession: 'p',
    });
    assert.deepEqual(Object.keys(header), [
      'version',
      'id',
      'createdAt',
      'parentSession',
      'isSeeded',
      'origin',
      'delegationDepth',
      'agentPreset',
    ]);
    assert.equal(
      JSON.stringify(v2Codec.encodeHeader(header, 3)),
      '{"type":"session","version":2,"id":"x","createdAt":1,"parentSession":"p","isSeeded":true,"origin":"subagent","delegationDepth":1,"agentPreset":"code"}',
    );
  });

  it('refuses v0/v1’s seedLength, unknown members, a relative cwd and a cut on an unseeded session', () => {
    const { isSeeded: _seeded, ...withoutSeeded } = HEADER;
    throwsFormat(() => v2Codec.decodeHeader({ ...withoutSeeded, seedLength: 0 }), 'released v2 physical header lacks isSeeded');
    throwsFormat(() => v2Codec.decodeHeader({ ...HEADER, title: 'x' }), 'released v2 physical header has unexpected field title');
    throwsFormat(() => v2Codec.decodeHeader({ ...HEADER, cwd: 'tmp/x' }), 'format v2 header cwd must be absolute');
    throwsFormat(() => v2Codec.decodeHeader({ ...HEADER, version: 3 }), 'expected released v2 physical Session header');
    throwsFormat(() => v2Codec.decodeHeader({ ...HEADER, createdAt: -0 }), 'released v2 physical header is not lossless JSON');
    throwsFormat(() => v2Codec.encodeHeader(v2Codec.decodeHeader(HEADER), 2), 'unseeded format v2 Session has inherited events');
  });
});

describe('format v2 codec: rows', () => {
  it('decodes one event per row and encodes it back byte for byte, sources range-encoded', () => {
    const rows = [
      turn(0, 'turn/start'),
      turn(1, 'step/start', { turn: 1, step: 1 }),
      turn(2, 'request/header', { header: {}, reason: 'initial' }),
      turn(3, 'step/end', { turn: 1, step: 1 }),
      { type: 'user/message', seq: 4, time: 9, data: {}, sourceEventSeqs: [[0, 2], 3], surfaceOp: 'append' },
    ];
    const { events, cut } = decode(rows);
    assert.equal(cut, 0);
    assert.deepEqual(events[4].sourceEventSeqs, [0, 1, 2, 3]);
    assert.equal(
      JSON.stringify(v2Codec.encodeEvent(events[4])),
      '{"type":"user/message","seq":4,"time":9,"data":{},"sourceEventSeqs":[[0,3]],"surfaceOp":"append"}',
    );
  });

  it('names a seq gap as dsh does and fails a strict read with it', () => {
    throwsFormat(() => decode([turn(0, 'turn/start'), turn(2, 'turn/end')]), 'released v2 row 1 has seq gap (expected 1, got 2)');
  });

  it('recoverable: drops a damaged tail, but a later turn/end makes the first issue fatal', () => {
    const tail = decode([turn(0, 'turn/start'), turn(2, 'step/start'), turn(3, 'step/end')], 'recoverable');
    assert.equal(tail.events.length, 1);
    throwsFormat(
      () => decode([turn(0, 'turn/start'), { type: 'x', seq: 1, time: 1, data: {}, extra: 1 }, turn(2, 'turn/end')], 'recoverable'),
      'released v2 row 1 has unexpected field extra',
    );
    throwsFormat(
      () => decode([turn(0, 'turn/start'), turn(2, 'step/start'), turn(3, 'turn/end')], 'recoverable'),
      'released v2 row 1 has seq gap (expected 1, got 2)',
    );
  });

  it('takes the inherited cut from the last inherited end-seed marker, which the header must announce', () => {
    const seeded = { ...HEADER, isSeeded: true };
    const rows = [turn(0, 'turn/start'), turn(1, 'session/end-seed', { inherited: true }), turn(2, 'turn/end')];
    assert.equal(decode(rows, 'strict', seeded).cut, 1);
    throwsFormat(() => decode(rows), 'released v2 unseeded Session contains an inherited end-seed marker');
    throwsFormat(() => decode([turn(0, 'turn/start')], 'strict', seeded), 'released v2 seeded Session lacks an inherited end-seed marker');
    // A marker without `inherited: true` is an ordinary seed end, not the cut.
    throwsFormat(
      () => decode([turn(0, 'session/end-seed', {})], 'strict', seeded),
      'released v2 seeded Session lacks an inherited end-seed marker',
    );
  });

  it('refuses row envelopes dsh refuses', () => {
    throwsFormat(() => decode([{ type: 'turn/start', seq: 0, time: 1 }]), 'released v2 row 0 lacks required field data');
    throwsFormat(() => decode([{ type: 'turn/start', seq: 0, time: 1.5, data: {} }]), 'released v2 row 0 time must be a safe integer');
    throwsFormat(
      () => decode([{ type: 'turn/start', seq: 0, time: 1, data: {}, ignorable: false }]),
      'released v2 row 0 ignorable must be true when present',
    );
    throwsFormat(() => decode([{ type: 7, seq: 0, time: 1, data: {} }]), 'released v2 row 0 type must be a string');
  });
});

describe('format v2 restore: envelopes and vocabulary', () => {
  const header = v2Codec.decodeHeader(HEADER);
  it('refuses an unknown event type unless it is ignorable', () => {
    const events = [turn(0, 'future/thing', {})];
    throwsFormat(
      () => restoreV2Artifact({ header, inheritedEventCount: 0, events }),
      'format v2 contains unknown event type "future/thing" at seq 0',
      SessionFormatUnsupportedMigrationError,
    );
    assert.doesNotThrow(() => restoreV2Artifact({ header, inheritedEventCount: 0, events: [{ ...events[0], ignorable: true }] }));
  });

  it('refuses v1’s assistant/chunk, surface metadata on a log-only event and a non-dense seq', () => {
    throwsFormat(
      () => restoreV2Artifact({ header, inheritedEventCount: 0, events: [turn(0, 'assistant/chunk', {})] }),
      'format v2 contains unknown event type "assistant/chunk" at seq 0',
      SessionFormatUnsupportedMigrationError,
    );
    throwsFormat(
      () => restoreV2Artifact({ header, inheritedEventCount: 0, events: [{ ...turn(0, 'turn/start'), surfaceOp: 'append' }] }),
      'format v2 event 0 has unexpected field surfaceOp',
    );
    throwsFormat(
      () => restoreV2Artifact({ header, inheritedEventCount: 0, events: [turn(1, 'turn/start')] }),
      'format v2 event 0 is not dense',
    );
  });

  it('holds the seeded header to its last inherited marker', () => {
    const seeded = { ...header, isSeeded: true };
    const events = [turn(0, 'session/end-seed', { inherited: true })];
    throwsFormat(
      () => restoreV2Artifact({ header: seeded, inheritedEventCount: 1, events }),
      'format v2 seeded header disagrees with its last inherited end-seed marker',
    );
    throwsFormat(
      () => restoreV2Artifact({ header, inheritedEventCount: 0, events }),
      'format v2 unseeded Session contains an inherited end-seed marker',
    );
    throwsFormat(() => restoreV2Artifact({ header, inheritedEventCount: 2, events }), 'format v2 inherited event count exceeds its events');
  });
});
