// The fuzz suite: seeded mutations of real dsh logs (../shared/conformance/real, when present) and of
// generated logs (always, open final turns among them), as plain JSONL and in broken zstd containers —
// deep nesting (in the open turn too), built-in member names, huge lines, damaged bytes and tails of a
// million blank lines, control characters, closers that cannot be written, torn and lying frames, frames
// that inflate to many megabytes of newlines. Every CLI command, run as a real child process on the
// built bin/session-surface.js, exits 0, 1 or 2 without a stack trace; run in this process on each case
// it answers within a bound proportional to the file's size (not to what it inflates to) and prints no
// control character; every public API call returns a result or a refusal. Seeded (`FUZZ_SEED` varies
// it): a failure names its seed and mutation, and reproduces. The API with hostile arguments: fuzz-api.test.ts.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  checkInvariants,
  extendLoadedFile,
  inspectLog,
  loadSession,
  loadSessionFile,
  planCompaction,
  planRepair,
  planToolResultPrune,
  provenanceIndex,
  type SessionLog,
} from '../../src/core';
import { runCli } from '../../src/cli/main';
import { richLog } from '../support/build-log';
import { runCliChild } from '../support/child-process';
import { cases, prng, SEED } from '../support/fuzz-cases';

/** Every API read and plan over a loaded log: each must return, never throw. */
function exerciseApi(log: SessionLog, rand: () => number): void {
  void log.verdict;
  void log.diagnostics;
  void log.scan;
  void log.strictSeed;
  inspectLog(log);
  log.deriveMessages();
  log.transcript();
  log.balancedCuts();
  for (let seq = -1; seq <= log.eventCount + log.closers.length; seq++) {
    log.event(seq);
    log.place(seq);
  }
  provenanceIndex(log);
  checkInvariants(log);
  planRepair(log);
  const surface = log.surface();
  if (surface.length > 1) {
    const a = surface[Math.floor(rand() * surface.length)];
    const b = surface[Math.floor(rand() * surface.length)];
    planCompaction(log, { start: Math.min(a, b), end: Math.max(a, b), summary: 'fuzz' } as never);
  }
  planToolResultPrune(log, Math.floor(rand() * Math.max(1, log.eventCount)), [{ type: 'text', text: '[pruned]' }]);
  log.planAppend([
    { type: 'session/title', seq: log.eventCount, time: 0, data: { title: 't', messageSeqs: [], source: { kind: 'fallback' } } },
  ] as never);
}

describe('fuzz', function () {
  this.timeout(120_000);
  const all = cases();

  it(`every public API call returns a result or a refusal (${all.length} mutated logs, seed ${SEED})`, () => {
    for (const c of all) {
      const t0 = Date.now();
      const rand = prng(c.bytes.length);
      try {
        const loaded = loadSessionFile(c.bytes, { fileName: c.name });
        exerciseApi(loaded.log, rand);
        const plain = loadSession(c.bytes);
        exerciseApi(plain, rand);
        // Following: the same bytes arriving in two pieces.
        const cut = Math.floor(rand() * c.bytes.length);
        const followed = loadSessionFile(c.bytes.subarray(0, cut));
        extendLoadedFile(followed, c.bytes.subarray(cut));
        exerciseApi(followed.log, rand);
        if (process.env.FUZZ_TRACE) console.log(`${c.name} ${c.bytes.length} ${Date.now() - t0} ms`);
      } catch (error) {
        assert.fail(`${c.name}: ${(error as Error)?.stack ?? String(error)}`);
      }
    }
  });

  it('appends of arbitrary values are planned or refused, never thrown', () => {
    const log = loadSession(richLog().bytes());
    const before = log.scan.fileBytes;
    fc.assert(
      fc.property(
        fc.array(
          fc.anything({
            withBigInt: true,
            withDate: true,
            withMap: true,
            withSet: true,
            withTypedArray: true,
            withSparseArray: true,
            withNullPrototype: true,
            withObjectString: true,
            withBoxedValues: true,
            maxDepth: 4,
          }),
          { maxLength: 3 },
        ),
        (events) => {
          const problems = log.planAppend(events as never);
          assert.ok(Array.isArray(problems));
          if (problems.length > 0) assert.equal(log.append(events as never).ok, false);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
    assert.equal(log.scan.fileBytes, before, 'nothing arbitrary was appended');
  });

  describe('CLI commands in this process, case by case', () => {
    let dir: string;
    const summary = () => join(dir, 'summary.txt');
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'fuzz-each-'));
      writeFileSync(summary(), 'a summary\n');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    /** A command may take this long on a file, plus the same again per MiB of the file as stored. */
    const BOUND_MS = 3000;
    const COMMANDS = [
      ['check'],
      ['inspect', '--json'],
      ['surface', '--repaired'],
      ['derive'],
      ['provenance'],
      ['repair', '--dry-run', '--json'],
      ['prune', '--dry-run', '--seq', '23'],
      ['compact', '--dry-run', '--start', '1', '--end', '7', '--summary-file', 'SUMMARY'],
    ];
    const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

    it(`each command answers every case within ${BOUND_MS} ms per MiB of the file (at least ${BOUND_MS} ms), exits 0, 1 or 2, and prints no control character`, async () => {
      const failures: string[] = [];
      let slowest = { msPerMiB: 0, what: '' };
      for (const [i, c] of all.entries()) {
        const file = join(dir, `case-${i}.jsonl${c.name.includes('zstd') ? '.zstd' : ''}`);
        writeFileSync(file, c.bytes);
        const mib = c.bytes.length / 2 ** 20;
        for (const command of COMMANDS) {
          const args = [...command.map((a) => (a === 'SUMMARY' ? summary() : a)), file];
          const lines: string[] = [];
          const started = Date.now();
          let code: number | string;
          try {
            code = await runCli(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
          } catch (error) {
            code = `threw ${(error as Error)?.name}: ${(error as Error)?.message}`;
          }
          const ms = Date.now() - started;
          const what = `${c.name}: ${command.join(' ')}`;
          if (ms / Math.max(mib, 1 / 1024) > slowest.msPerMiB && mib > 0.1) slowest = { msPerMiB: Math.round(ms / mib), what };
          if (code !== 0 && code !== 1 && code !== 2) failures.push(`${what}: exit ${code}`);
          if (ms > BOUND_MS * Math.max(1, mib)) failures.push(`${what}: ${ms} ms for ${mib.toFixed(2)} MiB`);
          const unsafe = lines.find((l) => UNSAFE.test(l) || /internal error/.test(l));
          if (unsafe !== undefined) failures.push(`${what}: printed ${JSON.stringify(unsafe.slice(0, 200))}`);
        }
        rmSync(file);
      }
      assert.deepEqual(failures, []);
      if (process.env.FUZZ_REPORT) console.log(`slowest per MiB: ${slowest.msPerMiB} ms (${slowest.what})`);
    });
  });

  describe('CLI commands as child processes', () => {
    let dir: string;
    const files: string[] = [];
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
      all.forEach((c, i) => {
        const path = join(dir, `case-${String(i).padStart(3, '0')}.jsonl${c.name.includes('zstd') ? '.zstd' : ''}`);
        writeFileSync(path, c.bytes);
        files.push(path);
      });
      writeFileSync(join(dir, 'cases.txt'), all.map((c, i) => `${i}: ${c.name}`).join('\n'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    for (const args of [['check'], ['inspect', '--json'], ['surface'], ['derive', '--json'], ['repair'], ['provenance', '--json']]) {
      it(`${args.join(' ')}: exits 0, 1 or 2 with no stack trace, and answers for every file`, () => {
        const run = runCliChild([...args, ...files], 90_000);
        assert.ok(run.code === 0 || run.code === 1 || run.code === 2, `exit ${run.code}: ${run.stderr.slice(-2000)}`);
        assert.doesNotMatch(run.stderr, /\n\s+at |internal error/, run.stderr.slice(0, 2000));
        const said = run.stdout + run.stderr;
        const silent = files.filter((f) => !said.includes(f));
        assert.deepEqual(silent, [], `no answer for: ${silent.map((f) => all[files.indexOf(f)].name).join('; ')}`);
      });
    }
  });
});
