// Faults against every writing operation, on plain and zstd logs: the file system failing at a chosen
// call (short writes, a full disk after k bytes, fsync failing, a backup or journal that cannot be
// written, a cut that fails), another writer striking in the gap right before our write (an append, a
// cut, a rename, a symlink, a removal), the file changed between load and write, dsh's lock held by
// another process, child processes killed at many points of a save and of a torn-tail removal, and a
// real full disk (a 1 MiB tmpfs). After each: the original bytes are a prefix of the file or the tool
// refused, no byte of the other writer is lost, and the file loads (at most with a tail the tool explains).
import { scaleV4LogText } from '../support/log-generator-v4.mjs';
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactionEdit, loadSessionFile, PendingEdits, planTornTailRemoval, pruneEdit, type SessionLog } from '../../src/core';
import { encodeDshZstdLog, encodeZstdFrame } from '../../src/core/zstd';
import { saveEdits, type SaveOptions } from '../../src/files/append-save';
import { loadForEdit } from '../../src/files/load-for-edit';
import { completeInterruptedRemoval, removeTornTailFromFile } from '../../src/files/torn-tail-file';
import { journalPathFor } from '../../src/files/torn-tail-journal';
import { WriteRefused } from '../../src/files/write-refusal';
import { LogBuilder } from '../support/build-log';
import { faultyFiles, type Faults } from '../support/faulty-files';
import { hasTool, runCliAsync } from '../support/cli-child';
import { zstdWithTornFrame } from '../support/crash-tails';

const CHILD = 'SESSION_SURFACE_FAULT_CHILD';
const T = 1_786_000_999_000;
const enc = new TextEncoder();
const bytesOf = (path: string) => new Uint8Array(readFileSync(path));
const startsWith = (file: Uint8Array, prefix: Uint8Array) =>
  file.length >= prefix.length && Buffer.from(file.subarray(0, prefix.length)).equals(Buffer.from(prefix));
const contains = (file: Uint8Array, part: Uint8Array) => Buffer.from(file).includes(Buffer.from(part));

function threeTurns(): LogBuilder {
  const b = new LogBuilder();
  b.chatTurn('one');
  b.toolTurn('two', ['a', 'b']);
  b.chatTurn('three');
  return b;
}

/** The agent's next turn, as bytes that continue the log's seqs. */
function agentTurn(): Uint8Array {
  const b = threeTurns();
  const before = b.lines.length;
  b.chatTurn('four, from the agent');
  return enc.encode(
    b.lines
      .slice(before)
      .map((l) => `${l}\n`)
      .join(''),
  );
}

function write(path: string, kind: 'plain' | 'zstd', b = threeTurns()): Uint8Array {
  const bytes = kind === 'plain' ? b.bytes() : encodeDshZstdLog(b.lines, { encoder: 'raw', linesPerFrame: 7 });
  writeFileSync(path, bytes);
  return bytes;
}

/** A compaction of the first surface nodes (after the protected system head of a v3+ log). */
function compactFirst(log: SessionLog, edits: PendingEdits): void {
  const nodes = log.surface();
  const first = log.protectedHead() === undefined ? 0 : 1;
  edits.push(
    compactionEdit(log, { start: nodes[first], end: nodes[first + 2], summaryText: 'hello', compactionId: 'c', messageId: 'm', time: T }),
  );
}

async function saveCompaction(path: string, options: SaveOptions) {
  const target = await loadForEdit(path);
  const edits = new PendingEdits(target.loaded.log.eventCount);
  compactFirst(target.loaded.log, edits);
  return { outcome: await saveEdits(path, target, edits, { allowLive: () => true, ...options }), target, edits };
}

/** What must hold after any fault: the file loads (a torn or damaged tail at most) and keeps `original` as a prefix. */
function assertSafe(path: string, original: Uint8Array, foreign?: Uint8Array): void {
  const file = bytesOf(path);
  assert.ok(startsWith(file, original), 'the original bytes are a prefix of the file');
  if (foreign) assert.ok(contains(file, foreign), "no byte of the other writer's is lost");
  const log = loadSessionFile(file).log;
  assert.ok(log.verdict.ok, `the file loads: ${JSON.stringify(log.verdict)}`);
}

/** The child: a slow save or a slow torn-tail removal, for the parent to kill part way. */
async function child(job: string): Promise<void> {
  const [what, path] = job.split('|');
  const slow = faultyFiles({ bytesPerWrite: 1, pauseMs: 1 });
  process.stdout.write('ready\n');
  if (what === 'save') await saveCompaction(path, { files: slow });
  else {
    const bytes = bytesOf(path);
    const loaded = loadSessionFile(bytes);
    const plan = planTornTailRemoval(loaded.log, bytes, loaded.zstd);
    if (!plan.ok) throw new Error('no plan');
    await removeTornTailFromFile(path, bytes, plan, {
      files: faultyFiles({ bytesPerWrite: 64, pauseMs: 1 }),
      loadedMtimeMs: 0,
      allowLive: () => true,
    });
  }
}

if (process.env[CHILD]) {
  void child(process.env[CHILD]!).then(
    () => process.exit(0),
    (e) => {
      process.stderr.write(String(e));
      process.exit(3);
    },
  );
} else {
  describe('fault injection', function () {
    this.timeout(120_000);
    let dir: string;
    let n = 0;
    const fresh = (name = 'session.jsonl') => {
      const sub = join(dir, String(n++));
      mkdirSync(sub);
      return join(sub, name);
    };
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'sss-fault-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    for (const kind of ['plain', 'zstd'] as const) {
      const name = kind === 'plain' ? 'session.jsonl' : 'session.jsonl.zstd';
      describe(`${kind}: another writer strikes in the gap right before our write`, () => {
        // The agent's next batch as it would write it: lines, or one frame of them.
        const batch = () => (kind === 'plain' ? agentTurn() : encodeZstdFrame(agentTurn(), { encoder: 'raw' }));
        const strikes: [string, (path: string) => Uint8Array | undefined, RegExp][] = [
          [
            'an append',
            (path) => {
              const bytes = batch();
              appendFileSync(path, bytes);
              return bytes;
            },
            /another writer appended \d+ bytes .* landed at byte \d+, after theirs/,
          ],
          [
            'a cut',
            (path) => (truncateSync(path, readFileSync(path).length - 5), undefined),
            /was cut to \d+ bytes between the last check and our write/,
          ],
          [
            'a rename',
            (path) => (renameSync(path, `${path}.moved`), writeFileSync(path, 'new'), undefined),
            /replaced by another file while our \d+ bytes were written/,
          ],
          [
            'a symlink',
            (path) => (
              renameSync(path, `${path}.moved`),
              symlinkSync(`${path}.moved`, `${path}.link`),
              renameSync(`${path}.link`, path),
              undefined
            ),
            /./,
          ],
          ['a removal', (path) => (rmSync(path), undefined), /deleted or moved while our \d+ bytes were written/],
        ];
        for (const [what, strike, message] of strikes) {
          it(`${what}: never reported as saved, every byte accounted for`, async () => {
            const path = fresh(name);
            const original = write(path, kind);
            let foreign: Uint8Array | undefined;
            const files = faultyFiles({ beforeWrite: (call) => void (call === 0 && (foreign = strike(path))) });
            const { outcome } = await saveCompaction(path, { files });
            if (what === 'a symlink') {
              // The path names the same file through a link: the write is where the path leads.
              assert.ok(outcome.ok, JSON.stringify(outcome));
              return;
            }
            assert.ok(!outcome.ok, 'reported as saved');
            assert.match(outcome.message, message);
            if (what === 'an append') assertSafe(path, original, foreign);
            else if (what === 'a cut') assert.ok(startsWith(bytesOf(path), original.subarray(0, original.length - 5)));
            else if (existsSync(`${path}.moved`))
              assert.ok(startsWith(bytesOf(`${path}.moved`), original), 'the moved file keeps the original bytes');
          });
        }
      });

      describe(`${kind}: the file system fails`, () => {
        for (const k of [0, 1, 17, 200, 700]) {
          it(`a full disk after ${k} bytes: the original plus a torn tail, the next save explains it`, async () => {
            const path = fresh(name);
            const original = write(path, kind);
            const { outcome, target, edits } = await saveCompaction(path, {
              files: faultyFiles({ fullAfter: { bytes: k, code: 'ENOSPC' } }),
            });
            if (outcome.ok) return assertSafe(path, original); // the whole frame was smaller than k
            assert.match(outcome.message, /ENOSPC \(no space left on the device\)/);
            assertSafe(path, original);
            // Our partial bytes are ours: the next save does not blame another writer for them.
            let asked = false;
            const again = await saveEdits(path, target, edits, { allowLive: () => true, confirmReplan: () => ((asked = true), false) });
            assert.equal(asked, false);
            if (k > 0) assert.ok(!again.ok);
          });
        }
        it('short writes of 7 bytes: every byte lands, in order', async () => {
          const path = fresh(name);
          const original = write(path, kind);
          const { outcome } = await saveCompaction(path, { files: faultyFiles({ bytesPerWrite: 7 }) });
          assert.ok(outcome.ok, JSON.stringify(outcome));
          assertSafe(path, original);
          assert.equal(loadSessionFile(bytesOf(path)).log.eventCount, loadSessionFile(original).log.eventCount + 4);
        });
        it('a short write, then another writer appends: stopped and said so, their bytes kept', async () => {
          const path = fresh(name);
          const original = write(path, kind);
          const foreign = enc.encode('x');
          const files = faultyFiles({ bytesPerWrite: 30, beforeWrite: (call) => void (call === 1 && appendFileSync(path, foreign)) });
          const { outcome } = await saveCompaction(path, { files });
          assert.ok(!outcome.ok);
          assert.match(
            outcome.message,
            /another writer appended 1 bytes between the parts, so the rest of ours was not written: after byte \d+ the file holds \d+ bytes of ours \(a torn line\) and theirs, interleaved/,
          );
          assert.doesNotMatch(outcome.message, /are in the file/);
          assert.ok(startsWith(bytesOf(path), original) && contains(bytesOf(path).subarray(original.length), foreign));
        });
        it('fsync fails after every byte was written: saved, with the warning; the next save blames nobody', async () => {
          const path = fresh(name);
          const original = write(path, kind);
          const { outcome, target, edits } = await saveCompaction(path, { files: faultyFiles({ syncFails: 'EIO' }) });
          assert.ok(outcome.ok, JSON.stringify(outcome));
          assert.match(outcome.syncError!, /EIO/);
          assert.equal(edits.count, 0);
          assertSafe(path, original);
          const log = target.loaded.log;
          const result = log.surface().find((seq) => log.eventType(seq) === 'tool/result')!;
          edits.push(pruneEdit(log, { seq: result, time: T }));
          let asked = false;
          const next = await saveEdits(path, target, edits, { allowLive: () => true, confirmReplan: () => ((asked = true), true) });
          assert.equal(asked, false, 'the next save blamed another writer for our own lines');
          assert.ok(next.ok, JSON.stringify(next));
        });
      });

      describe(`${kind}: the file changed between load and write`, () => {
        const changes: [string, (path: string) => void, RegExp][] = [
          ['truncated', (path) => truncateSync(path, 100), /fewer than the \d+ bytes already read|shrank/],
          ['renamed', (path) => renameSync(path, `${path}.gone`), /ENOENT/],
          [
            'replaced by a symlink to another log',
            (path) => {
              writeFileSync(`${path}.other`, bytesOf(path));
              rmSync(path);
              symlinkSync(`${path}.other`, path);
            },
            /now names another file/,
          ],
          ['deleted', (path) => rmSync(path), /ENOENT/],
        ];
        for (const [what, change, message] of changes) {
          it(`${what}: refused, nothing written`, async () => {
            const path = fresh(name);
            write(path, kind);
            const target = await loadForEdit(path);
            const edits = new PendingEdits(target.loaded.log.eventCount);
            compactFirst(target.loaded.log, edits);
            change(path);
            const before = existsSync(path) ? bytesOf(path) : undefined;
            const outcome = await saveEdits(path, target, edits, { allowLive: () => true });
            assert.ok(!outcome.ok);
            assert.match(outcome.message, message);
            if (before) assert.deepEqual(bytesOf(path), before);
          });
        }
      });
    }

    describe("dsh's lock held by another process", () => {
      function holdLock(lock: string): Promise<ChildProcess> {
        writeFileSync(lock, '');
        const holder = spawn('flock', ['--exclusive', lock, 'sleep', '30'], { stdio: 'ignore' });
        return new Promise((resolve) => setTimeout(() => resolve(holder), 300));
      }
      it('a save, a crash repair, a removal: refused at once in the CLI, nothing written', async function () {
        if (!hasTool('flock')) this.skip();
        const path = fresh();
        const b = threeTurns();
        b.turnStart();
        b.user('open');
        const original = b.bytes({ tornTail: '{"ty' });
        writeFileSync(path, original);
        const past = new Date(Date.now() - 600_000);
        utimesSync(path, past, past);
        const holder = await holdLock(join(path, '..', 'session.lock'));
        try {
          for (const args of [
            ['repair', '--remove-torn-tail', path],
            ['repair', '--close-compaction', path],
          ]) {
            const r = await runCliAsync(args);
            assert.equal(r.code, 1, r.stdout + r.stderr);
            assert.match(
              r.stdout + r.stderr,
              /dsh holds the lock on .*session\.lock: the session of session\.jsonl is open for writing in a running dsh/,
            );
          }
          assert.deepEqual(bytesOf(path), original);
        } finally {
          holder.kill();
        }
      });
      it('the editor waits for it, then writes once dsh lets go', async function () {
        if (!hasTool('flock')) this.skip();
        // A generation dsh >= 0.1.3 writes, so its lock applies: a small v4 session, compacted after its system head.
        const path = fresh('session.v4.jsonl');
        const original = enc.encode(scaleV4LogText({ params: { targetEvents: 120 } }).text);
        writeFileSync(path, original);
        const holder = await holdLock(join(path, '..', 'session.lock'));
        let tries = 0;
        const { outcome } = await saveCompaction(path, {
          allowLive: () => false, // dsh's lock covers the write: the liveness guard does not apply
          waitForLock: async (retry) => {
            for (;;) {
              if (++tries === 2) holder.kill();
              if (await retry()) return true;
              await new Promise((resolve) => setTimeout(resolve, 200));
            }
          },
        });
        assert.ok(outcome.ok, JSON.stringify(outcome));
        assert.ok(tries >= 2);
        assertSafe(path, original);
      });
      it('a log that is not the current generation is refused', async () => {
        const path = fresh();
        const original = write(path, 'plain');
        writeFileSync(join(path, '..', 'session.v2.jsonl'), '');
        const { outcome } = await saveCompaction(path, {});
        assert.ok(!outcome.ok);
        assert.match(outcome.message, /session\.jsonl is generation 0 of its session, but its folder also holds session\.v2\.jsonl/);
        assert.deepEqual(bytesOf(path), original);
      });
    });

    describe('torn-tail removal under faults', () => {
      function tornZstd(path: string): Uint8Array {
        const b = threeTurns();
        const m = b.lines.length;
        const { bytes } = zstdWithTornFrame(b.lines.slice(0, m - 6), b.lines.slice(m - 6, m - 1), b.lines[m - 1]);
        writeFileSync(path, bytes);
        return bytes;
      }
      const remove = (path: string, bytes: Uint8Array, faults: Faults) => {
        const loaded = loadSessionFile(bytes);
        const plan = planTornTailRemoval(loaded.log, bytes, loaded.zstd);
        assert.ok(plan.ok);
        return removeTornTailFromFile(path, bytes, plan, { files: faultyFiles(faults), loadedMtimeMs: 0, allowLive: () => true });
      };
      for (const [what, faults, message] of [
        [
          'the backup cannot be created',
          { sideFileFails: { at: 'create', code: 'EACCES' } },
          /cannot create the backup .*\.partial: EACCES \(permission denied\); the log was not changed/,
        ],
        [
          'the disk fills while the backup is written',
          { sideFileFails: { at: 'write', code: 'ENOSPC' } },
          /cannot write the backup .*: ENOSPC/,
        ],
        ['the journal cannot be renamed', { sideFileFails: { at: 'rename', code: 'EIO' } }, /cannot rename the checked backup to .*: EIO/],
        ['the cut fails', { truncateFails: 'EPERM' }, /EPERM .*; the original is in the backup/],
      ] as const) {
        it(`${what}: refused, named, the log whole; no partial file left`, async () => {
          const path = fresh('session.jsonl.zstd');
          const original = tornZstd(path);
          await assert.rejects(remove(path, original, faults), (e: Error) => e instanceof WriteRefused && message.test(e.message));
          assert.deepEqual(bytesOf(path), original);
          assert.deepEqual(
            readdirSync(join(path, '..')).filter((f) => f.endsWith('.partial')),
            [],
          );
        });
      }
      it('the disk fills while the kept lines go back: the journal has them, the next run completes it', async () => {
        const path = fresh('session.jsonl.zstd');
        const original = tornZstd(path);
        const events = loadSessionFile(original).log.eventCount;
        await assert.rejects(
          remove(path, original, { fullAfter: { bytes: 10, code: 'ENOSPC' } }),
          /appending the kept lines again failed.*run the removal again/,
        );
        assert.ok(existsSync(journalPathFor(path)));
        const done = await completeInterruptedRemoval(path, {});
        assert.ok(done);
        assert.ok(!existsSync(journalPathFor(path)));
        const log = loadSessionFile(bytesOf(path));
        assert.equal(log.log.eventCount, events);
        assert.equal(log.zstd?.tornFrameStart, undefined);
      });
    });

    describe('killed at many points', function () {
      this.timeout(180_000);
      async function killAt(job: string, path: string, ms: number): Promise<void> {
        const proc = spawn(process.execPath, [__filename], {
          env: { ...process.env, [CHILD]: `${job}|${path}` },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        await new Promise<void>((resolve) => proc.stdout!.once('data', () => resolve()));
        await new Promise((resolve) => setTimeout(resolve, ms));
        const exited = new Promise((resolve) => proc.once('exit', resolve));
        proc.kill('SIGKILL');
        await exited;
      }
      for (const kind of ['plain'] as const) {
        it(`${kind}: a save killed at 8 points leaves the original plus a torn tail`, async () => {
          for (const ms of [5, 20, 60, 150, 300, 500, 800, 1200]) {
            const path = fresh(kind === 'plain' ? 'session.jsonl' : 'session.jsonl.zstd');
            const original = write(path, kind);
            await killAt('save', path, ms);
            assertSafe(path, original);
          }
        });
      }
    });

    describe('a real full disk (1 MiB tmpfs)', () => {
      let mount: string | undefined;
      before(function () {
        const point = mkdtempSync(join(tmpdir(), 'sss-tiny-'));
        const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', point]);
        if (r.status !== 0) {
          rmSync(point, { recursive: true, force: true });
          if (process.env.CI === 'true' && process.getuid?.() === 0) throw new Error(`cannot mount a tmpfs: ${r.stderr}`);
          this.skip();
        }
        mount = point;
      });
      after(() => {
        if (mount) {
          spawnSync('umount', [mount]);
          rmSync(mount, { recursive: true, force: true });
        }
      });
      it('compact on a log that fills the disk: refused with ENOSPC, original a prefix; a removal whose backup does not fit: refused', async () => {
        const path = join(mount!, 'session.jsonl');
        const b = threeTurns();
        const original = b.bytes();
        writeFileSync(path, original);
        const torn = join(mount!, 'torn', 'session.jsonl');
        mkdirSync(join(mount!, 'torn'));
        const tornBytes = b.bytes({ tornTail: '{"ty' });
        writeFileSync(torn, tornBytes);
        // Fill the disk to a few bytes short of the end.
        const filler = join(mount!, 'filler');
        try {
          for (;;) appendFileSync(filler, new Uint8Array(512));
        } catch {
          // ENOSPC: the disk is full
        }
        const past = new Date(Date.now() - 600_000);
        utimesSync(path, past, past);
        const summary = join(dir, 'summary.txt');
        // Larger than the slack of the log's last page, so the append needs space the disk no longer has.
        writeFileSync(summary, 'They said hello. '.repeat(2000));
        const nodes = loadSessionFile(original).log.surface();
        const r = await runCliAsync(['compact', path, '--start', String(nodes[0]), '--end', String(nodes[2]), '--summary-file', summary]);
        assert.ok(r.code === 1, `exit ${r.code}: ${r.stderr}`);
        assert.match(r.stderr, /ENOSPC \(no space left on the device\)/);
        assertSafe(path, original);
        utimesSync(torn, past, past);
        const removal = await runCliAsync(['repair', '--remove-torn-tail', torn]);
        assert.equal(removal.code, 1, removal.stdout + removal.stderr);
        assert.match(removal.stdout, /cannot write the backup .*: ENOSPC \(no space left on the device\); the log was not changed/);
        assert.deepEqual(bytesOf(torn), tornBytes);
        assert.deepEqual(
          readdirSync(join(mount!, 'torn')).filter((f) => f.endsWith('.partial')),
          [],
        );
      });
    });
  });
}
