// The v3 codec's row admission and the v3 restore's protected system head, on crafted v3 logs; dsh's
// messages verbatim (its v3 codec reuses the v2 one, so physical messages say "released v2").
import { strict as assert } from 'node:assert';
import {
  SessionFormatError,
  SessionFormatUnsupportedMigrationError,
  type FormatEvent,
  type LogicalHeader,
  type Recovery,
} from '../../src/core/format';
import { restoreV3Artifact, v3Codec, v3RowAdmission } from '../../src/core/format/v2-to-v3';

const HEADER_LINE = { type: 'session', version: 3, id: 's3', createdAt: 1000, cwd: '/w', isSeeded: false, delegationDepth: 0 };
const HEADER: LogicalHeader = { version: 3, id: 's3', createdAt: 1000, cwd: '/w', isSeeded: false, delegationDepth: 0 };
const PROMPT_SOURCE = { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt' };

/**
 * turn/start 0, step/start 1, system head 2, request/header 3, user 4, assistant 5 (tool call c1),
 * tool/call 6, tool/result 7, step/end 8, turn/end 9.
 */
function v3Log(): FormatEvent[] {
  const events: FormatEvent[] = [];
  const add = (type: string, data: unknown, extra: Partial<FormatEvent> = {}) =>
    events.push({ type, seq: events.length, time: 1000 + events.length, data, ...extra });
  add('turn/start', { turn: 1 });
  add('step/start', { turn: 1, step: 1 });
  add(
    'system/message',
    { turn: 1, step: 1, message: { id: 'sys0', role: 'system', source: PROMPT_SOURCE, content: [] } },
    { surfaceOp: 'append' },
  );
  add('request/header', { header: { config: { provider: 'p', model: 'm' } }, reason: 'initial' });
  add(
    'user/message',
    { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } },
    { surfaceOp: 'append' },
  );
  const call = { type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' };
  const model = { kind: 'model', provider: 'p', model: 'm' };
  add(
    'assistant/message',
    { turn: 1, step: 1, message: { id: 'a1', role: 'assistant', content: [call], source: model }, stream: [] },
    { surfaceOp: 'append' },
  );
  add('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}' });
  const result = {
    id: 'r1',
    role: 'user',
    content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'data' }] }],
    source: { kind: 'tool', callId: 'c1' },
  };
  add('tool/result', { turn: 1, step: 1, message: result }, { surfaceOp: 'append' });
  add('step/end', { turn: 1, step: 1 });
  add('turn/end', { turn: 1, reason: { kind: 'completed' } });
  return events;
}

function decode(rows: unknown[], recovery: Recovery = 'strict'): FormatEvent[] {
  const decoder = v3Codec.createDecoder(HEADER_LINE, recovery);
  const events: FormatEvent[] = [];
  const sink = { emitEvent: (event: FormatEvent) => events.push(event), emitRun: () => assert.fail('v3 has no runs') };
  for (const row of rows) decoder.decodeRow(row, sink);
  decoder.finish(sink);
  return events;
}

function restore(events: FormatEvent[]): void {
  restoreV3Artifact({ header: HEADER, inheritedEventCount: 0, events });
}

function throwsFormat(run: () => unknown, message: string, errorClass: typeof SessionFormatError = SessionFormatError): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${String(error)}`);
    assert.equal((error as Error).message, message);
    return true;
  });
}

function withEvent(seq: number, change: (event: FormatEvent) => FormatEvent): FormatEvent[] {
  const events = v3Log();
  events[seq] = change(events[seq]);
  return events;
}

describe('format v3 codec: row admission', () => {
  it('reads a canonical v3 log and restores it', () => {
    const events = decode(v3Log());
    assert.equal(events.length, 10);
    assert.doesNotThrow(() => restore(events));
  });

  it('requires the exact replace spelling {op, startSeq, endSeq} and a marker on every surface event', () => {
    const oldSpelling = withEvent(4, (event) => ({ ...event, sourceEventSeqs: [2], surfaceOp: { op: 'replace', start: 2, end: 2 } }));
    throwsFormat(() => decode(oldSpelling), 'format v3 user/message at seq 4 requires exact replace fields op/startSeq/endSeq');
    const extraKey = withEvent(4, (event) => ({ ...event, surfaceOp: { op: 'replace', startSeq: 2, endSeq: 2, note: 'x' } }));
    throwsFormat(() => decode(extraKey), 'format v3 user/message at seq 4 requires exact replace fields op/startSeq/endSeq');
    const { surfaceOp: _marker, ...unmarked } = v3Log()[4];
    throwsFormat(() => decode(withEvent(4, () => unmarked as FormatEvent)), 'format v3 user/message at seq 4 requires a surfaceOp marker');
    throwsFormat(
      () => decode(withEvent(0, (event) => ({ ...event, surfaceOp: 'append' }))),
      'format v3 turn/start at seq 0 has unexpected field surfaceOp',
    );
  });

  it('refuses sourceEventSeqs on an assistant message (it embeds its stream)', () => {
    throwsFormat(
      () => decode(withEvent(5, (event) => ({ ...event, sourceEventSeqs: [4] }))),
      'format v3 assistant/message at seq 5 embeds its stream and cannot carry sourceEventSeqs',
    );
  });

  it('refuses empty optional request header fields and error metadata on a non-error tool result', () => {
    throwsFormat(
      () =>
        decode(
          withEvent(3, (event) => ({
            ...event,
            data: { header: { config: { provider: 'p', model: 'm' }, tools: [] }, reason: 'initial' },
          })),
        ),
      'format v3 request/header at seq 3 empty optional header fields must be omitted',
    );
    throwsFormat(
      () => decode(withEvent(7, (event) => ({ ...event, data: { ...(event.data as object), error: { name: 'ToolError', code: 'X' } } }))),
      'format v3 tool/result at seq 7 carries error metadata for a non-error tool result',
    );
  });

  it('refuses a retired header.system even in a tail that recovery would drop', () => {
    const rows: unknown[] = v3Log();
    rows[2] = { ...(rows[2] as object), seq: 99 }; // a seq gap: the rest is a recoverable tail …
    rows.length = 4;
    assert.equal(decode(rows, 'recoverable').length, 2);
    // … but a header carrying system in that tail still refuses the read.
    rows[3] = { ...(rows[3] as FormatEvent), data: { header: { config: { provider: 'p', model: 'm' }, system: '' }, reason: 'initial' } };
    throwsFormat(
      () => decode(rows, 'recoverable'),
      'format v3 request/header rejects retired header.system',
      SessionFormatUnsupportedMigrationError,
    );
    assert.ok(v3RowAdmission.mayRefuse(JSON.stringify(rows[3])));
    assert.ok(!v3RowAdmission.mayRefuse(JSON.stringify(rows[0])));
    // A type spelled with escapes is looked at whole.
    assert.ok(v3RowAdmission.mayRefuse('{"type":"request\\/header"}'));
  });

  it('refuses a required retired PTC dispatch as an unknown event; an ignorable one stays opaque', () => {
    const dispatch = { rootCallId: 'c1', parentCallId: 'c1', subCallId: 'd1', name: 'read', arguments: {} };
    const rows: FormatEvent[] = v3Log().slice(0, 7);
    rows.push({ type: 'tool/code-dispatch-start', seq: 7, time: 1007, data: dispatch });
    throwsFormat(
      () => decode(rows),
      'format v3 contains unknown event type "tool/code-dispatch-start" at seq 7',
      SessionFormatUnsupportedMigrationError,
    );
    rows[7] = { ...rows[7], ignorable: true };
    assert.equal(decode(rows).length, 8);
  });

  it('refuses a system message whose source is not a plugin', () => {
    const userSourced = withEvent(2, (event) => ({
      ...event,
      data: { turn: 1, step: 1, message: { id: 'sys0', role: 'system', source: { kind: 'user' }, content: [] } },
    }));
    throwsFormat(() => decode(userSourced), 'system message requires plugin source');
  });

  it('encodes only what it would read back: the encoder admits each event first', () => {
    const event = { ...v3Log()[3], data: { header: { config: { provider: 'p', model: 'm' }, system: 'x' }, reason: 'initial' } };
    throwsFormat(
      () => v3Codec.encodeEvent(event),
      'format v3 request/header rejects retired header.system',
      SessionFormatUnsupportedMigrationError,
    );
    assert.equal(
      JSON.stringify(v3Codec.encodeEvent({ ...v3Log()[7], sourceEventSeqs: [4, 5, 6] })),
      JSON.stringify({ ...v3Log()[7], sourceEventSeqs: [[4, 6]] }),
    );
  });
});

describe('format v3 restore: the protected system head', () => {
  it('refuses a replacement or compaction that would shadow the head', () => {
    const overHead = withEvent(4, (event) => ({ ...event, sourceEventSeqs: [2], surfaceOp: { op: 'replace', startSeq: 2, endSeq: 2 } }));
    throwsFormat(() => restore(decode(overHead)), 'surface replacement cannot shadow the protected system head');
    const events = v3Log();
    events.splice(9, 0, {
      type: 'compaction/prune',
      seq: 9,
      time: 1009,
      data: { shadowedRange: { start: 2, end: 4 }, shadowedSeqs: [2, 4], shadowedTokenCount: 1 },
    });
    events[10] = { ...events[10], seq: 10 };
    throwsFormat(() => restore(events), 'compaction cannot shadow the protected system head');
  });

  it('lets only a system message covering exactly the head replace it, inside an open step', () => {
    const replacing = (surfaceOp: unknown, step = 1): FormatEvent => ({
      type: 'system/message',
      seq: 8,
      time: 1008,
      data: { turn: 1, step, message: { id: 'sys1', role: 'system', source: PROMPT_SOURCE, content: [{ type: 'text', text: 'new' }] } },
      sourceEventSeqs: [2, 4],
      surfaceOp,
    });
    const log = (system: FormatEvent): FormatEvent[] => {
      const events = v3Log();
      events.splice(8, 0, system);
      return events.map((event, seq) => ({ ...event, seq }));
    };
    throwsFormat(
      () => restore(log(replacing({ op: 'replace', startSeq: 2, endSeq: 4 }))),
      'system/message must replace exactly the current system head',
    );
    throwsFormat(() => restore(log(replacing({ op: 'replace', startSeq: 2, endSeq: 2 }, 2))), 'system/message does not match an open step');
    assert.doesNotThrow(() => restore(log({ ...replacing({ op: 'replace', startSeq: 2, endSeq: 2 }), sourceEventSeqs: [2] })));
  });

  it('needs the head first when a system message follows other surface', () => {
    const events = v3Log();
    const [head] = events.splice(2, 1);
    events.splice(4, 0, head);
    const renumbered = events.map((event, seq) => ({ ...event, seq }));
    throwsFormat(() => restore(renumbered), 'system/message requires a protected first surface head');
    // With no system message at all the first surface node is an ordinary one, which v3 admits.
    assert.doesNotThrow(() =>
      restore(
        v3Log()
          .filter((event) => event.type !== 'system/message')
          .map((event, seq) => ({ ...event, seq })),
      ),
    );
  });
});
