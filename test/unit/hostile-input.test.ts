// Input built to break the contract: values nested thousands of levels deep where the reader and the
// views turn log values into text, event types named like built-in object members, and public API
// calls with the wrong types, BigInts, throwing getters, cycles and values JSON cannot hold. Each gets
// a result or a refusal — never an exception, never a stack trace.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkInvariants,
  extendLoadedFile,
  inspectLog,
  loadSession,
  loadSessionFile,
  planCompaction,
  planRepair,
  planToolResultPrune,
  provenanceIndex,
  serializeEvent,
  type SessionLog,
} from '../../src/core';
import { jsonText, stringText, valueText } from '../../src/core/value-text';
import { runCli } from '../../src/cli/main';
import { richLog } from '../support/build-log';

const encoder = new TextEncoder();
const DEPTH = 5000;
/** A JSON array nested `DEPTH` levels deep: about 10 KB of text. */
const DEEP = '['.repeat(DEPTH) + '1' + ']'.repeat(DEPTH);

/** The rich log's text with the first match of `pattern` (on any line) replaced. */
function withReplaced(pattern: RegExp, replacement: string): string {
  const text = richLog({ openTail: 'recorded-call' }).text();
  assert.match(text, pattern, `the log holds ${pattern}`);
  return text.replace(pattern, replacement);
}

const DEEP_SPOTS: Record<string, string> = {
  seq: withReplaced(/"seq":7\b/, `"seq":${DEEP}`),
  type: withReplaced(/"type":"tool\/call"/, `"type":${DEEP}`),
  'tool-call id': withReplaced(/"callId":"call-a"/, `"callId":${DEEP}`),
  'message block': withReplaced(/"content":\[/, `"content":[${DEEP},`),
  'compaction summary id': withReplaced(/"compactionId":"[^"]*"/, `"compactionId":${DEEP}`),
  'tool-result call id': withReplaced(/"toolCallId":"call-b"/, `"toolCallId":${DEEP}`),
};

/** Every read a view makes of a log, which must not throw. */
function exercise(log: SessionLog): void {
  void log.verdict;
  void log.diagnostics;
  inspectLog(log);
  log.deriveMessages();
  log.transcript();
  log.balancedCuts();
  for (let seq = 0; seq < log.eventCount + log.closers.length; seq++) log.event(seq);
  if (log.verdict.ok) {
    provenanceIndex(log);
    checkInvariants(log);
    planRepair(log);
  }
}

describe('hostile input', () => {
  describe('values nested 5,000 levels deep', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'hostile-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('the text helpers are depth-safe and bounded', () => {
      const deep = JSON.parse(DEEP);
      assert.throws(() => String(deep), RangeError, 'String() of it overflows the stack');
      assert.equal(valueText(deep, 20).length <= 20, true);
      assert.match(stringText(deep, 50), /^\[\[\[/);
      assert.equal(jsonText(deep), DEEP);
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = cyclic;
      assert.equal(valueText(cyclic), '{"a":1,"self":[cycle]}');
      assert.equal(valueText(10n), '10n');
      assert.equal(
        valueText({
          get x() {
            throw new Error('no');
          },
        }),
        '{"x":[unreadable]}',
      );
      assert.equal(
        jsonText({ a: [1, 'x', null, true, -0], b: undefined, 'c"': { d: 1e21 } }),
        JSON.stringify({ a: [1, 'x', null, true, -0], b: undefined, 'c"': { d: 1e21 } }),
      );
    });

    for (const [spot, text] of Object.entries(DEEP_SPOTS)) {
      it(`at a ${spot}: the core reads it and every CLI command answers with an exit code`, async () => {
        const log = loadSession(encoder.encode(text));
        exercise(log);
        const file = join(dir, `${spot.replace(/ /g, '-')}.jsonl`);
        writeFileSync(file, text);
        for (const args of [
          ['check'],
          ['inspect', '--json'],
          ['surface'],
          ['surface', '--json'],
          ['derive'],
          ['derive', '--json'],
          ['repair'],
          ['repair', '--json'],
          ['provenance'],
          ['provenance', '--json'],
        ]) {
          const code = await runCli([...args, file], { out: () => {}, err: () => {} });
          assert.ok(code === 0 || code === 1, `${args.join(' ')} exits ${code}`);
        }
      });
    }
  });

  describe('event types named like built-in object members', () => {
    const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
    const base = richLog().text();
    const seqs = loadSession(encoder.encode(base)).eventCount;
    for (const name of names) {
      it(`"${name}" marked ignorable loads, as any ignorable unknown type does`, () => {
        const line = JSON.stringify({ type: name, seq: seqs, time: 0, data: {}, ignorable: true });
        const log = loadSession(encoder.encode(base + line + '\n'));
        assert.equal(log.verdict.ok, true, log.verdict.error);
        assert.equal(log.eventType(seqs), name);
      });
      it(`"${name}" not marked ignorable is refused, with a string rule that names the type`, () => {
        const line = JSON.stringify({ type: name, seq: seqs, time: 0, data: {} });
        const log = loadSession(encoder.encode(base + line + '\n'));
        assert.equal(log.verdict.ok, false);
        assert.equal(log.verdict.rule, 'vocabulary.unknown-types');
        for (const d of log.diagnostics) assert.equal(typeof d.rule, 'string');
        assert.match(log.verdict.dshError!, new RegExp(`event type "${name}"`));
      });
    }
  });

  describe('the public API refuses what it cannot use', () => {
    const bytes = richLog({ openTail: 'recorded-call' }).bytes();

    it('load functions: null, a string, a number, an object, throwing getters; an ArrayBuffer is read', async () => {
      for (const input of [null, undefined, 'text', 42, {}, 10n, [1, 2]]) {
        for (const log of [loadSession(input as never), loadSessionFile(input as never).log]) {
          assert.equal(log.verdict.ok, false);
          assert.equal(log.verdict.rule, 'api.bad-input');
        }
      }
      const hostile = {
        get fileName(): string {
          throw new Error('getter');
        },
        get limits(): never {
          throw new Error('getter');
        },
        onProgress: () => {
          throw new Error('callback');
        },
      };
      assert.equal(loadSession(bytes, hostile as never).verdict.ok, true);
      assert.equal((await import('../../src/core')).loadSessionFileAsync !== undefined, true);
      const copy = bytes.slice();
      assert.equal(loadSession(copy.buffer as never).eventCount, loadSession(bytes).eventCount);
    });

    it('seqs that are NaN, fractional, negative, BigInt or strings find no event', () => {
      const log = loadSession(bytes);
      for (const seq of [NaN, 1.5, -1, 1n, '1', null, undefined, Infinity, {}]) {
        assert.equal(log.event(seq as never), undefined);
        assert.equal(log.place(seq as never), undefined);
        assert.equal(log.eventType(seq as never), undefined);
        assert.equal(log.lineText(seq as never), undefined);
      }
      assert.deepEqual(log.deriveMessages('nope' as never), []);
      assert.ok('error' in log.balancedCuts(null as never));
    });

    it('appends of values dsh cannot write (Date, undefined, functions, symbols, BigInt, cycles, getters) are refused before anything is written', () => {
      const log = loadSession(richLog().bytes());
      const before = log.scan.fileBytes;
      const next = log.eventCount;
      const event = (data: unknown) => ({ type: 'session/title', seq: next, time: 0, data });
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      const inputs: unknown[] = [
        null,
        'x',
        [null],
        [42],
        [event({ when: new Date(0) })],
        [event({ missing: undefined })],
        [event({ f: () => 1 })],
        [event({ s: Symbol('s') })],
        [event({ n: 10n })],
        [event(cyclic)],
        [
          event({
            get boom() {
              throw new Error('getter');
            },
          }),
        ],
        [event({ n: NaN })],
      ];
      for (const input of inputs) {
        const problems = log.planAppend(input as never);
        assert.ok(Array.isArray(problems) && problems.length > 0, `planAppend refuses ${valueText(input, 60)}`);
        const result = log.append(input as never);
        assert.equal(result.ok, false);
      }
      assert.equal(log.scan.fileBytes, before, 'nothing was written');
      assert.equal(log.eventCount, next);
      const refused = serializeEvent(event({ when: new Date(0) }) as never);
      assert.ok(typeof refused !== 'string' && refused.reasons[0].rule === 'json.lossless-values');
      assert.match(refused.reasons[0].message, /not plain JSON \(a Date object at \.data\.when\)/);
    });

    it('planners and followers refuse wrong inputs with reasons', () => {
      const log = loadSession(bytes);
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      for (const plan of [
        planCompaction(null as never, {} as never),
        planCompaction(log, cyclic as never),
        planCompaction(log, null as never),
        planToolResultPrune(log, NaN, []),
        planToolResultPrune(log, 1.5, []),
        planToolResultPrune(null as never, 1, []),
        planToolResultPrune(log, 3, [10n] as never),
        planRepair(null as never),
        planRepair({} as never),
      ]) {
        assert.equal(plan.ok, false);
        assert.ok(!plan.ok && plan.reasons.length > 0 && typeof plan.reasons[0].message === 'string');
      }
      assert.equal(extendLoadedFile(null as never, new Uint8Array(1)).diagnostics[0].rule, 'api.bad-input');
      assert.equal(extendLoadedFile(loadSessionFile(bytes), 'x' as never).diagnostics[0].rule, 'api.bad-input');
      assert.equal(log.extend(null as never).diagnostics[0].rule, 'api.bad-input');
      assert.equal(inspectLog(null as never).ok, false);
    });
  });
});
