// ../shared/conformance-v3 (verdicts of dsh's own session-format code) through the generations layer,
// one test per case: every form whose generation this build registers (v1, v2, v3), the top-level
// verdict (the v3 form dsh 0.1.5 opens) and the strict read, field by field (test/support/conformance-v3).
// The corpus lives outside this repository: without it the suite is skipped visibly, except under
// CI=true where it is required.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFORMANCE_V3_DIRS, compareV3Case, listV3Cases } from '../support/conformance-v3';
import { sharedDir } from '../support/paths';

describe('conformance-v3 corpus (../shared): forms v1–v3, top-level and strict verdicts', function () {
  this.timeout(60_000);
  const root = join(sharedDir(), 'conformance-v3');

  if (!existsSync(root)) {
    if (process.env.CI === 'true') {
      it('has the shared conformance-v3 corpus', () => {
        assert.fail(`../shared/conformance-v3 is required under CI=true (looked for ${root}; set SHARED_DIR to its location)`);
      });
    } else {
      it(`is skipped: no corpus at ${root} (set SHARED_DIR, or CI=true to require it)`, function () {
        this.skip();
      });
    }
    return;
  }

  const cases = listV3Cases(root);
  for (const dir of CONFORMANCE_V3_DIRS) {
    describe(dir, () => {
      const inDir = cases.filter((testCase) => testCase.dir === dir);
      it('has cases', () => assert.ok(inDir.length > 0, `no cases in ${join(root, dir)}`));
      for (const testCase of inDir) {
        it(testCase.name, () => {
          const comparisons = compareV3Case(testCase);
          // The top-level verdict and the strict read are always compared once v3 is registered.
          assert.ok(
            comparisons.some((comparison) => comparison.what === 'top'),
            'the top-level verdict was not compared',
          );
          const failed = comparisons.filter((comparison) => comparison.mismatches.length > 0);
          if (failed.length > 0)
            assert.fail(
              `${dir}/${testCase.name} disagrees:\n  ${failed.map((comparison) => `${comparison.what}: ${comparison.mismatches.join('; ')}`).join('\n  ')}`,
            );
        });
      }
    });
  }
});
