// The format layer's JSON helpers and generation file names: dsh's rules and messages, and answers
// (not stack overflows) for values nested hundreds of thousands of levels deep.
import { strict as assert } from 'node:assert';
import {
  assertExactKeys,
  currentGeneration,
  findKeyProblem,
  formatCount,
  formatSafeInteger,
  generationFileName,
  isLosslessJson,
  jsonEqual,
  jsonString,
  listGenerations,
  parseGenerationFileName,
  snapshotFormatHeader,
  snapshotLosslessJson,
  templateString,
} from '../../src/core/format';

/** `[[[…1…]]]`, `depth` levels, parsed from text as a log line would be. */
function deepArray(depth: number): unknown {
  return JSON.parse('['.repeat(depth) + '1' + ']'.repeat(depth));
}

describe('format json helpers', () => {
  it('counts and safe integers: dsh messages, -0 refused', () => {
    assert.equal(formatCount(3, 'x'), 3);
    assert.throws(() => formatCount(-1, 'header createdAt'), {
      name: 'SessionFormatError',
      message: 'header createdAt must be a non-negative safe integer',
    });
    assert.throws(() => formatCount(-0, 'n'), /n must be a non-negative safe integer/);
    assert.throws(() => formatCount(2 ** 53, 'n'), /non-negative safe integer/);
    assert.throws(() => formatCount('3', 'n'), /non-negative safe integer/);
    assert.equal(formatSafeInteger(-5, 't'), -5);
    assert.throws(() => formatSafeInteger(-0, 'Session event 4 time'), { message: 'Session event 4 time must be a safe integer' });
    assert.throws(() => formatSafeInteger(1.5, 't'), /t must be a safe integer/);
  });

  it('exact keys: an unexpected member is named before a missing one (v0/v1), or after (v2 order)', () => {
    const record = { a: 1, z: 2 };
    assert.throws(() => assertExactKeys(record, ['a', 'b'], [], 'row 3'), { message: 'row 3 has unexpected member "z"' });
    assert.throws(() => assertExactKeys({ a: 1 }, ['a', 'b'], [], 'row 3'), { message: 'row 3 lacks required member "b"' });
    assert.deepEqual(findKeyProblem(record, ['a', 'b'], [], 'missing-first'), { kind: 'missing', key: 'b' });
    assert.equal(findKeyProblem({ a: 1, o: 2 }, ['a'], ['o']), undefined);
  });

  it('lossless snapshot: what JSON would lose is refused, the rest copied', () => {
    const source = { b: [1, 'x', null, true, { c: 2 }] };
    const copy = snapshotLosslessJson(source) as typeof source;
    assert.deepEqual(copy, source);
    assert.notEqual(copy.b, source.b);
    for (const lossy of [-0, NaN, Infinity, undefined, () => 1, 1n, [1, , 3], new Date(0), new Map(), { [Symbol('s')]: 1 }]) {
      assert.equal(snapshotLosslessJson({ v: lossy }), undefined, String(lossy));
      assert.equal(isLosslessJson({ v: lossy }), false);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    assert.equal(isLosslessJson(cyclic), false);
    const shared = { x: 1 };
    assert.equal(isLosslessJson([shared, shared]), true, 'a value seen twice is not a cycle');
    assert.equal(isLosslessJson(Object.assign(Object.create(null), { a: 1 })), true);
  });

  it('header snapshot: the checks every generation shares', () => {
    const header = { version: 1, id: 's', createdAt: 0, isSeeded: false, delegationDepth: 0 };
    assert.deepEqual(snapshotFormatHeader(header), header);
    assert.throws(() => snapshotFormatHeader({ ...header, isSeeded: 'no' }), { message: 'Session header isSeeded must be a boolean' });
    assert.throws(() => snapshotFormatHeader({ ...header, createdAt: -1 }, 'h'), {
      message: 'h createdAt must be a non-negative safe integer',
    });
    // -0 is not even lossless JSON: refused before any member is looked at.
    assert.throws(() => snapshotFormatHeader({ ...header, createdAt: -0 }, 'h'), { message: 'h is not lossless JSON' });
    assert.throws(() => snapshotFormatHeader([]), { message: 'Session header must be a JSON object' });
  });

  it('deep values: equality, snapshot, JSON text and template text never overflow', () => {
    const depth = 200_000;
    const a = deepArray(depth);
    const b = deepArray(depth);
    assert.equal(jsonEqual(a, b), true);
    assert.equal(jsonEqual(a, deepArray(depth - 1)), false);
    assert.equal(isLosslessJson(a), true);
    assert.ok(snapshotLosslessJson(a) !== undefined);
    const text = jsonString(a)!;
    assert.equal(text.length, 2 * depth + 1);
    assert.equal(templateString(a), '1');
    assert.equal(templateString([1, [2, null, [3]], {}]), `${[1, [2, null, [3]], {}]}`);
    assert.equal(jsonEqual({ a: 1, b: [2] }, { b: [2], a: 1 }), true, 'key order does not matter');
  });
});

describe('generation file names', () => {
  it('names each generation canonically', () => {
    assert.equal(generationFileName(0), 'session.jsonl');
    assert.equal(generationFileName(3, true), 'session.v3.jsonl.zstd');
    assert.throws(() => generationFileName(-1), /Session log generation version must be a non-negative safe integer/);
  });

  it('parses only canonical names (no .v0, no leading zeros, lowercase)', () => {
    assert.deepEqual(parseGenerationFileName('session.jsonl'), { version: 0, compressed: false });
    assert.deepEqual(parseGenerationFileName('session.v12.jsonl.zstd'), { version: 12, compressed: true });
    for (const name of [
      'session.v0.jsonl',
      'session.v01.jsonl',
      'Session.v1.jsonl',
      'session.V1.jsonl',
      'session.v1.jsonl.tmp',
      'session.migration.ab.jsonl',
      'x.jsonl',
    ])
      assert.equal(parseGenerationFileName(name), undefined, name);
  });

  it('picks the numerically highest canonical generation, never a non-canonical one', () => {
    const names = [
      'session.jsonl',
      'session.v3.jsonl.zstd',
      'session.v10.jsonl',
      'session.v9.jsonl',
      'session.v11.jsonl.tmp',
      'session.lock',
    ];
    assert.equal(currentGeneration(names)?.current.name, 'session.v10.jsonl');
    assert.equal(currentGeneration(['session.lock', 'notes.txt']), undefined);
    assert.deepEqual(
      listGenerations(names).map((g) => g.version),
      [0, 3, 9, 10],
    );
  });

  it('names the other encoding of the current generation as a conflict', () => {
    const picked = currentGeneration(['session.v4.jsonl.zstd', 'session.v4.jsonl', 'session.jsonl']);
    assert.equal(picked?.current.name, 'session.v4.jsonl');
    assert.equal(picked?.conflict?.name, 'session.v4.jsonl.zstd');
  });
});
