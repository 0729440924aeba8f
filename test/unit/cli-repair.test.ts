// `session-surface repair --dry-run | --apply | --remove-torn-tail` on real files in a temp dir, plain
// and zstd: the dry run prints the exact lines; applying yields the predicted file and `check`
// passes; a torn tail is removed only after a backup whose bytes equal the original.
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { WriteRefused } from '../../src/files/write-refusal';
import { removeTornTailFromFile } from '../../src/files/torn-tail-file';
import { planTornTailRemoval } from '../../src/core/plan/torn-tail-removal';
import { loadSession, planRepair } from '../../src/core';
import { loadSessionFile } from '../../src/core/read/load-file';
import { findRepairsMade } from '../../src/core/surface/repairs-made';
import { decodeZstdLog } from '../../src/core/zstd';
import { richLog } from '../support/build-log';
import { hasShared, sharedDir } from '../support/paths';
import { cutAtFirstToolCall, halfLine, plainBytes, zstdBytes, zstdWithTornFrame } from '../support/crash-tails';

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

const bytesOf = (path: string) => new Uint8Array(readFileSync(path));

/** Makes a file look still for ten minutes, as a crashed agent leaves it. */
function still(path: string): void {
  const past = new Date(Date.now() - 10 * 60_000);
  utimesSync(path, past, past);
}

describe('CLI repair actions', () => {
  let dir: string;
  let n = 0;
  const put = (bytes: Uint8Array, name = 'session.jsonl'): string => {
    const sub = join(dir, String(n++));
    const path = join(sub, name);
    require('node:fs').mkdirSync(sub);
    writeFileSync(path, bytes);
    still(path);
    return path;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'repair-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--dry-run prints the pending call, what its code means, each closer tied to its call and the exact lines; the file is untouched', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const file = put(b.bytes());
    const plan = planRepair(loadSession(b.bytes()));
    assert.ok(plan.ok);
    const { code, out } = await run(['repair', '--dry-run', file]);
    assert.equal(code, 0);
    const text = out.join('\n');
    assert.match(
      text,
      /pending: read call "call-d": asked for at seq \d+, started at seq \d+ \(tool\/call\) → TOOL_OUTCOME_UNKNOWN \(outcome unknown\)/,
    );
    assert.match(text, /TOOL_OUTCOME_UNKNOWN: the call was recorded as started, but its result never was/);
    assert.match(text, /has not changed for 10 min: this looks like a crash/);
    assert.match(
      text,
      new RegExp(
        `seq ${plan.events[0].seq} tool/result TOOL_OUTCOME_UNKNOWN for read call "call-d", citing tool/call seq ${plan.events[0].seq - 1}`,
      ),
    );
    assert.match(text, /turn\/end ending turn \d+ as interrupted/);
    assert.deepEqual(out.slice(-plan.lines.length), plan.lines);
    assert.deepEqual(bytesOf(file), b.bytes());
    const json = await run(['repair', '--dry-run', '--json', file]);
    const parsed = JSON.parse(json.out[0]);
    assert.deepEqual(parsed.write.lines, plan.lines);
    assert.equal(parsed.openTurn.pendingCalls[0].code, 'TOOL_OUTCOME_UNKNOWN');
    assert.equal(parsed.activity, 'still');
  });

  it('--apply appends exactly the predicted lines; check passes; the log then lists the repair', async () => {
    const b = richLog({ openTail: 'unrecorded-call' });
    const original = b.bytes();
    const file = put(original);
    const plan = planRepair(loadSession(original));
    assert.ok(plan.ok);
    const { code, out } = await run(['repair', '--apply', file]);
    assert.equal(code, 0, out.join('\n'));
    assert.match(out.join('\n'), /appended 3 closers .*\n.*TOOL_NOT_STARTED[\s\S]*now loads with the last turn closed/);
    assert.deepEqual(bytesOf(file), plainBytes([...b.lines, ...plan.lines]));
    assert.equal((await run(['check', file])).code, 0);
    const again = await run(['repair', '--dry-run', file]);
    assert.match(again.out.join('\n'), /already repaired: turn \d+ closed by crash repair at seqs \d+–\d+: TOOL_NOT_STARTED for "call-d"/);
    assert.match(again.out.join('\n'), /the last turn is closed: there is nothing to repair/);
    const second = await run(['repair', '--apply', file]);
    assert.equal(second.code, 0);
    assert.match(second.out[0], /nothing appended/);
    assert.deepEqual(bytesOf(file), plainBytes([...b.lines, ...plan.lines]));
  });

  it('--apply refuses a file that changed moments ago (a live agent), unless --force', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const file = put(b.bytes());
    writeFileSync(file, b.bytes()); // just written: mtime now
    const refused = await run(['repair', '--apply', file]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.out.join('\n'),
      /repair\.save-live: .*session\.jsonl changed \d+ s ago: an agent may still be writing it, and no dsh lock keeps its next append from racing ours.*nothing was written.*--force/,
    );
    assert.deepEqual(bytesOf(file), b.bytes());
    const forced = await run(['repair', '--apply', '--force', file]);
    assert.equal(forced.code, 0);
    assert.equal((await run(['check', file])).code, 0);
  });

  it('zstd: --apply appends one zstd frame; check passes', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const original = zstdBytes(b.lines, 6);
    const file = put(original, 'session.jsonl.zstd');
    const plan = planRepair(loadSession(b.bytes()));
    assert.ok(plan.ok);
    const { code } = await run(['repair', '--apply', file]);
    assert.equal(code, 0);
    const after = bytesOf(file);
    // The original bytes, then one frame holding exactly the closers (compressed where a compressor is at hand).
    assert.deepEqual(after.subarray(0, original.length), original);
    const frame = decodeZstdLog(after.subarray(original.length), { expectHeaderFrame: false });
    assert.equal(frame.frames, 1);
    assert.deepEqual(frame.text, plainBytes(plan.lines));
    const loaded = loadSessionFile(after);
    assert.equal(loaded.zstd!.frames, loadSessionFile(original).zstd!.frames + 1);
    assert.equal((await run(['check', file])).code, 0);
    assert.equal(findRepairsMade(loaded.log).length, 1);
  });

  it('a torn last line: --apply refuses and names --remove-torn-tail; removal backs the file up byte for byte, then the repair applies', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const tail = '{"type":"tool/result","seq":';
    const original = b.bytes({ tornTail: tail });
    const file = put(original);
    const refused = await run(['repair', '--apply', file]);
    assert.equal(refused.code, 1);
    assert.match(refused.out.join('\n'), /repair\.torn-tail-first/);
    const dry = await run(['repair', '--dry-run', file]);
    assert.match(dry.out.join('\n'), new RegExp(`Torn last line: ${tail.length} bytes at line ${b.lines.length + 1} with no newline`));
    assert.match(dry.out.join('\n'), /to remove it: session-surface repair --remove-torn-tail /);
    assert.deepEqual(bytesOf(file), original);

    const removed = await run(['repair', '--remove-torn-tail', file]);
    assert.equal(removed.code, 0, removed.out.join('\n'));
    const backupLine = removed.out.find((l) => l.includes('backup: '))!;
    const backup = backupLine.replace(/^\s*backup: /, '').replace(/ \(its bytes.*$/, '');
    assert.match(basename(backup), /^session\.jsonl\.torn-tail-backup-\d{8}T\d{6}Z$/);
    assert.deepEqual(bytesOf(backup), original, 'the backup holds the original bytes');
    assert.deepEqual(bytesOf(file), b.bytes(), 'the file lost only the torn tail');

    still(file);
    assert.equal((await run(['repair', '--apply', file])).code, 0);
    assert.equal((await run(['check', file])).code, 0);
    const nothing = await run(['repair', '--remove-torn-tail', file]);
    assert.equal(nothing.code, 0);
    assert.match(nothing.out.join('\n'), /repair\.no-torn-tail/);
  });

  it('a torn final zstd frame: removal keeps a byte-equal backup and every event, then the repair applies', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const m = b.lines.length;
    const { bytes: original } = zstdWithTornFrame(b.lines.slice(0, m - 3), b.lines.slice(m - 3, m - 1), b.lines[m - 1]);
    const file = put(original, 'session.jsonl.zstd');
    const eventsBefore = loadSessionFile(original).log.eventCount;
    const removed = await run(['repair', '--remove-torn-tail', '--json', file]);
    assert.equal(removed.code, 0);
    const result = JSON.parse(removed.out[0]);
    assert.equal(result.removed, true);
    assert.deepEqual(bytesOf(result.backup), original);
    assert.ok(result.rewrittenTextBytes > 0);
    const cut = loadSessionFile(bytesOf(file));
    assert.equal(cut.zstd!.tornFrameStart, undefined);
    assert.equal(cut.log.eventCount, eventsBefore);
    assert.deepEqual(bytesOf(file).subarray(0, result.cutAt), original.subarray(0, result.cutAt));
    still(file);
    assert.equal((await run(['repair', '--apply', file])).code, 0);
    assert.equal((await run(['check', file])).code, 0);
    assert.equal(readdirSync(join(file, '..')).length, 2, 'the log and its one backup');
  });

  /** A log whose last line is torn, on disk, with the plan that removes the tail. */
  function tornTailOnDisk() {
    const loadedBytes = richLog({ openTail: 'recorded-call' }).bytes({ tornTail: '{"ty' });
    const file = put(loadedBytes);
    const plan = planTornTailRemoval(loadSession(loadedBytes), loadedBytes, undefined);
    assert.ok(plan.ok);
    return { loadedBytes, file, plan };
  }

  /** The removal as the commands call it, with the liveness guard agreed to. */
  const remove = (file: string, loaded: Uint8Array, plan: Parameters<typeof removeTornTailFromFile>[2], now?: Date) =>
    removeTornTailFromFile(file, loaded, plan, { loadedMtimeMs: 0, allowLive: () => true, ...(now ? { now } : {}) });

  it('removing a torn tail refuses a file that is no longer what was loaded: no backup, no cut', async () => {
    const { loadedBytes, file, plan } = tornTailOnDisk();
    appendFileSync(file, 'pe":"step/end"}\n'); // the writer finished its line after all
    const now = bytesOf(file);
    await assert.rejects(remove(file, loadedBytes, plan), WriteRefused);
    await assert.rejects(
      remove(file, loadedBytes, plan),
      /grew to \d+ bytes from the \d+ expected \(another writer appended\) since it was checked; nothing was written/,
    );
    const sameSize = new Uint8Array(now);
    sameSize[5] ^= 1;
    await assert.rejects(remove(file, sameSize, plan), /changed while it was backed up \(at byte 0\); the log was not changed/);
    assert.deepEqual(bytesOf(file), now);
    assert.deepEqual(readdirSync(join(file, '..')), ['session.jsonl'], 'no backup was written');
  });

  it('removing a torn tail leaves only a whole backup under its own name, and never overwrites one', async () => {
    const { loadedBytes, file, plan } = tornTailOnDisk();
    const now = new Date(Date.UTC(2026, 11, 1, 3, 4, 5));
    // A backup of that name is there already (another removal in the same second): nothing changes.
    writeFileSync(join(file, '..', 'session.jsonl.torn-tail-backup-20261201T030405Z'), 'earlier');
    await assert.rejects(remove(file, loadedBytes, plan, now), /already exists; the log was not changed/);
    assert.deepEqual(bytesOf(file), loadedBytes);
    assert.equal(readFileSync(join(file, '..', 'session.jsonl.torn-tail-backup-20261201T030405Z'), 'utf8'), 'earlier');
    const later = new Date(now.getTime() + 1000);
    const done = await remove(file, loadedBytes, plan, later);
    assert.equal(basename(done.backupPath), 'session.jsonl.torn-tail-backup-20261201T030406Z');
    assert.deepEqual(bytesOf(done.backupPath), loadedBytes);
    // The copy is made under a partial name and renamed once checked: no partial file is left.
    assert.deepEqual(readdirSync(join(file, '..')).sort(), [
      'session.jsonl',
      'session.jsonl.torn-tail-backup-20261201T030405Z',
      'session.jsonl.torn-tail-backup-20261201T030406Z',
    ]);
  });

  it('usage: exactly one action; --force only with --apply', async () => {
    const file = put(richLog().bytes());
    assert.equal((await run(['repair', '--apply', '--dry-run', file])).code, 2);
    assert.equal((await run(['repair', '--dry-run', '--force', file])).code, 2);
  });

  describe('on real dsh logs cut mid-turn', function () {
    before(function () {
      if (!hasShared()) this.skip();
    });
    const name = 'acp-agent_snapshots_advanced-toolchain_session.hdrfix.jsonl';
    for (const recorded of [true, false]) {
      it(`${recorded ? 'with' : 'without'} a recorded tool/call: plain, mid-line and mid-zstd-frame copies repair to the predicted file and check passes`, async () => {
        const original = readFileSync(join(sharedDir(), 'conformance', 'real', name), 'utf8')
          .split('\n')
          .filter((l) => l.length > 0);
        const cut = cutAtFirstToolCall(original, recorded)!;
        const plan = planRepair(loadSession(plainBytes(cut.lines)));
        assert.ok(plan.ok);
        assert.equal(plan.events[0].data.error.code, recorded ? 'TOOL_OUTCOME_UNKNOWN' : 'TOOL_NOT_STARTED');

        const plain = put(plainBytes(cut.lines));
        assert.equal((await run(['repair', '--apply', plain])).code, 0);
        assert.deepEqual(bytesOf(plain), plainBytes([...cut.lines, ...plan.lines]));
        assert.equal((await run(['check', plain])).code, 0);

        const torn = put(plainBytes(cut.lines, halfLine(original[cut.kept])));
        assert.equal((await run(['repair', '--remove-torn-tail', torn])).code, 0);
        still(torn);
        assert.equal((await run(['repair', '--apply', torn])).code, 0);
        assert.deepEqual(bytesOf(torn), plainBytes([...cut.lines, ...plan.lines]));
        assert.equal((await run(['check', torn])).code, 0);

        const { bytes } = zstdWithTornFrame(cut.lines.slice(0, -2), cut.lines.slice(-2), original[cut.kept]);
        const zfile = put(bytes, 'session.jsonl.zstd');
        assert.equal((await run(['repair', '--apply', zfile])).code, 1, 'refused while the torn frame is there');
        assert.equal((await run(['repair', '--remove-torn-tail', zfile])).code, 0);
        still(zfile);
        assert.equal((await run(['repair', '--apply', zfile])).code, 0);
        assert.equal((await run(['check', zfile])).code, 0);
        const repaired = loadSessionFile(bytesOf(zfile)).log;
        assert.deepEqual(
          Array.from({ length: plan.lines.length }, (_, k) => repaired.lineText(repaired.eventCount - plan.lines.length + k)),
          plan.lines,
        );
      });
    }
  });
});
