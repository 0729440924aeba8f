// The CLI installs on its own: `npm pack` of this repository gives a tarball holding only what the CLI
// runs, and `npm install -g` of it into an empty prefix — offline, so nothing can come from a registry —
// gives a `session-surface` that checks logs (on worker threads too) with nothing but Node on the PATH,
// run from a folder far from this checkout.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { scaleLogText } from '../support/log-generator.mjs';
import { repoRoot } from '../support/paths';

/** The environment without the outer npm's settings (an `npm test` run passes its prefix and more). */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, ...extra };
}

describe('session-surface installed from the npm tarball', function () {
  this.timeout(180_000);
  const root = repoRoot();
  let dir: string;
  let tarball: string;
  let files: string[];
  let bin: string;
  let nodeOnly: NodeJS.ProcessEnv;

  before(function () {
    assert.ok(existsSync(join(root, 'dist', 'cli.js')), 'dist/cli.js is missing: run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'session-surface-install-'));
    const npmEnv = cleanEnv({ npm_config_cache: join(dir, 'npm-cache'), npm_config_update_notifier: 'false' });
    // The bundle is already built; --ignore-scripts keeps `prepare` from building it again.
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      env: npmEnv,
    });
    assert.equal(pack.status, 0, pack.stderr);
    const [packed] = JSON.parse(pack.stdout);
    tarball = join(dir, packed.filename);
    files = packed.files.map((f: { path: string }) => f.path).sort();
    const prefix = join(dir, 'prefix');
    const install = spawnSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], {
      cwd: dir,
      encoding: 'utf8',
      env: npmEnv,
    });
    assert.equal(install.status, 0, `npm install -g --offline failed:\n${install.stdout}\n${install.stderr}`);
    bin = join(prefix, 'bin', 'session-surface');
    nodeOnly = { PATH: [join(prefix, 'bin'), dirname(process.execPath)].join(':'), HOME: dir };
    mkdirSync(join(dir, 'work', 'logs'), { recursive: true });
    for (let i = 0; i < 3; i++) {
      const { text } = scaleLogText({ params: { targetEvents: 400 }, seed: i + 1, name: `installed-${i}` });
      writeFileSync(join(dir, 'work', 'logs', `session-${i}.jsonl`), text);
    }
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the tarball holds the launcher, the bundle, package.json, README and licence — nothing else', () => {
    const allowed = new Set(['bin/session-surface.js', 'dist/cli.js', 'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']);
    assert.deepEqual(
      files.filter((f) => !allowed.has(f)),
      [],
      `unexpected files in ${tarball}`,
    );
    for (const needed of ['bin/session-surface.js', 'dist/cli.js', 'package.json'])
      assert.ok(files.includes(needed), `${needed} is packed`);
  });

  it('the installed command checks a log and a folder (worker threads) with only Node on the PATH', () => {
    const one = spawnSync('session-surface', ['check', 'logs/session-0.jsonl'], {
      cwd: join(dir, 'work'),
      encoding: 'utf8',
      env: nodeOnly,
    });
    assert.equal(one.status, 0, one.stderr + String(one.error ?? ''));
    assert.match(one.stderr, /^logs\/session-0\.jsonl: loads \(\d+ events/);
    // The launcher's code cache, in the user's cache folder (HOME is the test's folder here).
    assert.match(readdirSync(join(dir, '.cache', 'session-surface')).join(' '), /^cli-[0-9a-f]{24}\.v8$/);
    const many = spawnSync(bin, ['check', '--json', '--jobs', '2', 'logs'], { cwd: join(dir, 'work'), encoding: 'utf8', env: nodeOnly });
    assert.equal(many.status, 0, many.stderr);
    const summary = JSON.parse(many.stdout.trimEnd().split('\n').pop()!).summary;
    assert.deepEqual([summary.files, summary.loads, summary.jobs], [3, 3, 2]);
    const help = spawnSync(bin, ['--help'], { encoding: 'utf8', env: nodeOnly });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^usage: session-surface COMMAND/);
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8', env: nodeOnly });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout, `session-surface ${JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')).version}\n`);
  });
});
