// Hostile values in v1–v3 logs: a type, seq or content block nested tens of thousands of levels deep
// gets dsh's verdict (a refusal naming the rule, or a dropped tail), never "Maximum call stack size
// exceeded", and in time linear in the line.
import { strict as assert } from 'node:assert';
import { readGeneration, type FormatVerdict } from '../../src/core/format';

const DEPTH = 100_000;
const deepArray = (leaf: string): string => '['.repeat(DEPTH) + leaf + ']'.repeat(DEPTH);
const file = (lines: string[]): Uint8Array => new TextEncoder().encode(lines.join('\n') + '\n');
const header = (version: number, extra = ''): string =>
  `{"type":"session","version":${version},"id":"s","createdAt":1,"cwd":"/w",${version < 2 ? '' : '"isSeeded":false,'}"delegationDepth":0${extra}}`;

function read(bytes: Uint8Array, targetVersion: number, recovery: 'strict' | 'recoverable' = 'strict'): FormatVerdict {
  const started = Date.now();
  const { verdict } = readGeneration(bytes, { targetVersion, recovery });
  assert.ok(Date.now() - started < 5000, 'took more than 5 s');
  assert.notEqual(verdict.errorName, 'RangeError', `a stack overflow became the verdict: ${verdict.dshError}`);
  return verdict;
}

describe('format v2/v3: hostile nesting', () => {
  it('a v3 row whose type is a deeply nested array is malformed, or dropped as a torn tail', () => {
    const bytes = file([header(3), `{"type":${deepArray('"x"')},"seq":0,"time":1,"data":{}}`]);
    const strict = read(bytes, 3);
    assert.equal(strict.stage, 'decode');
    assert.equal(strict.dshError, 'released v2 row 0 type must be a string');
    assert.equal(read(bytes, 3, 'recoverable').ok, true);
  });

  it('a v2 seq gap names a deeply nested seq without overflowing', () => {
    const bytes = file([
      header(2),
      '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}',
      `{"type":"x","seq":${deepArray('1')},"time":1,"data":{}}`,
    ]);
    const strict = read(bytes, 2);
    assert.equal(strict.stage, 'decode');
    assert.match(strict.dshError ?? '', /^released v2 row 1 has seq gap \(expected 1, got 1\)$/);
  });

  it('a v1 event of a deeply nested type is refused as unknown by v1→v2', () => {
    const bytes = file([header(1), `{"type":${deepArray('"x"')},"seq":0,"time":1,"data":{}}`]);
    const verdict = read(bytes, 2);
    assert.equal(verdict.ok, false);
    assert.equal(verdict.errorName, 'SessionFormatUnsupportedMigrationError');
  });

  it('the content audit walks tool results nested thousands deep and names the unknown kind at the bottom', () => {
    let block = '{"type":"mystery"}';
    for (let i = 0; i < 5000; i++) block = `{"type":"tool-result","toolCallId":"c","content":[${block}]}`;
    const user = `{"type":"user/message","seq":2,"time":1,"data":{"id":"u","role":"user","content":[${block}],"source":{"kind":"user"}},"surfaceOp":"append"}`;
    const bytes = file([
      header(2),
      '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}',
      '{"type":"step/start","seq":1,"time":1,"data":{"turn":1,"step":1}}',
      user,
    ]);
    const verdict = read(bytes, 3);
    assert.equal(verdict.stage, 'migrate');
    assert.equal(verdict.edge, 'v2-to-v3');
    const message = verdict.dshError ?? '';
    assert.ok(message.startsWith('format v2 user/message at seq 2 data.content[0].content[0].content[0]'), message.slice(0, 120));
    assert.ok(message.endsWith('.content[0]: cannot safely transform unclassified message content kind "mystery"'), message.slice(-120));
  });
});
