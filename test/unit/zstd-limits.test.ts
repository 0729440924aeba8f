// Bounded zstd reading: a frame that inflates far beyond the text limit, declares a huge window or size,
// or holds a line longer than the engine's longest string is refused with a diagnostic naming the rule,
// the frame, its byte offset and the limit — after work proportional to the limit, never to what the
// frame claims. The bombs are a few KB; peak memory and time are measured in child processes.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READ_LIMITS, loadSessionFile } from '../../src/core';
import { decodeZstdLog } from '../../src/core/zstd';
import { bombFrame, bombLog, eventFrame } from '../support/zstd-bombs';
import { runCliChild, runCoreChild } from '../support/child-process';
import { HEADER, rawFrame } from '../support/zstd-data';
import { concatBytes } from '../../src/core/zstd/encode';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('zstd: read limits', () => {
  const small = { maxTextBytes: 8 * MiB, maxLineBytes: 1 * MiB };

  it('the default limits fit the engine: text below 4 GiB (Node 20 typed arrays), lines below 512 MiB (V8 strings)', () => {
    assert.ok(DEFAULT_READ_LIMITS.maxTextBytes < 4 * GiB && DEFAULT_READ_LIMITS.maxTextBytes >= 1 * GiB);
    assert.ok(DEFAULT_READ_LIMITS.maxLineBytes < 512 * MiB && DEFAULT_READ_LIMITS.maxLineBytes >= 64 * MiB);
  });

  it('refuses a frame declaring a content size beyond the text limit before decoding it', () => {
    const frame = bombFrame({ contentBytes: 4 * GiB });
    const file = bombLog(eventFrame(0), frame);
    const r = decodeZstdLog(file, { limits: small });
    assert.equal(r.error?.rule, 'limits.text-bytes');
    assert.equal(r.error?.frameIndex, 2);
    assert.equal(r.error?.compressedOffset, file.length - frame.length);
    assert.equal(r.error?.limit, small.maxTextBytes);
    assert.match(
      r.error!.detail,
      /^frame 3 at compressed offset \d+: declares 4096 MiB of content, more than the 8 MiB left \(the text limit is 8 MiB, maxTextBytes\)$/,
    );
    assert.equal(r.frames, 2, 'the frames before it are kept');
  });

  it('refuses a frame declaring a window beyond the text limit before decoding it', () => {
    // Window descriptor 0xaf: 2^31 * 1.875 = 3.75 GiB, beyond the default 2 GiB text limit.
    const frame = bombFrame({ contentBytes: 10, declareSize: false, windowDescriptor: 0xaf });
    const r = decodeZstdLog(bombLog(frame));
    assert.equal(r.error?.rule, 'limits.text-bytes');
    assert.match(
      r.error!.detail,
      /^frame 2 at compressed offset \d+: declares a 3840 MiB window, more than the whole text may hold \(the text limit is 2048 MiB, maxTextBytes\)$/,
    );
  });

  it('refuses raw and RLE blocks beyond the text limit from their headers, before decoding', () => {
    const frame = bombFrame({ contentBytes: 4 * GiB, lineBytes: 4 * MiB, declareSize: false });
    const r = decodeZstdLog(bombLog(frame), { limits: small });
    assert.equal(r.error?.rule, 'limits.text-bytes');
    assert.match(r.error!.detail, /^frame 2 at compressed offset \d+: holds at least 4096 MiB of content, more than the 8 MiB left/);
  });

  it('stops compressed blocks without a declared size once the text passes the limit', () => {
    const frame = bombFrame({ contentBytes: 1 * GiB, lineBytes: 64 * 1024, declareSize: false, runs: 'compressed' });
    const started = Date.now();
    const r = decodeZstdLog(bombLog(frame), { limits: small });
    assert.equal(r.error?.rule, 'limits.text-bytes');
    assert.match(
      r.error!.detail,
      /^frame 2 at compressed offset \d+: decodes to more text than the limit leaves \(the text limit is 8 MiB, maxTextBytes\)$/,
    );
    assert.ok(Date.now() - started < 5000, 'work proportional to the limit');
  });

  it('stops a frame at a line longer than the line limit, declared or not, RLE or compressed runs', () => {
    for (const [declareSize, runs] of [
      [true, 'rle'],
      [false, 'rle'],
      [true, 'compressed'],
      [false, 'compressed'],
    ] as const) {
      const r = decodeZstdLog(bombLog(eventFrame(0), bombFrame({ contentBytes: 3 * MiB, declareSize, runs })), { limits: small });
      assert.equal(r.error?.rule, 'limits.line-bytes', `declared: ${declareSize}, ${runs}`);
      assert.equal(r.error?.limit, small.maxLineBytes);
      assert.match(
        r.error!.detail,
        /^frame 3 at compressed offset \d+: holds a line longer than the line limit of 1 MiB \(maxLineBytes\)$/,
      );
    }
  });

  it('counts the text already read when following a log', () => {
    const frame = rawFrame('x'.repeat(1000) + '\n');
    assert.equal(decodeZstdLog(frame, { expectHeaderFrame: false, limits: { maxTextBytes: 2000 }, textBefore: 500 }).error, undefined);
    const r = decodeZstdLog(frame, { expectHeaderFrame: false, limits: { maxTextBytes: 2000 }, textBefore: 1500 });
    assert.equal(r.error?.rule, 'limits.text-bytes');
  });

  it('a torn final frame is bounded too', () => {
    const frame = bombFrame({ contentBytes: 64 * MiB, lineBytes: 64 * 1024, declareSize: false, runs: 'compressed' });
    const r = decodeZstdLog(bombLog(frame.subarray(0, frame.length - 20)), { limits: small });
    assert.equal(r.error?.rule, 'limits.text-bytes');
    assert.match(r.error!.detail, /^frame 2 at compressed offset \d+: \(torn\)/);
  });

  it('a load refuses the log with the diagnostic on the line where the frame starts, keeping what came before', () => {
    const file = bombLog(
      eventFrame(0),
      eventFrame(1),
      bombFrame({ contentBytes: 32 * MiB, lineBytes: 4096, declareSize: false, runs: 'compressed' }),
    );
    const { log } = loadSessionFile(file, { limits: small });
    assert.equal(log.verdict.ok, false);
    assert.equal(log.verdict.rule, 'limits.text-bytes');
    assert.equal(log.verdict.line, 4);
    assert.equal(log.eventCount, 2);
    const d = log.diagnostics.find((x) => x.rule === 'limits.text-bytes');
    assert.ok(
      d && d.line === 4 && /frame 4 at compressed offset \d+/.test(d.message) && /the text limit is 8 MiB, maxTextBytes/.test(d.message),
      d?.message,
    );
  });

  it('limits that are not numbers fall back to the defaults', () => {
    const file = bombLog(eventFrame(0));
    const { log } = loadSessionFile(file, { limits: { maxTextBytes: NaN, maxLineBytes: -1 } as never });
    assert.equal(log.verdict.ok, true);
  });

  describe('bombs in a child process (peak memory, time)', function () {
    this.timeout(180_000);
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'zstd-bombs-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const write = (name: string, bytes: Uint8Array): string => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    };
    let emptyRss: number | undefined;
    const empty = (): number => (emptyRss ??= runCoreChild('console.log("{}")').maxRssMiB);

    it('`check` on a 61 KB file whose second frame inflates to 2 GB of one line: refused at the line limit, memory bounded', () => {
      const file = bombLog(bombFrame({ contentBytes: 2_000_000_000 }));
      assert.ok(file.length < 62_000, `${file.length} bytes`);
      // The same line in compressed blocks (76 KB): found while decoding, not from the block headers.
      const compressed = bombLog(bombFrame({ contentBytes: 2_000_000_000, runs: 'compressed' }));
      const runCompressed = runCliChild(['check', write('line-2gb-compressed.jsonl.zstd', compressed)]);
      assert.equal(runCompressed.code, 1, runCompressed.stderr);
      assert.match(runCompressed.stdout, /limits\.line-bytes/);
      assert.ok(runCompressed.maxRssMiB - empty() < 256 + 160, `peak ${runCompressed.maxRssMiB.toFixed(0)} MiB (compressed runs)`);
      const run = runCliChild(['check', write('line-2gb.jsonl.zstd', file)]);
      assert.equal(run.code, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
      assert.match(
        run.stdout,
        /:2: limits\.line-bytes: .*frame 2 at compressed offset \d+: holds a line longer than the line limit of 256 MiB \(maxLineBytes\)/,
      );
      const above = run.maxRssMiB - empty();
      assert.ok(above < 256 + 160, `peak ${run.maxRssMiB.toFixed(0)} MiB (${above.toFixed(0)} above an empty Node)`);
    });

    it('`check` on a 21 KB file holding a line longer than the longest string (>512 MiB): refused, memory bounded', () => {
      for (const declareSize of [true, false]) {
        const file = bombLog(bombFrame({ contentBytes: 600 * MiB, declareSize }));
        assert.ok(file.length < 21 * 1024, `${file.length} bytes`);
        const run = runCliChild(['check', write(`line-600m-${declareSize}.jsonl.zstd`, file)]);
        assert.equal(run.code, 1, run.stderr);
        assert.doesNotMatch(run.stderr, /\n\s+at /);
        assert.match(run.stdout, /limits\.line-bytes/);
        assert.ok(run.maxRssMiB - empty() < 256 + 160, `peak ${run.maxRssMiB.toFixed(0)} MiB`);
      }
    });

    it('`check` on a frame declaring 3 GiB or a 3.75 GiB window: refused before decoding (a few MiB of memory)', () => {
      const sized = runCliChild(['check', write('declared.jsonl.zstd', bombLog(bombFrame({ contentBytes: 3 * GiB })))]);
      assert.equal(sized.code, 1, sized.stderr);
      assert.match(sized.stdout, /limits\.text-bytes: .*frame 2 at compressed offset \d+: declares 3072 MiB of content/);
      const window = runCliChild([
        'check',
        write('window.jsonl.zstd', bombLog(bombFrame({ contentBytes: 10, declareSize: false, windowDescriptor: 0xaf }))),
      ]);
      assert.equal(window.code, 1, window.stderr);
      assert.match(window.stdout, /limits\.text-bytes: .*declares a 3840 MiB window/);
      for (const run of [sized, window]) assert.ok(run.maxRssMiB - empty() < 64, `peak ${run.maxRssMiB.toFixed(0)} MiB`);
    });

    it('a frame inflating far beyond a 64 MiB text limit: stopped near the limit (memory and time bounded)', () => {
      const path = write(
        '4g.jsonl.zstd',
        bombLog(bombFrame({ contentBytes: 4 * GiB, lineBytes: 64 * 1024, declareSize: false, runs: 'compressed' })),
      );
      const run = runCoreChild(
        `const r=core.loadSessionFile(new Uint8Array(fs.readFileSync(${JSON.stringify(path)})),{limits:{maxTextBytes:${64 * MiB}}});console.log(JSON.stringify({rule:r.log.verdict.rule,ok:r.log.verdict.ok}))`,
      );
      assert.deepEqual(run.result, { rule: 'limits.text-bytes', ok: false }, run.stderr);
      assert.ok(run.maxRssMiB - empty() < 64 * 3 + 96, `peak ${run.maxRssMiB.toFixed(0)} MiB`);
      assert.ok(run.ms < 30_000, `${run.ms} ms`);
    });
  });
});

describe('zstd: the header line limit meets a small header', () => {
  it('a header frame within the limits loads', () => {
    const { log } = loadSessionFile(concatBytes([rawFrame(HEADER + '\n')]), { limits: { maxTextBytes: 1024, maxLineBytes: 512 } });
    assert.equal(log.verdict.ok, true);
  });
});
