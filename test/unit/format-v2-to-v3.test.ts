// The v2→v3 migration on crafted v2 logs: the empty system head after the first step/start, a
// replacing system message before each request header whose prompt changes (dsh's synthetic id),
// `header.system` and empty optional header fields dropped, replace endpoints renamed, PTC renames,
// and each refusal in dsh's words.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { SessionFormatUnsupportedMigrationError, type FormatEvent, type LogicalHeader } from '../../src/core/format';
import { v2ToV3Migration, v3Codec } from '../../src/core/format/v2-to-v3';
import { encodeLines, migrate } from '../support/format-stages';

const HEADER: LogicalHeader = {
  version: 2,
  id: 's2',
  createdAt: 1000,
  cwd: '/w',
  isSeeded: false,
  delegationDepth: 0,
  agentPreset: 'code',
};
const MODEL = { kind: 'model', provider: 'p', model: 'm' };
const CONFIG = { provider: 'p', model: 'm' };

/** dsh's id of the system message inserted at source event (seq, type), computed independently. */
function systemId(sessionId: string, seq: number, type: string): string {
  return `v2-to-v3-system-${createHash('sha256')
    .update(JSON.stringify(['session-format-v2-to-v3', sessionId, seq, type]))
    .digest('hex')}`;
}

function v2Log(requestHeaders: { system?: string; tools?: unknown[] }[]): FormatEvent[] {
  const events: FormatEvent[] = [];
  const add = (type: string, data: unknown, extra: Partial<FormatEvent> = {}) =>
    events.push({ type, seq: events.length, time: 1000 + events.length, data, ...extra });
  add('turn/start', { turn: 1 });
  requestHeaders.forEach((header, index) => {
    const step = index + 1;
    add('step/start', { turn: 1, step });
    add('request/header', { header: { config: CONFIG, ...header }, reason: index === 0 ? 'initial' : 'change' });
    if (index === 0)
      add(
        'user/message',
        { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } },
        { surfaceOp: 'append' },
      );
    add(
      'assistant/message',
      { turn: 1, step, message: { id: `a${step}`, role: 'assistant', content: [{ type: 'text', text: 'ok' }], source: MODEL }, stream: [] },
      { surfaceOp: 'append' },
    );
    add('step/end', { turn: 1, step });
  });
  add('turn/end', { turn: 1, reason: { kind: 'completed' } });
  return events;
}

function toV3(events: FormatEvent[], header: LogicalHeader = HEADER) {
  return migrate([v2ToV3Migration], header, undefined, events);
}

function refusal(run: () => unknown, message: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof SessionFormatUnsupportedMigrationError, String(error));
    assert.equal((error as Error).message, message);
    return true;
  });
}

describe('format v2→v3: the system head', () => {
  it('appends an empty system head after the first step/start and replaces it where the prompt changes', () => {
    const v3 = toV3(v2Log([{ system: 'You are X', tools: [] }, { system: 'You are X' }, { system: 'You are Y' }]));
    const lines = encodeLines(v3Codec, v3);
    assert.equal(
      lines[0],
      '{"type":"session","version":3,"id":"s2","createdAt":1000,"cwd":"/w","isSeeded":false,"delegationDepth":0,"agentPreset":"ptc"}',
    );
    const source = '"source":{"kind":"plugin","plugin":"@deepseek-ai/dsh-system-prompt"}';
    assert.deepEqual(lines.slice(1, 6), [
      '{"type":"turn/start","seq":0,"time":1000,"data":{"turn":1}}',
      '{"type":"step/start","seq":1,"time":1001,"data":{"turn":1,"step":1}}',
      `{"type":"system/message","seq":2,"time":1001,"data":{"turn":1,"step":1,"message":{"id":"${systemId('s2', 1, 'step/start')}","role":"system",${source},"content":[]}},"surfaceOp":"append"}`,
      `{"type":"system/message","seq":3,"time":1002,"data":{"turn":1,"step":1,"message":{"id":"${systemId('s2', 2, 'request/header')}","role":"system",${source},"content":[{"type":"text","text":"You are X"}]}},"surfaceOp":{"op":"replace","startSeq":2,"endSeq":2},"sourceEventSeqs":[2]}`,
      // header.system is gone, and so is the empty tools list.
      '{"type":"request/header","seq":4,"time":1002,"data":{"header":{"config":{"provider":"p","model":"m"}},"reason":"initial"}}',
    ]);
    const types = v3.events.map((event) => `${event.seq}:${event.type}`);
    // The second request repeats the prompt (no system message); the third changes it.
    assert.deepEqual(types.slice(8), [
      '8:step/start',
      '9:request/header',
      '10:assistant/message',
      '11:step/end',
      '12:step/start',
      '13:system/message',
      '14:request/header',
      '15:assistant/message',
      '16:step/end',
      '17:turn/end',
    ]);
    assert.deepEqual(v3.events[13].surfaceOp, { op: 'replace', startSeq: 3, endSeq: 3 });
    assert.deepEqual(v3.events[13].sourceEventSeqs, [3]);
    assert.deepEqual(v3.events[13].data, {
      turn: 1,
      step: 3,
      message: {
        id: systemId('s2', 11, 'request/header'),
        role: 'system',
        source: { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt' },
        content: [{ type: 'text', text: 'You are Y' }],
      },
    });
  });

  it('refuses surface before the first step: it could get the head only by changing chronology', () => {
    const events = v2Log([{ system: 'x' }]);
    // Move the user message before the step: turn/start, user/message, step/start …
    const user = events.splice(3, 1)[0];
    events.splice(1, 0, user);
    events.forEach((event, index) => (event.seq = index));
    refusal(() => toV3(events), 'format v2 surface before first step cannot acquire a system head without changing chronology');
  });

  it('refuses a prompt change outside an open step, and a source message id that is a generated one', () => {
    const outside = v2Log([{ system: 'x' }]);
    const header = outside.splice(2, 1)[0];
    outside.splice(1, 0, header);
    outside.forEach((event, index) => (event.seq = index));
    refusal(() => toV3(outside), 'format v2 changed request prompt outside an open step cannot retain source chronology');

    const colliding = v2Log([{ system: 'x' }]);
    (colliding[4].data as { message: { id: string } }).message.id = systemId('s2', 1, 'step/start');
    refusal(() => toV3(colliding), 'source message id collides with a generated system message id');
  });

  it('refuses what v2→v3 cannot classify: an unknown event, ignorable or not', () => {
    const events = v2Log([{}]);
    events.splice(1, 0, { type: 'future/thing', seq: 1, time: 1, data: {}, ignorable: true });
    events.forEach((event, index) => (event.seq = index));
    refusal(() => toV3(events), 'format v2 to v3 cannot safely transform unclassified event future/thing');
  });
});

describe('format v2→v3: renames', () => {
  it('renames replace endpoints to startSeq/endSeq, remapped past the inserted head', () => {
    const events = v2Log([{}]);
    // A second user message replacing the first (seq 3 → after the head it is seq 4).
    events.splice(4, 0, {
      type: 'user/message',
      seq: 4,
      time: 1004,
      data: { id: 'u2', role: 'user', content: [{ type: 'text', text: 'edited' }], source: { kind: 'user' } },
      sourceEventSeqs: [3],
      surfaceOp: { op: 'replace', start: 3, end: 3 },
    });
    events.forEach((event, index) => (event.seq = index));
    const v3 = toV3(events);
    const replacing = v3.events.find((event) => (event.data as { id?: string }).id === 'u2')!;
    assert.equal(replacing.seq, 5);
    assert.deepEqual(replacing.surfaceOp, { op: 'replace', startSeq: 4, endSeq: 4 });
    assert.deepEqual(replacing.sourceEventSeqs, [4]);
    assert.equal(
      JSON.stringify(v3Codec.encodeEvent(replacing)),
      '{"type":"user/message","seq":5,"time":1004,"data":{"id":"u2","role":"user","content":[{"type":"text","text":"edited"}],"source":{"kind":"user"}},"sourceEventSeqs":[4],"surfaceOp":{"op":"replace","startSeq":4,"endSeq":4}}',
    );
  });

  it('renames the PTC vocabulary: dispatch events, the preset, and the tools-code-mode plugin in message sources', () => {
    const events = v2Log([{}]);
    const dispatch = { rootCallId: 'r', parentCallId: 'r', subCallId: 'c', name: 'read', arguments: { a: 1 } };
    const extra: FormatEvent[] = [
      { type: 'tool/code-dispatch-start', seq: 0, time: 1, data: dispatch },
      { type: 'tool/code-dispatch', seq: 0, time: 2, data: { ...dispatch, isError: false, content: [{ type: 'text', text: 'x' }] } },
      { type: 'agent-preset/selected', seq: 0, time: 3, data: { agentPreset: 'code' } },
      {
        type: 'user/message',
        seq: 0,
        time: 4,
        data: { id: 'p1', role: 'user', content: [{ type: 'text', text: 'ptc' }], source: { kind: 'plugin', plugin: 'tools-code-mode' } },
        surfaceOp: 'append',
      },
    ];
    events.splice(5, 0, ...extra);
    events.forEach((event, index) => (event.seq = index));
    const v3 = toV3(events);
    const types = v3.events.map((event) => event.type);
    assert.ok(types.includes('tool/ptc-dispatch-start') && types.includes('tool/ptc-dispatch'));
    assert.ok(!types.some((type) => type.startsWith('tool/code-dispatch')));
    assert.deepEqual(v3.events.find((event) => event.type === 'agent-preset/selected')!.data, { agentPreset: 'ptc' });
    assert.deepEqual((v3.events.find((event) => (event.data as { id?: string }).id === 'p1')!.data as { source: unknown }).source, {
      kind: 'plugin',
      plugin: 'tools-ptc',
    });
  });
});
