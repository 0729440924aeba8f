// The read limits from the command line: every command that loads a log takes --max-line-bytes and
// --max-text-bytes (bytes, or with a K/M/G suffix), and a small limit refuses the log with a
// diagnostic that names where reading stopped (line or frame), the rule and the limit.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeDshZstdLog } from '../../src/core/zstd/encode';
import { byteSize } from '../../src/cli/limit-options';
import { richLog } from '../support/build-log';
import { bombFrame, bombLog, eventFrame } from '../support/zstd-bombs';
import { runCliChild } from '../support/child-process';

const LINE_RULE = /limits\.line-bytes/;

describe('CLI: read limits', function () {
  this.timeout(60_000);
  let dir: string;
  let plain: string;
  let zstd: string;
  let bomb: string;
  /** A line limit above the header line and below the longest event line. */
  let lineLimit: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cli-limits-'));
    const log = richLog();
    const text = log.text();
    const lines = text.split('\n').filter((l) => l !== '');
    const longest = Math.max(...lines.slice(1).map((l) => l.length));
    assert.equal(longest > lines[0].length + 20, true, 'the log has an event line longer than its header');
    lineLimit = String(lines[0].length + 10);
    plain = join(dir, 'log.jsonl');
    writeFileSync(plain, text);
    zstd = join(dir, 'log.jsonl.zstd');
    writeFileSync(zstd, encodeDshZstdLog(lines, { linesPerFrame: 4 }));
    // A few KB of zstd that would inflate to 64 MiB: its frame is refused before it is decoded.
    bomb = join(dir, 'bomb.jsonl.zstd');
    writeFileSync(bomb, bombLog(eventFrame(0), bombFrame({ contentBytes: 64 * 1024 * 1024 })));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads sizes in bytes and with binary suffixes, and refuses anything else as a usage error', () => {
    assert.equal(byteSize('max-line-bytes', '1024'), 1024);
    assert.equal(byteSize('max-line-bytes', '64k'), 64 * 1024);
    assert.equal(byteSize('max-line-bytes', '256MiB'), 256 * 1024 * 1024);
    assert.equal(byteSize('max-text-bytes', '2G'), 2 * 1024 ** 3);
    for (const bad of ['0', '-1', '1.5M', '12 apples', ''])
      assert.throws(() => byteSize('max-line-bytes', bad), /--max-line-bytes takes a size/);
    const run = runCliChild(['check', '--max-line-bytes', 'lots', plain]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--max-line-bytes takes a size in bytes/);
  });

  it('generous limits change nothing', () => {
    const run = runCliChild(['check', '--max-line-bytes', '1MiB', '--max-text-bytes', '64MiB', plain, zstd]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /log\.jsonl: loads/);
    assert.match(run.stderr, /log\.jsonl\.zstd: loads/);
  });

  for (const command of [['check'], ['inspect', '--json'], ['surface'], ['derive'], ['provenance'], ['repair'], ['repair', '--dry-run']]) {
    it(`${command.join(' ')}: a line over --max-line-bytes refuses the plain log, naming the line, the rule and the limit`, () => {
      const run = runCliChild([...command, '--max-line-bytes', lineLimit, plain]);
      assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
      const out = `${run.stdout}\n${run.stderr}`;
      assert.match(out, LINE_RULE);
      assert.match(out, new RegExp(`line [2-9]\\d* is longer than the read limit of ${lineLimit} bytes`));
    });
  }

  it('check: a zstd frame over --max-text-bytes is refused, naming the frame, its offset, the rule and the limit', () => {
    const run = runCliChild(['check', '--max-text-bytes', '1MiB', bomb]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /limits\.text-bytes/);
    assert.match(run.stdout, /frame 3 at compressed offset \d+: declares 64 MiB of content/);
    assert.match(run.stdout, /the text limit is 1 MiB, maxTextBytes/);
    assert.match(run.stderr, /refused by dsh .*limits\.text-bytes/);
  });

  it('check: a plain file over --max-text-bytes is not read, and the message names the rule and the limit', () => {
    const run = runCliChild(['check', '--max-text-bytes', '1k', plain]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /more than the text limit of 1024 bytes \(limits\.text-bytes/);
  });

  it('check --jobs 2 hands the limits to its workers', () => {
    const run = runCliChild(['check', '--jobs', '2', '--max-line-bytes', lineLimit, plain, plain]);
    assert.equal(run.code, 1, run.stderr);
    assert.equal((run.stdout.match(new RegExp(LINE_RULE, 'g')) ?? []).length >= 2, true, run.stdout);
  });

  it('compact and prune take the limits too: the log read within them ends before the long line', () => {
    const compact = runCliChild([
      'compact',
      plain,
      '--start',
      '0',
      '--end',
      '1',
      '--summary-file',
      plain,
      '--dry-run',
      '--max-line-bytes',
      lineLimit,
    ]);
    assert.equal(compact.code, 1, compact.stderr);
    assert.match(compact.stderr, LINE_RULE);
    const prune = runCliChild(['prune', plain, '--seq', '1', '--dry-run', '--max-line-bytes', lineLimit]);
    assert.equal(prune.code, 1, prune.stderr);
    assert.match(prune.stderr, /prune refused/);
  });

  it('--help lists the limit options', () => {
    for (const command of ['check', 'inspect', 'surface', 'repair']) {
      const run = runCliChild([command, '--help']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /--max-line-bytes N .*--max-text-bytes N/);
    }
  });
});
