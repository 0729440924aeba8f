// The v4 codec (spec §1, §3, §4 physical encoding, §6 validation entry points): v2's framing under a
// version-4 header, with dsh's physical messages, and v4 row admission that refuses retired or
// malformed v4 syntax even in a tail recovery would drop.
import { strict as assert } from 'node:assert';
import { readGeneration, type FormatEvent } from '../../src/core/format';
import { decodeV4Header, encodeV4Event, encodeV4Header, v4Codec, v4RowAdmission } from '../../src/core/format/v3-to-v4';
import { encodeV3Event, encodeV3Header } from '../../src/core/format/v2-to-v3';
import { baseV3Log, baseV4Log, v3Header, v4Header } from '../support/v4-artifacts';

const utf8 = new TextEncoder();
const PHYSICAL = { type: 'session', version: 4, id: 's', createdAt: 1, cwd: '/w', isSeeded: false, delegationDepth: 0 };

/** The base log as v4 text, with `lines` changed before it is joined. */
function logText(change: (lines: string[]) => void = () => undefined): Uint8Array {
  const lines = [
    JSON.stringify(encodeV4Header(v4Header(), 0)),
    ...baseV4Log().list.events.map((event) => JSON.stringify(encodeV4Event(event))),
  ];
  change(lines);
  return utf8.encode(lines.join('\n') + '\n');
}

describe('format v4 codec (spec §1, §3, §4, §6)', () => {
  it('§3: the physical header is v2’s with version 4, decoded to the logical header and written back in dsh’s key order', () => {
    const header = decodeV4Header({ ...PHYSICAL, agentPreset: 'ptc', origin: 'subagent', parentSession: 'p' });
    assert.deepEqual(header, {
      version: 4,
      id: 's',
      createdAt: 1,
      cwd: '/w',
      parentSession: 'p',
      isSeeded: false,
      origin: 'subagent',
      delegationDepth: 0,
      agentPreset: 'ptc',
    });
    assert.deepEqual(Object.keys(encodeV4Header(header, 0)), [
      'type',
      'version',
      'id',
      'createdAt',
      'cwd',
      'parentSession',
      'isSeeded',
      'origin',
      'delegationDepth',
      'agentPreset',
    ]);
  });

  it('§3: physical header refusals in dsh’s words (the v4 codec wraps v2’s)', () => {
    assert.throws(() => decodeV4Header({ ...PHYSICAL, version: 3 }), /^SessionFormatError: expected format v4 physical header$/);
    assert.throws(
      () => decodeV4Header({ ...PHYSICAL, title: 'x' }),
      /^SessionFormatError: released v2 physical header has unexpected field title$/,
    );
    const { isSeeded: _dropped, ...v0Style } = PHYSICAL;
    assert.throws(() => decodeV4Header({ ...v0Style, seedLength: 0 }), /^SessionFormatError: released v2 physical header lacks isSeeded$/);
    assert.throws(() => encodeV4Header({ ...v4Header(), version: 3 }, 0), /^SessionFormatError: expected format v4 header$/);
  });

  it('§4: sourceEventSeqs are range-encoded on disk (runs of three or more) and expanded when read', () => {
    const event: FormatEvent = {
      type: 'user/message',
      seq: 9,
      time: 1,
      data: {},
      surfaceOp: 'append',
      sourceEventSeqs: [1, 2, 3, 5, 6, 8],
    };
    assert.deepEqual(
      v4Codec.encodeEvent({ ...event, data: { content: [], source: { kind: 'user' }, role: 'user', id: 'u' } }).sourceEventSeqs,
      [[1, 3], 5, 6, 8],
    );
    const decoder = v4Codec.createDecoder(PHYSICAL, 'strict');
    const out: FormatEvent[] = [];
    decoder.decodeRow(
      { type: 'x', seq: 0, time: 1, data: {}, ignorable: true, sourceEventSeqs: [] },
      { emitEvent: (e) => out.push(e), emitRun: () => undefined },
    );
    assert.equal(out.length, 1);
  });

  it('§1/§6: a v4 log reads as v4; the same bytes decoded and encoded again are the bytes read', () => {
    const bytes = logText();
    const read = readGeneration(bytes, { targetVersion: 4 });
    assert.equal(read.verdict.ok, true, read.verdict.dshError);
    assert.equal(read.verdict.bytes, bytes.length);
  });

  it('§1: a header version above 4 is newer than this build; a file name naming another generation is refused', () => {
    const newer = readGeneration(
      logText((lines) => (lines[0] = lines[0].replace('"version":4', '"version":5'))),
      { targetVersion: 4 },
    );
    assert.equal(newer.verdict.dshError, 'stored Session uses newer format v5; this build writes v4');
    const misnamed = readGeneration(logText(), { targetVersion: 4, fileNameVersion: 3 });
    assert.equal(misnamed.verdict.ok, false);
    assert.equal(misnamed.verdict.stage, 'header');
  });

  it('§6 entry points: a damaged line ends the accepted prefix, but retired syntax after it is still refused', () => {
    const damaged = (after: (lines: string[]) => void) =>
      readGeneration(
        logText((lines) => {
          lines.splice(14, lines.length, 'not json');
          after(lines);
        }),
        { targetVersion: 4 },
      );
    const recovered = damaged(() => undefined);
    assert.equal(recovered.verdict.ok, true, recovered.verdict.dshError);
    assert.equal(recovered.verdict.events, 13);
    const header = {
      type: 'request/header',
      seq: 13,
      time: 1,
      data: { header: { config: { provider: 'p', model: 'm' }, system: 'old' }, reason: 'change' },
    };
    const retired = damaged((lines) => lines.push(JSON.stringify(header)));
    assert.equal(retired.verdict.ok, false);
    assert.equal(retired.verdict.dshError, 'format v4 request/header rejects retired header.system');
    const plugin = {
      type: 'user/message',
      seq: 13,
      time: 1,
      data: { content: [], source: { kind: 'plugin', plugin: 'compact' }, role: 'user', id: 'x' },
      surfaceOp: 'append',
    };
    const wrapper = damaged((lines) => lines.push(JSON.stringify(plugin)));
    assert.equal(wrapper.verdict.dshError, 'format v4 message requires a producer-owned source kind');
  });

  it('§6 entry points: the decoder defers an ignorable developer/message; a reader that knows the type refuses a malformed one', () => {
    const malformed = {
      type: 'developer/message',
      seq: 0,
      time: 1,
      data: { turn: 0, step: 1, message: { role: 'developer' } },
      ignorable: true,
    };
    assert.doesNotThrow(() =>
      v4Codec.createDecoder(PHYSICAL, 'strict').decodeRow(malformed, { emitEvent: () => undefined, emitRun: () => undefined }),
    );
    assert.throws(() => v4RowAdmission.admit(malformed), /developer\/message turn must be positive/);
    assert.throws(() => encodeV4Event(malformed as FormatEvent), /developer\/message turn must be positive/);
  });

  it('§6: the encoder refuses to write what a v4 reader refuses', () => {
    const base = baseV4Log();
    const result = structuredClone(base.list.events[base.seq.result]);
    result.data.message.role = 'user';
    assert.throws(() => encodeV4Event(result), /requires a tool-role message/);
  });

  it('§6: row admission is looked at only for lines that may hold what it refuses', () => {
    assert.equal(v4RowAdmission.mayRefuse('{"type":"turn/start","seq":3,"time":1,"data":{"turn":2}}'), false);
    assert.equal(v4RowAdmission.mayRefuse('{"type":"user/message"}'), true);
    assert.equal(v4RowAdmission.mayRefuse('{"type":"user\\/message"}'), true);
  });

  describe('§2: a v3 file read as v4 through the catalog', () => {
    const v3Text = (extra: object[] = []) => {
      const events = [...baseV3Log().list.events, ...extra.map((e, i) => ({ ...e, seq: 15 + i }))];
      const lines = [
        JSON.stringify(encodeV3Header(v3Header(), 0)),
        ...events.map((event) => JSON.stringify(encodeV3Event(event as FormatEvent))),
      ];
      return utf8.encode(lines.join('\n') + '\n');
    };
    it('§2 step 5: the children handed in as evidence give the parent its missing catalog facts', () => {
      const children = [
        { childId: 'kid', childCreatedAt: 7, descriptorCount: 1, descriptor: { version: 2, provider: 'p', mode: 'one-shot' } },
      ];
      const read = readGeneration(v3Text(), { targetVersion: 4, evidence: { children } });
      assert.equal(read.verdict.ok, true, read.verdict.dshError);
      assert.deepEqual(read.artifact!.events.at(-1)!.data, { version: 0, childId: 'kid', childCreatedAt: 7, mode: 'one-shot' });
      assert.equal(readGeneration(v3Text(), { targetVersion: 4 }).verdict.events, 15);
    });
    it('§2 step 4: a stage’s format error is reported as the edge’s refusal, in dsh’s words', () => {
      const marker = {
        type: 'session-log-deepseek/delivery-accepted',
        time: 1,
        data: { sessionId: 'other', sessionFormatVersion: 3, throughSeq: 3 },
      };
      const { verdict } = readGeneration(v3Text([marker]), { targetVersion: 4 });
      assert.equal(verdict.stage, 'migrate');
      assert.equal(verdict.edge, 'v3-to-v4');
      assert.equal(verdict.errorName, 'SessionFormatUnsupportedMigrationError');
      assert.equal(
        verdict.dshError,
        '@deepseek-ai/dsh-session-format-v3-to-v4 refuses this format v3 Session: current-generation delivery marker names the wrong Session',
      );
    });
  });
});
