// `session-surface check DIR…` on a generated tree, through the built CLI in real child processes:
// the walk finds every *.jsonl and *.jsonl.zstd (and nothing else, and never loops on a link cycle),
// each log gets one verdict line in path order, worker threads give the same verdicts as one job, a
// summary closes the run, and the exit code says whether any log was refused or unreadable.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeDshZstdLog } from '../../src/core/zstd/encode';
import { headerLine, scaleLogText, TurnLogBuilder } from '../support/log-generator.mjs';
import { repoRoot } from '../support/paths';

interface Verdict {
  file: string;
  status: 'loads' | 'refused' | 'unreadable' | 'failed';
  events?: number;
  stage?: string;
  rule?: string;
  problems: { line: number; rule: string }[];
}

describe('session-surface check DIR (worker threads, generated tree)', function () {
  this.timeout(120_000);
  const bin = join(repoRoot(), 'bin', 'session-surface.js');
  let dir: string;
  const good: string[] = [];
  const refused: string[] = [];

  const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: dir });
  const jsonVerdicts = (stdout: string) => {
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    return { verdicts: lines.slice(0, -1) as Verdict[], summary: lines[lines.length - 1].summary };
  };

  before(() => {
    assert.ok(existsSync(join(repoRoot(), 'dist', 'cli.js')), 'dist/cli.js is missing: run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'session-surface-many-'));
    const write = (path: string, content: string | Uint8Array) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    };
    // Realistic logs from the shared generator, a few per folder, one of them zstd-compressed.
    for (let i = 0; i < 7; i++) {
      const { text } = scaleLogText({
        params: { targetEvents: 300, compactEvery: 4, keepTurns: 1, pruneEvery: 2 },
        seed: i + 1,
        name: `tree-${i}`,
      });
      const path = `logs/${i < 4 ? 'alpha' : 'beta/deeper'}/session-${i}.jsonl`;
      write(path, text);
      good.push(path);
    }
    const lines = scaleLogText({ params: { targetEvents: 200, compactEvery: 4, keepTurns: 1, pruneEvery: 2 }, seed: 99, name: 'zstd' })
      .text.trimEnd()
      .split('\n');
    write('logs/beta/session-z.jsonl.zstd', encodeDshZstdLog(lines));
    good.push('logs/beta/session-z.jsonl.zstd');
    // Logs dsh refuses: a broken header, and a surface event without its surfaceOp.
    write('logs/alpha/broken-header.jsonl', '{"type":"session","version":7}\n');
    refused.push('logs/alpha/broken-header.jsonl');
    const builder = new TurnLogBuilder();
    const turn = builder.turnLines().map((line) => (line.includes('"user/message"') ? line.replace(',"surfaceOp":"append"', '') : line));
    write('logs/beta/no-surface-op.jsonl', [headerLine({ id: 'refused', cwd: '/x' }), ...turn].join('\n') + '\n');
    refused.push('logs/beta/no-surface-op.jsonl');
    // Not logs: other names are not read; a link back up the tree is not followed.
    write('logs/alpha/notes.txt', 'not a log');
    write('logs/alpha/session.jsonl.bak', 'not a log either');
    symlinkSync(join(dir, 'logs'), join(dir, 'logs', 'beta', 'loop'));
    good.sort();
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const everyLog = () => [...good, ...refused].sort();

  it('walks the tree: one verdict per log in path order, a summary, exit 1 for the refused logs', () => {
    const result = run('check', '--jobs', '2', 'logs');
    assert.equal(result.status, 1, result.stderr);
    const verdictLines = result.stderr.trimEnd().split('\n');
    const summary = verdictLines.pop()!;
    assert.deepEqual(
      verdictLines.map((line) => line.slice(0, line.indexOf(': '))),
      everyLog(),
    );
    for (const line of verdictLines) {
      const file = line.slice(0, line.indexOf(': '));
      assert.match(line, refused.includes(file) ? /: refused by dsh at stage \w+ / : /: loads \(\d+ events/, line);
    }
    assert.match(summary, /^checked 10 logs in \d+\.\d\d s \(2 jobs\): 8 load, 2 refused$/);
    // Problems are printed as file:line: rule on stdout, for the refused logs among others.
    for (const file of refused) assert.match(result.stdout, new RegExp(`^${file.replace(/\./g, '\\.')}:\\d+: [\\w.-]+: `, 'm'));
  });

  it('--json: one object per log and a summary; workers give the verdicts one job gives', () => {
    const two = run('check', '--json', '--jobs', '2', 'logs');
    const one = run('check', '--json', '--jobs', '1', 'logs');
    assert.equal(two.status, 1, two.stderr);
    assert.equal(one.status, 1, one.stderr);
    assert.equal(two.stderr, '');
    const parallel = jsonVerdicts(two.stdout);
    const serial = jsonVerdicts(one.stdout);
    assert.deepEqual(
      parallel.verdicts.map((v) => v.file),
      everyLog(),
    );
    assert.deepEqual(parallel.verdicts, serial.verdicts);
    assert.deepEqual(
      { ...parallel.summary, seconds: 0, cpuSeconds: 0 },
      { files: 10, loads: 8, refused: 2, unreadable: 0, failed: 0, jobs: 2, seconds: 0, cpuSeconds: 0 },
    );
    assert.ok(parallel.summary.cpuSeconds > 0);
    assert.equal(serial.summary.jobs, 1);
    const zstd = parallel.verdicts.find((v) => v.file.endsWith('.zstd'))!;
    assert.equal(zstd.status, 'loads');
    assert.ok(zstd.events! > 200);
    const header = parallel.verdicts.find((v) => v.file.endsWith('broken-header.jsonl'))!;
    assert.equal(header.status, 'refused');
    assert.equal(header.stage, 'header');
  });

  it('exit 0 when every log loads; files and folders mix', () => {
    const result = run('check', 'logs/alpha/session-0.jsonl', 'logs/beta/deeper');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /checked 4 logs in .* 0 refused$/m);
  });

  it('a path that cannot be read gets its own verdict, the others still theirs; exit 2', () => {
    const result = run('check', '--json', 'missing.jsonl', 'logs/alpha/session-1.jsonl');
    assert.equal(result.status, 2, result.stderr);
    const { verdicts, summary } = jsonVerdicts(result.stdout);
    assert.deepEqual(
      verdicts.map((v) => v.status),
      ['unreadable', 'loads'],
    );
    assert.equal(summary.unreadable, 1);
  });

  it('usage errors exit 2 with one clear line and the usage, never a stack trace', () => {
    for (const args of [['--jobs', '0', 'logs'], ['--jobs', 'many', 'logs'], ['--jobs'], ['--bogus', 'logs'], [], ['--json=yes', 'logs']]) {
      const result = run('check', ...args);
      assert.equal(result.status, 2, `check ${args.join(' ')}: ${result.stderr}`);
      const [first, second] = result.stderr.split('\n');
      assert.match(first, /^session-surface check: /, first);
      assert.match(second, /^usage: session-surface check /);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
    const help = run('check', '--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^usage: session-surface check \[--json\] \[--jobs N\] \[--own \| --upgrade\] FILE\|DIR…/);
  });
});
