// The launcher's code cache (bin/session-surface.js): written once into the cache folder, then used as
// it is (not written again); a corrupt or foreign cache is replaced; with none allowed or no folder to
// write, the command works the same. Whatever the cache, the command's output is the same.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleLogText } from '../support/log-generator.mjs';
import { repoRoot } from '../support/paths';

describe('the CLI launcher keeps a code cache', function () {
  this.timeout(60_000);
  let dir: string;
  let log: string;
  const bin = join(repoRoot(), 'bin', 'session-surface.js');

  const check = (env: Record<string, string>) => {
    const r = spawnSync(process.execPath, [bin, 'check', log], { encoding: 'utf8', env: { ...process.env, ...env } });
    return { code: r.status, out: r.stdout + r.stderr };
  };
  const cacheFiles = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.v8')) : []);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
    log = join(dir, 'session.jsonl');
    writeFileSync(log, scaleLogText({ params: { targetEvents: 300 }, seed: 7, name: 'code-cache' }).text);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the cache on the first run and uses it unchanged on the next; the output is the same', () => {
    const folder = join(dir, 'cache');
    const uncached = check({ SESSION_SURFACE_CODE_CACHE: '0', SESSION_SURFACE_CACHE_DIR: folder });
    assert.equal(uncached.code, 0, uncached.out);
    assert.deepEqual(cacheFiles(folder), [], 'SESSION_SURFACE_CODE_CACHE=0 writes no cache');

    const first = check({ SESSION_SURFACE_CACHE_DIR: folder });
    assert.deepEqual(first, uncached);
    const [name] = cacheFiles(folder);
    assert.match(name ?? '', /^cli-[0-9a-f]{24}\.v8$/);
    const written = statSync(join(folder, name));
    assert.ok(written.size > 10_000, `a cache of the compiled bundle (${written.size} bytes)`);

    const second = check({ SESSION_SURFACE_CACHE_DIR: folder });
    assert.deepEqual(second, uncached);
    const after = statSync(join(folder, name));
    assert.deepEqual([after.ino, after.mtimeMs], [written.ino, written.mtimeMs], 'an accepted cache is not written again');
  });

  it('replaces a corrupt cache and removes caches of other bundles', () => {
    const folder = join(dir, 'corrupt');
    assert.equal(check({ SESSION_SURFACE_CACHE_DIR: folder }).code, 0);
    const [name] = cacheFiles(folder);
    writeFileSync(join(folder, name), 'not a code cache');
    writeFileSync(join(folder, 'cli-0123456789abcdef01234567.v8'), 'a cache of another bundle');
    const run = check({ SESSION_SURFACE_CACHE_DIR: folder });
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /loads \(\d+ events/);
    assert.deepEqual(cacheFiles(folder), [name]);
    assert.notEqual(readFileSync(join(folder, name), 'utf8'), 'not a code cache');
  });

  it('works the same when the cache folder cannot be made', () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const run = check({ SESSION_SURFACE_CACHE_DIR: join(blocker, 'cache') });
    assert.deepEqual(run, check({ SESSION_SURFACE_CODE_CACHE: '0' }));
  });
});
