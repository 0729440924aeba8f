// How the CLI opens files: only regular files are read (a FIFO or a device would block or never end),
// and a file that cannot be read gets its own verdict line without ending a multi-file run. Run as a
// real child process, so a blocking open would show as a timeout rather than hang the suite.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { richLog } from '../support/build-log';
import { runCliChild } from '../support/child-process';
import { openLog } from '../../src/cli/open-log';
import { loadSessionFileFrom } from '../../src/core/read/load-file';
import { loadSession } from '../../src/core';
import { encodeDshZstdLog } from '../../src/core/zstd/encode';

describe('CLI: opening files', function () {
  this.timeout(60_000);
  let dir: string;
  let good: string;
  let fifo: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'open-log-'));
    good = join(dir, 'good.jsonl');
    writeFileSync(good, richLog().bytes());
    fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(join(dir, 'folder.jsonl'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const command of [['check'], ['inspect', '--json'], ['surface']]) {
    it(`${command[0]}: a FIFO, a device, a directory and a missing file are refused, each with its own line, and the other files are still read`, () => {
      const files = [fifo, good, '/dev/zero', join(dir, 'folder.jsonl'), join(dir, 'missing.jsonl'), good];
      const run = runCliChild([...command, ...files], 20_000);
      assert.notEqual(run.code, null, 'the command finished (a blocking open would time out)');
      assert.equal(run.code, 2, run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
      assert.match(run.stderr, new RegExp(`${fifo}: cannot read: not a regular file \\(a FIFO\\)`));
      assert.match(run.stderr, /\/dev\/zero: cannot read: not a regular file \(a character device\)/);
      // `check` walks a directory for logs (this one holds none); the views refuse it as a file.
      if (command[0] !== 'check') assert.match(run.stderr, /folder\.jsonl: cannot read: a directory/);
      assert.match(run.stderr, /missing\.jsonl: cannot read: ENOENT/);
      const verdicts = (command[0] === 'check' ? run.stderr : run.stdout).split('\n').filter((l) => l.includes(good));
      assert.equal(verdicts.length >= 2, true, `both good files are read:\n${run.stdout}\n${run.stderr}`);
    });
  }

  describe('the bytes of a zstd log', () => {
    it("are released once decoded (never a plain log's, which are its text), and the text goes into the buffer the source makes", () => {
      const lines = richLog().lines;
      const plain = new TextEncoder().encode(lines.map((l) => l + '\n').join(''));
      const zstd = encodeDshZstdLog(lines, { linesPerFrame: 3 });
      const made: number[] = [];
      const load = (bytes: Uint8Array) => {
        let released = 0;
        const loaded = loadSessionFileFrom({
          read: () => bytes,
          release: () => released++,
          allocate: (length) => {
            made.push(length);
            return Buffer.alloc(length);
          },
        });
        return { loaded, released };
      };
      const fromPlain = load(plain);
      assert.equal(fromPlain.released, 0);
      assert.deepEqual(made, []);
      const fromZstd = load(zstd);
      assert.equal(fromZstd.released, 1);
      assert.deepEqual(made, [plain.length]);
      assert.equal(fromZstd.loaded.log.eventCount, fromPlain.loaded.log.eventCount);
      assert.deepEqual(fromZstd.loaded.log.diagnostics, fromPlain.loaded.log.diagnostics);
      // What following the file keeps is a copy, not a view that would keep the whole input alive.
      assert.notEqual(fromZstd.loaded.follow?.pending.buffer, zstd.buffer);
    });

    it("a small file shares Node's Buffer pool: loading it leaves the other pooled buffers alone", () => {
      const small = join(dir, 'small.jsonl.zstd');
      const lines = richLog().lines.slice(0, 4);
      writeFileSync(small, encodeDshZstdLog(lines));
      const neighbour = Buffer.from('still here');
      const { log } = openLog(small);
      assert.equal(log.eventCount, 3);
      assert.equal(neighbour.toString(), 'still here');
      const large = join(dir, 'large.jsonl.zstd');
      const all = richLog();
      writeFileSync(large, encodeDshZstdLog(all.lines, { linesPerFrame: 2 }));
      assert.equal(openLog(large).log.eventCount, loadSession(all.bytes()).eventCount);
      assert.equal(neighbour.toString(), 'still here');
    });
  });
});
