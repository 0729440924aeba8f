// The v1–v3 conformance corpus (../shared/conformance-v3: verdicts of dsh's own session-format
// code), read through the generations layer. For every case: each target form whose generation
// this build registers, the strict read, and the top-level verdict once its target (v3) is
// registered. A generation registered in src/core/format/generations.ts is compared here without
// any change to this file. Without ../shared the suite is skipped visibly, except under CI=true.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { FORMAT_GENERATIONS } from '../../src/core/format';
import { compareV3Case, listV3Cases, type Comparison } from '../support/conformance-v3';
import { hasShared, sharedDir } from '../support/paths';

const root = (): string => join(sharedDir(), 'conformance-v3');

describe('conformance-v3 corpus (../shared/conformance-v3)', function () {
  this.timeout(120_000);

  if (!hasShared()) {
    if (process.env.CI === 'true') {
      it('has the shared corpus', () => {
        assert.fail(`../shared is required under CI=true (looked for ${root()}; set SHARED_DIR to its location)`);
      });
    } else {
      it(`is skipped: no shared corpus at ${sharedDir()} (set SHARED_DIR, or CI=true to require it)`, function () {
        this.skip();
      });
    }
    return;
  }

  const cases = listV3Cases(root());
  /** Agreement per directory and comparison (`v0-to-v3 forms.v1` → [agreeing, total]). */
  const tally = new Map<string, [number, number]>();
  const count = (dir: string, comparison: Comparison): void => {
    const key = `${dir} ${comparison.what.replace(/@v\d+$/, '')}`;
    const entry = tally.get(key) ?? [0, 0];
    entry[1] += 1;
    if (comparison.mismatches.length === 0) entry[0] += 1;
    tally.set(key, entry);
  };

  it('has cases in every directory', () => {
    for (const dir of ['v1', 'v2', 'v3', 'v3-mutations', 'v0-to-v3'])
      assert.ok(
        cases.some((c) => c.dir === dir),
        `no cases in ${dir}`,
      );
  });

  for (const testCase of cases) {
    it(`${testCase.dir}/${testCase.name}`, () => {
      const comparisons = compareV3Case(testCase);
      for (const comparison of comparisons) count(testCase.dir, comparison);
      const failed = comparisons.filter((comparison) => comparison.mismatches.length > 0);
      if (failed.length > 0) assert.fail(failed.map((c) => `${c.what}: ${c.mismatches.join('; ')}`).join('\n'));
    });
  }

  it('compares every registered form of the v0 and v1 cases, and prints the agreement', () => {
    const lines = [...tally.entries()].sort().map(([key, [agree, total]]) => `  ${key}: ${agree}/${total}`);
    console.log(
      `conformance-v3 agreement (registered: ${FORMAT_GENERATIONS.map((g) => `v${g.version}`).join(', ')}):\n${lines.join('\n')}`,
    );
    // Every v1 log and every v0 source has a v1 form, and v1 is registered: none may go uncompared.
    for (const dir of ['v1', 'v0-to-v3']) {
      const expected = cases.filter((c) => c.dir === dir && c.expected.forms?.v1).length;
      assert.equal(tally.get(`${dir} forms.v1`)?.[1], expected, `${dir}: forms.v1 compared`);
      assert.ok(expected > 0);
    }
  });
});
