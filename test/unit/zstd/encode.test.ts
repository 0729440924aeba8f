// The frame writers: stored/RLE frames built here (any Node), zlib frames where Node has zstd, and the
// dsh layout (header frame, then batch frames). Each output is read back by the structural walk and the
// decoder.
import { strict as assert } from 'node:assert';
import { decodeZstdLog, encodeDshZstdLog, encodeRawZstdFrame, encodeZstdFrame, scanFrame, xxh64Low32 } from '../../../src/core/zstd';
import { HEADER, dec, enc, eventLines, text } from '../../support/zstd-data';
import { zlibZstd } from '../../../src/node/zlib-zstd';

describe('zstd: encoders', () => {
  it('writes stored frames of every content-size field width', () => {
    for (const [n, descriptor] of [
      [0, 0x24],
      [1, 0x24],
      [255, 0x24],
      [256, 0x64],
      [65_791, 0x64],
      [65_792, 0xa4],
      [300_000, 0xa4],
    ] as const) {
      const content = new Uint8Array(n);
      for (let i = 0; i < n; i++) content[i] = (i * 31 + (i >> 7)) & 0xff;
      const frame = encodeRawZstdFrame(content);
      assert.equal(frame[4], descriptor, `descriptor for ${n} bytes`);
      const scan = scanFrame(frame, 0);
      assert.equal(scan.kind, 'zstd');
      if (scan.kind !== 'zstd') return;
      assert.equal(scan.complete, true);
      assert.equal(scan.end, frame.length);
      assert.equal(scan.contentSize, n);
      assert.equal(scan.blocks, Math.max(1, Math.ceil(n / 131_072)));
      // checksum = low 32 bits of XXH64, little-endian, last 4 bytes
      const stored =
        frame[frame.length - 4] | (frame[frame.length - 3] << 8) | (frame[frame.length - 2] << 16) | (frame[frame.length - 1] << 24);
      assert.equal(stored >>> 0, xxh64Low32(content));
      const r = decodeZstdLog(frame, { expectHeaderFrame: false, backend: 'fzstd' });
      assert.equal(r.error?.rule ?? 'ok', n > 0 && content[n - 1] !== 10 ? 'zstd.torn-record' : 'ok');
    }
  });

  it('writes a run of one byte as an RLE block', () => {
    const content = enc.encode('x'.repeat(1000) + '\n');
    const frame = encodeRawZstdFrame(content, { blockSize: 1000 });
    // header 7 (2-byte content size) + RLE block (3 + 1) + stored block of the newline (3 + 1) + checksum 4
    assert.equal(frame.length, 7 + 4 + 4 + 4);
    assert.equal((frame[7] >> 1) & 3, 1, 'first block is RLE');
    assert.equal((frame[11] >> 1) & 3, 0, 'second block is stored');
    const r = decodeZstdLog(frame, { expectHeaderFrame: false, backend: 'fzstd' });
    assert.equal(r.error, undefined);
    assert.deepEqual(Array.from(r.text), Array.from(content));
  });

  it('encodeZstdFrame writes a content size and a checksum with every encoder', () => {
    const content = enc.encode(text(eventLines(0, 50)));
    const encoders = zlibZstd() ? (['auto', 'raw'] as const) : (['raw'] as const);
    for (const encoder of encoders) {
      const frame = encodeZstdFrame(content, { encoder, codec: zlibZstd() });
      const scan = scanFrame(frame, 0);
      assert.ok(scan.kind === 'zstd' && scan.complete && scan.hasChecksum && scan.contentSize === content.length, encoder);
      if (encoder === 'auto') assert.ok(frame.length < content.length / 3, 'zlib compresses');
      const r = decodeZstdLog(frame, { expectHeaderFrame: false, codec: zlibZstd() });
      assert.equal(dec.decode(r.text), dec.decode(content));
    }
  });

  it('encodeDshZstdLog puts the header alone in frame 1, then batch frames', () => {
    const lines = [HEADER, ...eventLines(0, 7)];
    const whole = decodeZstdLog(encodeDshZstdLog(lines));
    assert.equal(whole.error, undefined);
    assert.equal(whole.frames, 2);
    assert.equal(dec.decode(whole.text), text(lines));
    const batched = decodeZstdLog(encodeDshZstdLog(lines, { linesPerFrame: 3 }));
    assert.equal(batched.frames, 1 + 3);
    assert.deepEqual(
      batched.frameEnds.map((end) => dec.decode(batched.text.subarray(0, end)).split('\n').length - 1),
      [1, 4, 7, 8],
    );
  });
});
