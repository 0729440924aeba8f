// Crafted files against the reader: tails after a damaged line that hold a million empty or unparsable
// lines (plain, and a zstd frame inflating to 128 MiB of newlines), which must cost what the verdict
// needs — while the verdict stays dsh's (a later turn/end, even escaped or far away, still proves the
// damage committed; a later null still crashes dsh's reader) — and a file first read empty that is then
// written as zstd frames.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extendLoadedFile, loadSession, loadSessionFile } from '../../src/core';
import { concatBytes, encodeRawZstdFrame } from '../../src/core/zstd';
import { richLog } from '../support/build-log';
import { runCliChild } from '../support/child-process';
import { bombFrame } from '../support/zstd-bombs';

const enc = new TextEncoder();

/** The rich log with a damaged line after line 6, then `tail` lines, then the rest of the log. */
function damagedWith(tail: string[], rest = true): string {
  const lines = richLog().text().trim().split('\n');
  return [...lines.slice(0, 6), '{damaged', ...tail, ...(rest ? lines.slice(6) : [])].join('\n') + '\n';
}

describe('hostile input, round three: reading', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hostile-read-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('a damaged tail costs what the verdict needs', () => {
    for (const [what, filler] of [
      ['empty lines', ''],
      ['unparsable lines', '{x}'],
      ['backslashes', '\\'],
    ] as const) {
      it(`a mebibyte of ${what} after the damage is checked within 3 s (a parse per line took 5–10 s)`, () => {
        const count = Math.floor(2 ** 20 / (filler.length + 1));
        const path = join(dir, `${what.replace(/ /g, '-')}.jsonl`);
        writeFileSync(path, damagedWith(new Array<string>(count).fill(filler), false));
        const r = runCliChild(['check', path], 60_000);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(r.ms < 3000, `check took ${r.ms} ms`);
      });
    }

    it('a zstd frame inflating to 128 MiB of newlines after the header is checked in seconds, not hours', () => {
      const header = encodeRawZstdFrame(enc.encode(richLog().text().split('\n')[0] + '\n'));
      const path = join(dir, 'newlines.jsonl.zstd');
      const bytes = concatBytes([header, bombFrame({ contentBytes: 128 * 2 ** 20, byte: 0x0a })]);
      writeFileSync(path, bytes);
      const r = runCliChild(['check', path], 120_000);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.ms < 20_000, `check took ${r.ms} ms for ${bytes.length} bytes`);
    });

    it('a turn/end 20,000 lines after the damage, written with an escape, still proves the damage committed', () => {
      const escaped = '{"type":"turn\\/end","seq":99,"time":0,"data":{"turn":9,"reason":{"kind":"completed"}}}';
      const log = loadSession(enc.encode(damagedWith([...new Array<string>(20_000).fill(''), escaped], false)));
      assert.equal(log.verdict.ok, false);
      assert.equal(log.verdict.stage, 'parse');
      const related = log.diagnostics.find((d) => d.rule === 'jsonl.damaged-line' && d.related)!;
      // Lines 1–6, the damaged line 7, 20,000 empty lines, then the turn/end.
      assert.equal(related.related![0].line, 7 + 20_000 + 1, 'the later turn/end is named by its line');
    });

    it('a null line 20,000 lines after the damage is the TypeError dsh’s reader meets', () => {
      const log = loadSession(enc.encode(damagedWith([...new Array<string>(20_000).fill('x'), ' null '], false)));
      assert.equal(log.verdict.stage, 'parse');
      assert.equal(log.verdict.errorName, 'TypeError');
    });

    it('packed rows after the damage are counted as dsh counts them, near and far', () => {
      const row = '{"type":"text-chunks","seq0":5,"time0":0,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a"]}}';
      const before = loadSession(enc.encode(damagedWith([], false))).scan.packedRows;
      const log = loadSession(enc.encode(damagedWith([row, ...new Array<string>(20_000).fill(''), row], false)));
      assert.equal(log.verdict.ok, true, log.verdict.error);
      assert.equal(log.scan.packedRows, before + 2);
      assert.equal(log.linesBeyondDamage.more, true);
    });
  });

  it('a file first read empty and then written as zstd frames is followed as zstd, as a load of the whole file reads it', () => {
    const lines = richLog({ openTail: 'recorded-call' }).text().trim().split('\n');
    const whole = concatBytes(lines.map((line) => encodeRawZstdFrame(enc.encode(`${line}\n`))));
    const expected = loadSessionFile(whole).log;
    for (const first of [0, 2]) {
      const followed = loadSessionFile(whole.subarray(0, first));
      for (let p = first; p < whole.length; p += 100) extendLoadedFile(followed, whole.subarray(p, Math.min(whole.length, p + 100)));
      assert.deepEqual(followed.log.verdict, expected.verdict);
      assert.equal(followed.log.eventCount, expected.eventCount);
      assert.ok(followed.zstd, 'known as a zstd file (a repair appends a frame, not a line)');
    }
    const plain = loadSessionFile(new Uint8Array(0));
    extendLoadedFile(plain, enc.encode(lines.join('\n') + '\n'));
    assert.equal(plain.log.eventCount, expected.eventCount);
    assert.equal(plain.zstd, undefined);
  });
});
