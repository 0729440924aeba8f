// Interop with the reference `zstd` CLI, when the machine has it (skipped otherwise: CI machines may
// lack it). Frames the CLI writes decode here, and frames written here pass `zstd -t` and decode there.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concatBytes, decodeZstdLog, encodeDshZstdLog, type ZstdBackend } from '../../../src/core/zstd';
import { HEADER, dec, enc, eventLines, text, zstdCli } from '../../support/zstd-data';
import { zlibZstd } from '../../../src/node/zlib-zstd';

const backends: ZstdBackend[] = zlibZstd() ? ['fzstd', 'zlib'] : ['fzstd'];

describe('zstd: interop with the zstd CLI', function () {
  const cli = zstdCli();
  let dir = '';
  before(function () {
    if (!cli) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'sss-zstd-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The CLI's frame for `content`: from a file (content size recorded) or from stdin (no content size). */
  const cliFrame = (content: string | Uint8Array, how: 'file' | 'stdin', extra: string[] = []): Uint8Array => {
    const bytes = typeof content === 'string' ? enc.encode(content) : content;
    if (how === 'stdin') {
      const r = spawnSync(cli!, ['-q', '-c', ...extra], { input: bytes, maxBuffer: 1 << 28 });
      assert.equal(r.status, 0, String(r.stderr));
      return new Uint8Array(r.stdout);
    }
    const path = join(dir, 'in.txt');
    writeFileSync(path, bytes);
    const r = spawnSync(cli!, ['-q', '-c', ...extra, path], { maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, String(r.stderr));
    return new Uint8Array(r.stdout);
  };

  const bigText = (): string => {
    const lines: string[] = [];
    for (let i = 0; i < 6000; i++)
      lines.push(
        `{"type":"assistant/chunk","seq":${i},"time":${1786000000000 + i * 37},"data":{"turn":${1 + (i >> 6)},"step":1,"chunk":{"type":"text-delta","index":0,"text":"token ${(i * 7919) % 1000} of ${i}"}}}`,
      );
    return text(lines);
  };

  for (const backend of backends) {
    it(`decodes a log written frame by frame by the CLI (${backend})`, () => {
      const batches = [eventLines(0, 3), eventLines(3, 1), eventLines(4, 5)];
      const file = concatBytes([
        cliFrame(HEADER + '\n', 'file'),
        cliFrame(text(batches[0]), 'file'),
        cliFrame(text(batches[1]), 'stdin'), // no content size in the header
        cliFrame(text(batches[2]), 'file', ['-19']),
      ]);
      const r = decodeZstdLog(file, { backend, codec: zlibZstd() });
      assert.equal(r.error, undefined);
      assert.equal(r.frames, 4);
      assert.equal(r.checksumsVerified, 4);
      assert.equal(dec.decode(r.text), HEADER + '\n' + batches.map(text).join(''));
    });

    it(`decodes a large multi-block CLI frame and recovers the lines of its torn prefix (${backend})`, () => {
      const body = bigText();
      const header = cliFrame(HEADER + '\n', 'file');
      const frame = cliFrame(body, 'file', ['--zstd=wlog=17']);
      const whole = decodeZstdLog(concatBytes([header, frame]), { backend, codec: zlibZstd() });
      assert.equal(whole.error, undefined);
      assert.equal(dec.decode(whole.text), HEADER + '\n' + body);
      const torn = decodeZstdLog(concatBytes([header, frame.subarray(0, Math.floor(frame.length * 0.6))]), { backend, codec: zlibZstd() });
      assert.equal(torn.error, undefined);
      assert.equal(torn.tornFrameStart, header.length);
      assert.ok((torn.recoveredBytes ?? 0) > 0, 'some complete blocks were recovered');
      const recovered = dec.decode(torn.text.subarray(torn.frameEnds[0]));
      assert.ok(body.startsWith(recovered), 'recovered text is a prefix of the frame content');
      assert.ok(recovered.endsWith('\n'));
    });
  }

  it('writes logs the CLI verifies and decodes to the same text', () => {
    const lines = [HEADER, ...eventLines(0, 40)];
    const encoders = zlibZstd() ? (['auto', 'raw'] as const) : (['raw'] as const);
    for (const encoder of encoders) {
      const path = join(dir, `log-${encoder}.jsonl.zstd`);
      writeFileSync(path, encodeDshZstdLog(lines, { linesPerFrame: 7, encoder, codec: zlibZstd() }));
      const test = spawnSync(cli!, ['-q', '-t', path]);
      assert.equal(test.status, 0, `zstd -t: ${test.stderr}`);
      const out = spawnSync(cli!, ['-q', '-d', '-c', path], { encoding: 'buffer' });
      assert.equal(out.status, 0);
      assert.equal(out.stdout.toString('utf8'), text(lines));
    }
  });

  it('agrees with the CLI that a flipped checksum is corruption', () => {
    const path = join(dir, 'bad.jsonl.zstd');
    const file = encodeDshZstdLog([HEADER, ...eventLines(0, 3)], { encoder: 'raw' }).slice();
    file[file.length - 1] ^= 0x10;
    writeFileSync(path, file);
    assert.notEqual(spawnSync(cli!, ['-q', '-t', path]).status, 0, 'the CLI refuses it');
    assert.equal(decodeZstdLog(file).error?.rule, 'zstd.checksum');
  });
});
