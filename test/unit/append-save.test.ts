// The safe save path on real files in a temporary folder: a save appends exactly the planned bytes (plain:
// the lines; zstd: one frame), folds them into the loaded log, and refuses — writing nothing — when the
// file is no longer what was loaded or the plan no longer holds. A writer that appended meanwhile is
// folded in and the edits planned again, written only when confirmed. A write stopped half way (a full
// disk, a killed process) leaves the original bytes plus a torn tail.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendBytes,
  compactionEdit,
  extendLoadedFile,
  loadSession,
  loadSessionFile,
  PendingEdits,
  pruneEdit,
  type SessionLog,
} from '../../src/core';
import { encodeDshZstdLog, encodeZstdFrame, concatBytes, decodeZstdLog } from '../../src/core/zstd';
import { saveEdits as saveWithGuards, type EditableLog, type SaveOptions } from '../../src/files/append-save';
import { faultyFiles } from '../support/faulty-files';
import { loadForEdit } from '../../src/files/load-for-edit';
import { classifyChange, extendIdentity } from '../../src/files/file-identity';
import { LogBuilder } from '../support/build-log';

const T = 1_786_000_999_000;
const CHILD_ENV = 'SESSION_SURFACE_TEST_SAVE_CHILD';

function threeTurns(): LogBuilder {
  const b = new LogBuilder();
  b.chatTurn('one');
  b.toolTurn('two', ['a', 'b']);
  b.chatTurn('three');
  return b;
}

function compactFirstTurn(log: SessionLog, edits: PendingEdits, n = 1): void {
  const nodes = log.surface();
  edits.push(
    compactionEdit(log, {
      start: nodes[0],
      end: nodes[2],
      summaryText: `They said hello (${n}).`,
      compactionId: `cmp-${n}`,
      messageId: `chk-${n}`,
      time: T,
    }),
  );
}

/**
 * The save under test. The files here were written a moment ago, which the liveness guard takes for a
 * live agent (tested in write-guards.test.ts): these tests agree to write anyway.
 */
const saveEdits = (path: string, target: EditableLog, edits: PendingEdits, options: SaveOptions = {}) =>
  saveWithGuards(path, target, edits, { allowLive: () => true, ...options });

/** The child: loads the log, plans a compaction and saves it slowly (until the parent kills it). */
async function childSave(path: string): Promise<void> {
  const target = await loadForEdit(path);
  const edits = new PendingEdits(target.loaded.log.eventCount);
  compactFirstTurn(target.loaded.log, edits);
  process.stdout.write('planned\n');
  // A slow writer, a byte at a time, so the parent can kill it mid-write.
  await saveEdits(path, target, edits, { files: faultyFiles({ bytesPerWrite: 1, pauseMs: 5 }) });
}

if (process.env[CHILD_ENV]) {
  void childSave(process.env[CHILD_ENV]!).then(
    () => process.exit(0),
    (e) => {
      process.stderr.write(String(e));
      process.exit(3);
    },
  );
} else {
  describe('saving edits by appending', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'sss-save-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    function plainCopy(b = threeTurns()): { path: string; original: Uint8Array } {
      const path = join(dir, 'session.jsonl');
      const original = b.bytes();
      writeFileSync(path, original);
      return { path, original };
    }

    function zstdCopy(b = threeTurns()): { path: string; original: Uint8Array } {
      const path = join(dir, 'session.jsonl.zstd');
      const original = encodeDshZstdLog(
        b
          .text()
          .split('\n')
          .filter((l) => l !== ''),
        { encoder: 'raw', linesPerFrame: 7 },
      );
      writeFileSync(path, original);
      return { path, original };
    }

    /** The lines the edits would append to the log as it is now (planned on a separate copy). */
    function expectedLines(path: string, build: (log: SessionLog, edits: PendingEdits) => void): string[] {
      const log = loadSessionFile(new Uint8Array(readFileSync(path))).log;
      const edits = new PendingEdits(log.eventCount);
      build(log, edits);
      const plan = edits.plan({ log, fork: () => loadSessionFile(new Uint8Array(readFileSync(path))).log });
      assert.ok(plan.ok);
      return plan.lines;
    }

    const bytesOf = (path: string) => new Uint8Array(readFileSync(path));

    async function editable(path: string): Promise<{ target: EditableLog; edits: PendingEdits }> {
      const target = await loadForEdit(path);
      return { target, edits: new PendingEdits(target.loaded.log.eventCount) };
    }

    async function assertIdentityMatches(path: string, target: EditableLog): Promise<void> {
      const file = bytesOf(path);
      const stat = statSync(path);
      const change = await classifyChange(target.identity, {
        stat: { size: stat.size, mtimeMs: stat.mtimeMs },
        read: async (a, b) => file.subarray(a, b),
      });
      assert.deepEqual(change, { kind: 'unchanged' });
    }

    it('plain: the file becomes the original bytes plus the planned lines, and the loaded log follows', async () => {
      const { path, original } = plainCopy();
      const lines = expectedLines(path, (log, e) => compactFirstTurn(log, e));
      const { target, edits } = await editable(path);
      compactFirstTurn(target.loaded.log, edits);
      const before = target.loaded.log.eventCount;
      const outcome = await saveEdits(path, target, edits);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.deepEqual(outcome.lines, lines);
      assert.deepEqual(bytesOf(path), concatBytes([original, appendBytes(lines)]));
      assert.equal(target.loaded.log.eventCount, before + 4);
      assert.equal(edits.count, 0);
      assert.equal(edits.base, before + 4);
      await assertIdentityMatches(path, target);
      const reread = loadSession(bytesOf(path));
      assert.deepEqual(reread.verdict, { ok: true, stage: 'done' });
      assert.deepEqual(reread.surface(), target.loaded.log.surface());
    });

    it('zstd: one new frame holding the lines, as dsh writes a batch', async () => {
      const { path, original } = zstdCopy();
      const lines = expectedLines(path, (log, e) => compactFirstTurn(log, e));
      const { target, edits } = await editable(path);
      compactFirstTurn(target.loaded.log, edits);
      const outcome = await saveEdits(path, target, edits);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      const file = bytesOf(path);
      assert.deepEqual(file.subarray(0, original.length), original);
      const frame = file.subarray(original.length);
      assert.equal(outcome.bytesWritten, frame.length);
      const decoded = decodeZstdLog(frame, { expectHeaderFrame: false });
      assert.equal(decoded.frames, 1);
      assert.equal(new TextDecoder().decode(decoded.text), lines.map((l) => `${l}\n`).join(''));
      const reread = loadSessionFile(file);
      assert.deepEqual(reread.log.verdict, { ok: true, stage: 'done' });
      assert.equal(reread.log.eventCount, target.loaded.log.eventCount);
      await assertIdentityMatches(path, target);
    });

    it('two edits that build on each other: a prune, then a compaction over its rewrite', async () => {
      const { path, original } = plainCopy();
      const { target, edits } = await editable(path);
      const log = target.loaded.log;
      const nodes = [...log.surface()]; // nodes[3] calls a and b, nodes[4] answers a, nodes[5] answers b
      edits.push(pruneEdit(log, { seq: nodes[4], time: T }));
      const rewrite = log.eventCount + 1;
      edits.push(
        compactionEdit(log, { start: nodes[3], end: nodes[5], summaryText: 'called a and b', compactionId: 'c', messageId: 'm', time: T }),
      );
      const outcome = await saveEdits(path, target, edits);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(outcome.lines.length, 6);
      assert.deepEqual(JSON.parse(outcome.lines[3]).data.shadowedSeqs, [nodes[3], rewrite, nodes[5]]);
      assert.deepEqual(bytesOf(path).subarray(0, original.length), original);
      assert.deepEqual(loadSession(bytesOf(path)).verdict, { ok: true, stage: 'done' });
    });

    it('nothing pending: nothing written', async () => {
      const { path, original } = plainCopy();
      const { target, edits } = await editable(path);
      const outcome = await saveEdits(path, target, edits);
      assert.deepEqual(outcome, { ok: true, lines: [], firstSeq: target.loaded.log.eventCount, bytesWritten: 0 });
      assert.deepEqual(bytesOf(path), original);
    });

    describe('a writer appended between load and save', () => {
      /** The agent's next turn (10 events), written by the same builder so its seqs continue the log. */
      function agentTurn(): string {
        const b = threeTurns();
        const before = b.lines.length;
        const seqBefore = b.nextSeq;
        b.chatTurn('four, from the agent');
        assert.equal(b.nextSeq - seqBefore, 10);
        return b.lines
          .slice(before)
          .map((l) => `${l}\n`)
          .join('');
      }

      it('without a confirmation: refused, the foreign bytes folded in, nothing of ours written', async () => {
        const { path, original } = plainCopy();
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        const foreign = agentTurn();
        appendFileSync(path, foreign);
        const outcome = await saveEdits(path, target, edits);
        assert.equal(outcome.ok, false);
        assert.ok(!outcome.ok);
        assert.equal(outcome.stage, 'declined');
        assert.match(
          outcome.message,
          /grew by \d+ bytes \(10 events\) since the edits were made; they were planned again as seqs \d+–\d+, but writing them was not confirmed; nothing was written/,
        );
        assert.deepEqual(bytesOf(path), concatBytes([original, new TextEncoder().encode(foreign)]));
        // The foreign events are now part of the loaded log, and the edit still pending (rebased).
        assert.equal(edits.count, 1);
        assert.equal(edits.base, target.loaded.log.eventCount);
        await assertIdentityMatches(path, target);
      });

      it('confirmed: the edits are planned on the new tail (new seqs) and appended after it', async () => {
        const { path, original } = plainCopy();
        const { target, edits } = await editable(path);
        const loadedCount = target.loaded.log.eventCount;
        compactFirstTurn(target.loaded.log, edits);
        const foreign = new TextEncoder().encode(agentTurn());
        appendFileSync(path, foreign);
        let asked: unknown;
        const outcome = await saveEdits(path, target, edits, {
          confirmReplan: (info) => {
            asked = info;
            return true;
          },
        });
        assert.ok(outcome.ok, JSON.stringify(outcome));
        assert.equal(outcome.firstSeq, loadedCount + 10);
        // The agent wrote moments ago and no dsh lock covers a generation-0 log: the question says so.
        const { msSinceChange, ...rest } = asked as { msSinceChange?: number };
        assert.equal(typeof msSinceChange, 'number');
        assert.deepEqual(rest, { foreignBytes: foreign.length, foreignEvents: 10, lines: outcome.lines, firstSeq: loadedCount + 10 });
        assert.deepEqual(outcome.replanned, asked);
        assert.deepEqual(bytesOf(path), concatBytes([original, foreign, appendBytes(outcome.lines)]));
        const reread = loadSession(bytesOf(path));
        assert.deepEqual(reread.verdict, { ok: true, stage: 'done' });
        assert.equal(reread.eventCount, loadedCount + 10 + 4);
      });

      it('events folded in after the edits were made (an editor follows the file) are asked about too', async () => {
        const { path, original } = plainCopy();
        const { target, edits } = await editable(path);
        const loadedCount = target.loaded.log.eventCount;
        compactFirstTurn(target.loaded.log, edits);
        const foreign = new TextEncoder().encode(agentTurn());
        appendFileSync(path, foreign);
        // What the editor's follower does before the user saves: the file matches the loaded log again.
        extendLoadedFile(target.loaded, foreign);
        target.identity = extendIdentity(target.identity, foreign, statSync(path).mtimeMs);
        const folded = { events: 10, bytes: foreign.length };
        const declined = await saveEdits(path, target, edits, { foldedSinceReview: folded });
        assert.ok(!declined.ok);
        assert.equal(declined.stage, 'declined');
        assert.deepEqual(bytesOf(path), concatBytes([original, foreign]), 'nothing written without a yes');
        let asked: unknown;
        const outcome = await saveEdits(path, target, edits, {
          foldedSinceReview: folded,
          confirmReplan: (info) => {
            asked = info;
            return true;
          },
        });
        assert.ok(outcome.ok, JSON.stringify(outcome));
        // The agent wrote moments ago and no dsh lock covers a generation-0 log: the question says so.
        const { msSinceChange, ...rest } = asked as { msSinceChange?: number };
        assert.equal(typeof msSinceChange, 'number');
        assert.deepEqual(rest, { foreignBytes: foreign.length, foreignEvents: 10, lines: outcome.lines, firstSeq: loadedCount + 10 });
        assert.deepEqual(bytesOf(path), concatBytes([original, foreign, appendBytes(outcome.lines)]));
      });

      it('zstd: the foreign frame is folded in and ours follows it', async () => {
        const { path, original } = zstdCopy();
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        const foreign = encodeZstdFrame(new TextEncoder().encode(agentTurn()), { encoder: 'raw' });
        appendFileSync(path, foreign);
        const outcome = await saveEdits(path, target, edits, { confirmReplan: () => true });
        assert.ok(outcome.ok, JSON.stringify(outcome));
        const file = bytesOf(path);
        assert.deepEqual(file.subarray(0, original.length + foreign.length), concatBytes([original, foreign]));
        assert.deepEqual(loadSessionFile(file).log.verdict, { ok: true, stage: 'done' });
        await assertIdentityMatches(path, target);
      });

      it('refuses, with the planner’s reasons, when the append makes the edit impossible', async () => {
        const b = threeTurns();
        const { path } = plainCopy(b);
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        const before = b.lines.length;
        b.turnStart();
        b.user('the agent started a turn');
        appendFileSync(
          path,
          b.lines
            .slice(before)
            .map((l) => `${l}\n`)
            .join(''),
        );
        const size = statSync(path).size;
        const outcome = await saveEdits(path, target, edits, { confirmReplan: () => true });
        assert.ok(!outcome.ok);
        assert.equal(outcome.stage, 'plan');
        assert.match(outcome.message, /after 2 event\(s\) appended by another writer, the edit no longer holds; nothing was written/);
        assert.ok(outcome.reasons.some((r) => r.rule === 'compaction.turn-open'));
        assert.equal(statSync(path).size, size);
      });
    });

    describe('refuses without writing', () => {
      it('a file that was rewritten, truncated or deleted', async () => {
        const { path, original } = plainCopy();
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        const changed = original.slice();
        changed[20] ^= 1;
        writeFileSync(path, changed);
        let outcome = await saveEdits(path, target, edits);
        assert.ok(!outcome.ok);
        assert.equal(outcome.stage, 'file');
        assert.match(outcome.message, /is not what was loaded: Bytes already read have changed/);
        assert.deepEqual(bytesOf(path), changed);

        writeFileSync(path, original);
        truncateSync(path, original.length - 10);
        outcome = await saveEdits(path, target, edits);
        assert.ok(!outcome.ok);
        assert.match(outcome.message, /fewer than the \d+ bytes already read/);
        assert.equal(statSync(path).size, original.length - 10);

        rmSync(path);
        outcome = await saveEdits(path, target, edits);
        assert.ok(!outcome.ok);
        assert.match(outcome.message, /cannot open for appending .*session\.jsonl: ENOENT \(no such file or folder\); nothing was written/);
        assert.throws(() => statSync(path), /ENOENT/);
        assert.equal(edits.count, 1);
      });

      it('a plan that does not hold: every reason, file untouched', async () => {
        const { path, original } = plainCopy();
        const { target, edits } = await editable(path);
        const nodes = target.loaded.log.surface();
        edits.push(
          compactionEdit(target.loaded.log, {
            start: nodes[0],
            end: nodes[4],
            summaryText: 's',
            compactionId: 'c',
            messageId: 'm',
            time: T,
          }),
        );
        const outcome = await saveEdits(path, target, edits);
        assert.ok(!outcome.ok);
        assert.equal(outcome.stage, 'plan');
        assert.ok(
          outcome.reasons.some((r) =>
            /tool call "b" of assistant\/message seq \d+ is unanswered there; its tool\/result is seq \d+, after the cut/.test(r.message),
          ),
        );
        assert.deepEqual(bytesOf(path), original);
      });

      it('a zstd log that ends in an incomplete frame', async () => {
        const { path, original } = zstdCopy();
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        // A writer is half way through its next frame.
        const next = encodeZstdFrame(new TextEncoder().encode('{"type":"turn/start","seq":99}\n'), { encoder: 'raw' });
        appendFileSync(path, next.subarray(0, 6));
        const outcome = await saveEdits(path, target, edits, { confirmReplan: () => true });
        assert.ok(!outcome.ok);
        assert.match(outcome.message, /ends in an incomplete zstd frame \(6 bytes\)/);
        assert.deepEqual(bytesOf(path), concatBytes([original, next.subarray(0, 6)]));
      });

      it('a file that cannot be opened for appending', async function () {
        if (process.getuid?.() === 0) this.skip(); // root may write a read-only file
        const { path, original } = plainCopy();
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        const { chmodSync } = await import('node:fs');
        chmodSync(path, 0o444);
        const outcome = await saveEdits(path, target, edits);
        assert.ok(!outcome.ok);
        assert.match(outcome.message, /cannot be opened for appending \(EACCES: permission denied\); nothing was written/);
        assert.deepEqual(bytesOf(path), original);
      });
    });

    describe('a write that stops half way', () => {
      /** Takes `limit` bytes, then fails as a full disk does. */
      const fullDiskAfter = (limit: number) => faultyFiles({ fullAfter: { bytes: limit, code: 'ENOSPC' } });

      it('plain, ENOSPC inside the first line: the original plus a torn tail, which the core reads as such', async () => {
        const { path, original } = plainCopy();
        const lines = expectedLines(path, (log, e) => compactFirstTurn(log, e));
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        const outcome = await saveEdits(path, target, edits, { files: fullDiskAfter(60) });
        assert.ok(!outcome.ok);
        assert.equal(outcome.stage, 'write');
        assert.equal(outcome.bytesWritten, 60);
        assert.match(
          outcome.message,
          /stopped after 60 of \d+ bytes: ENOSPC \(no space left on the device\)\. The \d+ bytes that were there are untouched\. The 60 bytes written are a torn tail/,
        );
        const file = bytesOf(path);
        assert.deepEqual(file, concatBytes([original, appendBytes(lines).subarray(0, 60)]));
        const reread = loadSession(file);
        assert.deepEqual(reread.verdict, { ok: true, stage: 'done' });
        assert.equal(reread.eventCount, loadSession(original).eventCount);
        assert.equal(reread.scan.committedBytes, original.length);
        assert.equal(reread.scan.fileBytes, original.length + 60);
        // The edits stay pending, and the next save refuses to write after the torn tail.
        assert.equal(edits.count, 1);
        const again = await saveEdits(path, (await editable(path)).target, edits);
        assert.ok(!again.ok);
        assert.ok(
          again.reasons.some((r) => r.rule === 'jsonl.torn-tail'),
          JSON.stringify(again),
        );
        assert.deepEqual(bytesOf(path), file);
      });

      it('plain, ENOSPC after a whole line: that line is history, the rest torn, and the message says so', async () => {
        const { path, original } = plainCopy();
        const lines = expectedLines(path, (log, e) => compactFirstTurn(log, e));
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        const outcome = await saveEdits(path, target, edits, { files: fullDiskAfter(lines[0].length + 20) });
        assert.ok(!outcome.ok);
        assert.match(outcome.message, /The first 1 line\(s\) were written whole and are now events of the log/);
        const file = bytesOf(path);
        assert.deepEqual(file.subarray(0, original.length), original);
        const reread = loadSession(file);
        assert.deepEqual(reread.verdict, { ok: true, stage: 'done' });
        assert.equal(reread.eventCount, loadSession(original).eventCount + 1);
        assert.equal(reread.lineText(reread.eventCount - 1), lines[0]);
        assert.equal(reread.scan.committedBytes, original.length + lines[0].length + 1);
      });

      it('zstd, ENOSPC inside the frame: the original frames plus a torn frame', async () => {
        const { path, original } = zstdCopy();
        const { target, edits } = await editable(path);
        compactFirstTurn(target.loaded.log, edits);
        const outcome = await saveEdits(path, target, edits, { files: fullDiskAfter(40) });
        assert.ok(!outcome.ok);
        assert.equal(outcome.bytesWritten, 40);
        const file = bytesOf(path);
        assert.deepEqual(file.subarray(0, original.length), original);
        const reread = loadSessionFile(file);
        assert.deepEqual(reread.log.verdict, { ok: true, stage: 'done' });
        assert.equal(reread.log.eventCount, loadSessionFile(original).log.eventCount);
        assert.equal(reread.zstd?.tornFrameStart, original.length);
      });

      it('a killed process: whatever it wrote is a torn tail after the intact original', async function () {
        this.timeout(30_000);
        const { path, original } = plainCopy();
        const lines = expectedLines(path, (log, e) => compactFirstTurn(log, e));
        const child = spawn(process.execPath, [__filename], {
          env: { ...process.env, [CHILD_ENV]: path },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d) => {
          stderr += d;
        });
        await new Promise<void>((resolve, reject) => {
          child.stdout.once('data', () => resolve());
          child.once('exit', (code) => reject(new Error(`child exited (${code}) before planning: ${stderr}`)));
        });
        // Wait until some, not all, of the lines are on disk, then kill it without warning.
        for (let i = 0; i < 400 && statSync(path).size < original.length + 60; i++) await new Promise((r) => setTimeout(r, 10));
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
        const file = bytesOf(path);
        assert.ok(file.length > original.length + 50, `the child wrote ${file.length - original.length} bytes`);
        const planned = appendBytes(lines);
        assert.ok(file.length < original.length + planned.length, 'the child finished before it was killed');
        // The original bytes, then a prefix of the planned bytes: nothing lost, nothing else written.
        assert.deepEqual(file, concatBytes([original, planned.subarray(0, file.length - original.length)]));
        const reread = loadSession(file);
        assert.deepEqual(reread.verdict, { ok: true, stage: 'done' });
        assert.equal(reread.eventCount, loadSession(original).eventCount);
        assert.equal(reread.scan.committedBytes, original.length);
      });
    });
  });
}
