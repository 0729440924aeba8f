// Nine ways a write of ours once lost bytes or made a log unreadable for dsh, each played out on real
// files the way it was found: the built CLI in a child process racing a writer of the test, killed at a
// chosen moment or run under a file-size limit, a file attribute that refuses writes, and the save path
// with its file system failing at a chosen call. Each case asserts what must hold afterwards: no byte
// of another writer lost, the original bytes a prefix of the file or the tool refused, a refusal that
// names the file and the error (never an internal error), and a log that loads.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { loadSessionFile } from '../../src/core/read/load-file';
import { encodeZstdFrame, concatBytes } from '../../src/core/zstd/encode';
import { decodeZstdLog } from '../../src/core/zstd';
import { LogBuilder, richLog } from '../support/build-log';
import { hasTool, runCliAsync, startCli } from '../support/cli-child';
import { zstdBytes } from '../support/crash-tails';

const enc = new TextEncoder();
const bytesOf = (path: string) => new Uint8Array(readFileSync(path));

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

/** Makes a file look still for ten minutes, as a crashed agent leaves it. */
function still(path: string): void {
  const past = new Date(Date.now() - 10 * 60_000);
  utimesSync(path, past, past);
}

const contains = (haystack: Uint8Array, needle: Uint8Array) => Buffer.from(haystack).includes(Buffer.from(needle));

/** A plain log of about `mib` MiB (one long prompt per turn), so a whole-file pass takes a while. */
function bigLog(mib: number): LogBuilder {
  const b = new LogBuilder();
  for (let i = 0; i < mib; i++) b.chatTurn(`${i} ${'lorem ipsum '.repeat(87_381)}`);
  return b;
}

/** Resolves once `test` holds, checking on every turn of the event loop (a watcher reacting at once). */
async function whenSeen(test: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (test()) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

const backupNamed = (dir: string, partial: boolean) =>
  readdirSync(dir).find((n) => /\.torn-tail-backup-\d{8}T\d{6}Z/.test(n) && n.endsWith('.partial') === partial);

describe('write reproductions: nine ways a write once lost bytes', function () {
  this.timeout(120_000);
  let dir: string;
  let n = 0;
  const folder = () => {
    const sub = join(dir, String(n++));
    mkdirSync(sub);
    return sub;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sss-repro-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('1. removing a torn tail keeps the bytes another writer appends while the backup is checked', async () => {
    const sub = folder();
    const file = join(sub, 'session.jsonl');
    writeFileSync(file, bigLog(24).bytes({ tornTail: '{"type":"turn/start","seq":' }));
    still(file);
    const foreign = enc.encode('a line the agent appended meanwhile\n');
    const running = startCli(['repair', '--remove-torn-tail', file]);
    // The agent writes a few milliseconds after the backup has its own name.
    const seen = await whenSeen(() => backupNamed(sub, false) !== undefined, 60_000);
    assert.ok(seen, 'the backup appeared');
    await new Promise((resolve) => setTimeout(resolve, 3));
    appendFileSync(file, foreign);
    const exit = await running.exited;
    assert.ok(contains(bytesOf(file), foreign), `the appended line is gone (exit ${exit.code}: ${exit.stdout}${exit.stderr})`);
  });

  it('2. the CLI does not cut a torn line that changed moments ago (an agent still writing it)', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const kept = b.lines.length;
    // What the agent goes on to write: the call's result, then its step and turn end.
    b.toolResult('call-d', 'contents');
    b.stepEnd();
    b.turnEnd();
    const next = b.lines
      .slice(kept)
      .map((l) => `${l}\n`)
      .join('');
    const half = Math.floor(b.lines[kept].length / 2);
    const file = join(folder(), 'session.jsonl');
    writeFileSync(
      file,
      enc.encode(
        b.lines
          .slice(0, kept)
          .map((l) => `${l}\n`)
          .join('') + next.slice(0, half),
      ),
    );
    const removal = await run(['repair', '--remove-torn-tail', file]);
    // The agent finishes its line and its turn.
    appendFileSync(file, next.slice(half));
    const log = loadSessionFile(bytesOf(file)).log;
    assert.deepEqual(log.verdict, { ok: true, stage: 'done' }, `after the removal said: ${removal.out.join('\n')}`);
    assert.notEqual(removal.code, 0);
  });

  /** A zstd log whose last frame, compressed by the zstd tool, was cut inside its last block. */
  function tornCompressedFrame(turns: number): Uint8Array {
    const b = new LogBuilder();
    b.chatTurn('one');
    const head = b.lines.length;
    for (let i = 0; i < turns; i++) b.chatTurn(`again ${'and again '.repeat(20)}`);
    const text = enc.encode(
      b.lines
        .slice(head)
        .map((l) => `${l}\n`)
        .join(''),
    );
    const frame = compressWithZstdTool(text);
    return concatBytes([zstdBytes(b.lines.slice(0, head)), frame.subarray(0, frame.length - 8)]);
  }

  it('3a. the kept lines of a cut zstd frame are appended again compressed', async function () {
    if (!hasTool('zstd')) this.skip();
    const file = join(folder(), 'session.jsonl.zstd');
    writeFileSync(file, tornCompressedFrame(200));
    still(file);
    const removed = await run(['repair', '--remove-torn-tail', '--json', file]);
    const result = JSON.parse(removed.out[0]);
    assert.equal(result.removed, true, removed.out.join('\n'));
    assert.ok(result.rewrittenTextBytes > 100_000, `${result.rewrittenTextBytes} bytes kept`);
    const replacement = bytesOf(file).length - result.cutAt;
    assert.ok(
      replacement < result.rewrittenTextBytes / 4,
      `${result.rewrittenTextBytes} bytes of kept text were appended again as a ${replacement}-byte frame`,
    );
  });

  it('3b. a file-size limit hit while the kept lines go back never leaves the log without them', async function () {
    if (!hasTool('prlimit') || !hasTool('zstd')) this.skip();
    const original = tornCompressedFrame(400);
    const file = join(folder(), 'session.jsonl.zstd');
    writeFileSync(file, original);
    still(file);
    const before = loadSessionFile(original).log.eventCount;
    const exit = await runCliAsync(['repair', '--remove-torn-tail', file], { prefix: ['prlimit', `--fsize=${original.length}`] });
    assert.notEqual(exit.code, 3, `an internal error: ${exit.stderr}`);
    const after = loadSessionFile(bytesOf(file)).log;
    assert.ok(
      after.eventCount >= before,
      `the log lost ${before - after.eventCount} events (exit ${exit.code}: ${exit.stdout}${exit.stderr})`,
    );
  });

  it('5. a compaction cut short by a crash can be closed, and compactions work again', async () => {
    const b = new LogBuilder();
    b.chatTurn('one');
    b.chatTurn('two');
    const file = join(folder(), 'session.jsonl');
    writeFileSync(file, b.bytes());
    const summary = join(dir, 'summary-5.txt');
    writeFileSync(summary, 'They said hello.\n');
    const nodes = loadSessionFile(b.bytes()).log.surface();
    const args = ['compact', file, '--start', String(nodes[0]), '--end', String(nodes[1]), '--summary-file', summary];
    const dry = await run([...args, '--dry-run']);
    assert.equal(dry.code, 0, dry.err.join('\n'));
    // The save was killed after the compaction/start line and part of the summary line.
    appendFileSync(file, `${dry.out[0]}\n${dry.out[1].slice(0, 40)}`);
    still(file);
    assert.equal((await run(['repair', '--remove-torn-tail', file])).code, 0);
    still(file);
    const blocked = await run(args);
    assert.equal(blocked.code, 1);
    assert.match(blocked.err.join('\n'), /compaction already in progress/);
    const closed = await run(['repair', '--close-compaction', file]);
    assert.equal(closed.code, 0, closed.out.join('\n') + closed.err.join('\n'));
    still(file);
    const again = await run(args);
    assert.equal(again.code, 0, again.err.join('\n'));
    assert.equal((await run(['check', file])).code, 0);
  });

  it('6. a compaction with a 65 MiB summary is written in frames the reference decoder accepts', async function () {
    if (!hasTool('zstd')) this.skip();
    const b = new LogBuilder();
    b.chatTurn('one');
    b.chatTurn('two');
    const file = join(folder(), 'session.jsonl.zstd');
    const original = zstdBytes(b.lines);
    writeFileSync(file, original);
    still(file);
    const summary = join(dir, 'summary-6.txt');
    writeFileSync(summary, 'a long summary '.repeat((65 * 2 ** 20) / 15));
    const nodes = loadSessionFile(original).log.surface();
    const exit = await runCliAsync(['compact', file, '--start', String(nodes[0]), '--end', String(nodes[1]), '--summary-file', summary]);
    assert.equal(exit.code, 0, exit.stderr);
    const tested = spawnSync('zstd', ['-t', '-q', file], { encoding: 'utf8' });
    assert.equal(tested.status, 0, `zstd -t: ${tested.stderr}`);
  });

  describe('7. every I/O refusal is a refusal that names the file, what was done and the error', () => {
    function tornLog(): string {
      const file = join(folder(), 'session.jsonl');
      writeFileSync(file, richLog({ openTail: 'recorded-call' }).bytes({ tornTail: '{"ty' }));
      still(file);
      return file;
    }

    /** Sets a file attribute for the test's length (root ignores permission bits, not these). */
    function withAttribute(path: string, flag: string): boolean {
      return spawnSync('chattr', [`+${flag}`, path]).status === 0;
    }
    const cleared: string[] = [];
    afterEach(() => {
      for (const path of cleared.splice(0)) spawnSync('chattr', ['-i', '-a', path]);
    });

    it('an unwritable backup folder', async function () {
      const file = tornLog();
      const folderOf = join(file, '..');
      if (!withAttribute(folderOf, 'i')) this.skip();
      cleared.push(folderOf);
      const before = bytesOf(file);
      const r = await run(['repair', '--remove-torn-tail', file]).catch((e: Error) => ({ code: 3, out: [String(e)], err: [] }));
      assert.ok(r.code === 1 || r.code === 2, `exit ${r.code}: ${r.out.join('\n')}`);
      assert.match(r.out.join('\n') + r.err.join('\n'), /backup.*(EPERM|EACCES)/);
      assert.deepEqual(bytesOf(file), before);
    });

    it('an append-only log', async function () {
      const file = tornLog();
      if (!withAttribute(file, 'a')) this.skip();
      cleared.push(file);
      const before = bytesOf(file);
      const r = await run(['repair', '--remove-torn-tail', file]).catch((e: Error) => ({ code: 3, out: [String(e)], err: [] }));
      assert.ok(r.code === 1 || r.code === 2, `exit ${r.code}: ${r.out.join('\n')}`);
      assert.match(r.out.join('\n') + r.err.join('\n'), /EPERM/);
      assert.match(r.out.join('\n') + r.err.join('\n'), /append-only/);
      assert.deepEqual(bytesOf(file), before);
    });

    it('a full disk (a file-size limit) while the backup is written', async function () {
      if (!hasTool('prlimit')) this.skip();
      const file = tornLog();
      const before = bytesOf(file);
      const exit = await runCliAsync(['repair', '--remove-torn-tail', file], { prefix: ['prlimit', `--fsize=${before.length - 100}`] });
      assert.ok(exit.code === 1 || exit.code === 2, `exit ${exit.code}: ${exit.stdout}${exit.stderr}`);
      assert.match(exit.stdout + exit.stderr, /EFBIG/);
      assert.deepEqual(bytesOf(file), before);
      assert.deepEqual(
        readdirSync(join(file, '..')).filter((name) => name.endsWith('.partial')),
        [],
      );
    });

    it('a backup copy killed half way leaves no .partial file that stops the next run', async () => {
      const sub = folder();
      const file = join(sub, 'session.jsonl');
      writeFileSync(file, bigLog(24).bytes({ tornTail: '{"ty' }));
      still(file);
      const running = startCli(['repair', '--remove-torn-tail', file]);
      assert.ok(await whenSeen(() => backupNamed(sub, true) !== undefined, 60_000), 'the partial backup appeared');
      running.child.kill('SIGKILL');
      await running.exited;
      const again = await runCliAsync(['repair', '--remove-torn-tail', file]);
      assert.equal(again.code, 0, again.stdout + again.stderr);
      assert.deepEqual(
        readdirSync(sub).filter((name) => name.endsWith('.partial')),
        [],
      );
    });
  });

  it('9. a dry run of a prune on a zstd log ending in a torn frame does not say it holds', async () => {
    const b = new LogBuilder();
    b.chatTurn('one');
    const [result] = b.toolTurn('two', ['a']);
    const original = concatBytes([zstdBytes(b.lines), encodeZstdFrame(enc.encode('{"type":"turn/start","seq":99}\n')).subarray(0, 7)]);
    const file = join(folder(), 'session.jsonl.zstd');
    writeFileSync(file, original);
    still(file);
    const dry = await run(['prune', file, '--seq', String(result), '--dry-run']);
    const real = await run(['prune', file, '--seq', String(result)]);
    assert.equal(real.code, 1, 'the real run refuses');
    assert.equal(dry.code, 1, `the dry run said: ${dry.err.join('\n')}`);
    assert.doesNotMatch(dry.err.join('\n'), /holds/);
    assert.match(dry.err.join('\n'), /incomplete zstd frame/);
    assert.deepEqual(bytesOf(file), original);
    assert.equal(decodeZstdLog(original).tornFrameStart !== undefined, true);
  });
});

/** A frame compressed by the reference `zstd` tool, with its content size and checksum. */
function compressWithZstdTool(content: Uint8Array): Uint8Array {
  const r = spawnSync('zstd', ['-q', '-c', '--check', `--stream-size=${content.length}`], { input: content, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`zstd failed: ${r.stderr}`);
  return new Uint8Array(r.stdout);
}
