// The Node versions package.json promises are the ones `npm install` takes without a warning: every
// package the lockfile installs accepts each of them (no EBADENGINE), at the lowest version of each
// line the range admits and later in it.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/paths';
import { lowestOfEachPart, satisfiesNodeRange } from '../support/node-range';

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

describe('Node versions', () => {
  const root = repoRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
  const promised = pkg.engines.node;
  // The lowest version of each line promised, a later one in it, and the newest lines.
  const probes = [...lowestOfEachPart(promised), '20.99.0', '22.99.0', '24.99.0', '26.0.0'].filter((v) => satisfiesNodeRange(v, promised));

  it('reads npm ranges as npm does', () => {
    assert.equal(satisfiesNodeRange('20.19.0', '^20.19.0 || ^22.13.0 || >=24'), true);
    assert.equal(satisfiesNodeRange('20.18.1', '^20.19.0 || ^22.13.0 || >=24'), false);
    assert.equal(satisfiesNodeRange('22.12.0', '^20.19.0 || ^22.13.0 || >=24'), false);
    assert.equal(satisfiesNodeRange('23.1.0', '^20.19.0 || ^22.13.0 || >=24'), false);
    assert.equal(satisfiesNodeRange('20.0.0', '>=22'), false);
    assert.equal(satisfiesNodeRange('20.5.0', '18 || 20 || >=22'), true);
    assert.equal(satisfiesNodeRange('21.0.0', '18 || 20 || >=22'), false);
    assert.equal(satisfiesNodeRange('20.0.0', '>= 10.*'), true);
    assert.equal(satisfiesNodeRange('20.0.0', '6.* || 8.* || >= 10.*'), true);
    assert.equal(satisfiesNodeRange('20.0.0', '*'), true);
    assert.equal(satisfiesNodeRange('16.0.0', '^12.22.0 || ^14.17.0 || >=16.0.0'), true);
    assert.equal(satisfiesNodeRange('15.0.0', '^12.22.0 || ^14.17.0 || >=16.0.0'), false);
    assert.equal(satisfiesNodeRange('20.10.0', '>=18.0.0 <21'), true);
    assert.equal(satisfiesNodeRange('21.0.0', '>=18.0.0 <21'), false);
    assert.deepEqual(lowestOfEachPart('^20.19.0 || ^22.13.0 || >=24'), ['20.19.0', '22.13.0', '24.0.0']);
  });

  it('a Node 20 is among the versions package.json promises', () => {
    assert.ok(
      probes.some((v) => v.startsWith('20.')),
      `${promised} admits no Node 20`,
    );
  });

  it('every package the lockfile installs accepts every Node version package.json promises', () => {
    const refusals: string[] = [];
    for (const [path, locked] of Object.entries(lock.packages)) {
      const range = locked.engines && !Array.isArray(locked.engines) ? locked.engines.node : undefined;
      if (!path || !range) continue;
      for (const v of probes) if (!satisfiesNodeRange(v, range)) refusals.push(`${path}@${locked.version} wants node ${range}: not ${v}`);
    }
    assert.deepEqual(refusals, []);
  });
});
