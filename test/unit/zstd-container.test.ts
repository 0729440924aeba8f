// The zstd container's edge cases, each as dsh reads it: a torn final frame (reported, and repaired by
// truncating at its start), a header frame still being written (waits, then loads), a corrupt header
// frame (corruption, not "header-less"), skippable frames before the header and claiming more bytes than
// the file holds, and container diagnostics pinned to a line that names the frame and its offset.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extendLoadedFile, loadSessionFile, planRepair } from '../../src/core';
import { concatBytes, encodeRawZstdFrame, isZstd } from '../../src/core/zstd';
import { runCli } from '../../src/cli/main';
import { richLog } from '../support/build-log';

const encoder = new TextEncoder();

/** dsh's layout: the header alone in frame 1, then batches of `per` lines, as stored blocks of 64 bytes. */
function framesOf(text: string, per = 3): Uint8Array[] {
  const lines = text.split('\n').filter((l) => l.length > 0);
  const frame = (content: string) => encodeRawZstdFrame(encoder.encode(content), { blockSize: 64 });
  const frames = [frame(lines[0] + '\n')];
  for (let i = 1; i < lines.length; i += per)
    frames.push(
      frame(
        lines
          .slice(i, i + per)
          .map((l) => l + '\n')
          .join(''),
      ),
    );
  return frames;
}

function skippable(size: number, declared = size): Uint8Array {
  const out = new Uint8Array(8 + size);
  out.set([0x50, 0x2a, 0x4d, 0x18]);
  new DataView(out.buffer).setUint32(4, declared, true);
  return out;
}

const sizeOf = (frames: Uint8Array[]) => frames.reduce((n, f) => n + f.length, 0);

describe('zstd container edge cases', () => {
  const b = richLog({ openTail: 'recorded-call' });
  const text = b.text();
  const frames = framesOf(text);
  const whole = loadSessionFile(concatBytes(frames));

  it('a torn final frame gets a diagnostic naming the frame and offset, and the repair plan truncates there', () => {
    // The last batch holds six lines; the file ends in the middle of its frame.
    const six = framesOf(text, 6);
    const last = six[six.length - 1];
    const start = sizeOf(six.slice(0, -1));
    const bytes = concatBytes(six).subarray(0, start + last.length - 2); // inside its checksum: every block is complete
    const loaded = loadSessionFile(bytes);
    assert.ok((loaded.zstd?.recoveredBytes ?? 0) > 0, 'complete lines of the torn frame are kept');
    assert.equal(loaded.log.verdict.ok, true);
    const d = loaded.log.diagnostics.find((x) => x.rule === 'zstd.torn-frame');
    assert.ok(d, 'a diagnostic for the torn frame');
    assert.equal(d!.severity, 'info');
    assert.ok(d!.line !== undefined && d!.line > 1);
    assert.match(
      d!.message,
      new RegExp(`^frame ${six.length} at compressed offset ${start} is incomplete .*truncates the file at byte ${start}`),
    );
    const plan = planRepair(loaded);
    assert.ok(plan.ok);
    assert.equal(plan.truncateAt, start, 'dsh truncates at the torn frame');
    const recovered = plan.events.filter((e) => e.seq < loaded.log.eventCount);
    assert.ok(recovered.length > 0, 'the recovered events are appended again');
    assert.equal(recovered[0].seq, loaded.log.eventCount - recovered.length);
    assert.equal(plan.events.length - recovered.length, loaded.log.closers.length, 'then the closers');
    assert.ok(plan.notes.some((n) => n.rule === 'repair.truncate' && n.message.includes(`byte ${start}`)));
    // The plain-text plan of the same log (no container) cannot know the frame and truncates nothing.
    assert.equal((planRepair(loaded.log) as { truncateAt?: number }).truncateAt, undefined);
  });

  it('a log followed from an incomplete first frame loads once the frame completes, like a whole-file load', () => {
    const all = concatBytes(frames);
    const cut = Math.floor(frames[0].length / 2);
    const loaded = loadSessionFile(all.subarray(0, cut));
    assert.equal(loaded.log.verdict.ok, false);
    assert.equal(loaded.log.verdict.dshError, 'empty or header-less Zstandard session log');
    // The rest arrives in two pieces, the first ending inside frame 2.
    extendLoadedFile(loaded, all.subarray(cut, frames[0].length + 5));
    extendLoadedFile(loaded, all.subarray(frames[0].length + 5));
    assert.equal(loaded.log.verdict.ok, true, loaded.log.verdict.error);
    assert.equal(loaded.log.eventCount, whole.log.eventCount);
    assert.deepEqual(loaded.log.surface(), whole.log.surface());
  });

  it('a corrupt header frame is corruption of frame 1 at stage header, not "header-less"', () => {
    const bad = concatBytes(frames);
    bad[frames[0].length - 1] ^= 0xff; // frame 1's content checksum
    const log = loadSessionFile(bad).log;
    assert.equal(log.verdict.stage, 'header');
    assert.equal(log.verdict.rule, 'zstd.checksum');
    assert.match(log.verdict.dshError!, /^corrupt Zstandard session log: frame 1 at compressed offset 0: content checksum mismatch/);
    const broken = concatBytes(frames);
    broken[4] |= 0x08; // a reserved bit in frame 1's header descriptor
    const log2 = loadSessionFile(broken).log;
    assert.equal(log2.verdict.stage, 'header');
    assert.equal(log2.verdict.rule, 'zstd.frame-corrupt');
    assert.doesNotMatch(log2.verdict.dshError!, /header-less/);
  });

  it('a skippable frame before the header is read as zstd', () => {
    const bytes = concatBytes([skippable(12), ...frames]);
    assert.equal(isZstd(bytes), true);
    const loaded = loadSessionFile(bytes);
    assert.ok(loaded.zstd);
    assert.equal(loaded.log.verdict.ok, true);
    assert.equal(loaded.log.eventCount, whole.log.eventCount);
  });

  it('a skippable frame claiming 4 GiB is a torn final frame as dsh reads it, and says what it drops', () => {
    const head = frames.slice(0, 4);
    const bytes = concatBytes([...head, skippable(0, 0xffffffff), ...frames.slice(4)]);
    const loaded = loadSessionFile(bytes);
    const kept = loadSessionFile(concatBytes(head)).log.eventCount;
    assert.equal(loaded.log.eventCount, kept);
    const d = loaded.log.diagnostics.find((x) => x.rule === 'zstd.torn-frame');
    assert.ok(d && d.severity === 'warning', 'not silent');
    assert.match(
      d!.message,
      new RegExp(
        `^frame 5 at compressed offset ${sizeOf(head)} is a skippable frame declaring 4294967295 bytes.*dropping whatever frames those ${bytes.length - sizeOf(head)} bytes hold`,
      ),
    );
    assert.equal((planRepair(loaded) as { truncateAt?: number }).truncateAt, sizeOf(head));
  });

  describe('container diagnostics in `check`', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'zstd-container-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('name the frame and byte offset on the line where the frame starts, never line 0', async () => {
      const bytes = concatBytes(frames);
      const at = sizeOf(frames.slice(0, 3));
      bytes[at + frames[3].length - 1] ^= 0xff; // frame 4's checksum
      const file = join(dir, 'bad.jsonl.zstd');
      writeFileSync(file, bytes);
      const out: string[] = [];
      const code = await runCli(['check', file], { out: (l) => out.push(l), err: () => {} });
      assert.equal(code, 1);
      const line = out.find((l) => l.includes('zstd.checksum'));
      const expectedLine = 1 + 3 * 2 + 1; // header, two batches of three lines, then frame 4's first line
      assert.ok(line?.startsWith(`${file}:${expectedLine}: zstd.checksum: `), line);
      assert.match(line!, new RegExp(`frame 4 at compressed offset ${at}`));
    });
  });
});
