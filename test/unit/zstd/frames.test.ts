// The structural walk (RFC 8878 frame and block headers) that finds frame boundaries without decoding.
import { strict as assert } from 'node:assert';
import { scanFrame } from '../../../src/core/zstd';
import { COMPRESSED_FRAME, rawFrame } from '../../support/zstd-data';

describe('zstd: scanFrame', () => {
  it('walks a stored frame and a compressed frame to their exact end', () => {
    const raw = rawFrame('hello\nworld\n', { blockSize: 5 });
    const a = scanFrame(raw, 0);
    assert.deepEqual(a, {
      kind: 'zstd',
      start: 0,
      end: raw.length,
      complete: true,
      contentSize: 12,
      hasChecksum: true,
      maxContent: 12,
      blocksStart: 6,
      completeBlocksEnd: raw.length - 4,
      blocks: 3,
      windowSize: 12,
      minContent: 12,
      lastBlockStart: 22,
    });
    const b = scanFrame(COMPRESSED_FRAME, 0);
    assert.equal(b.kind, 'zstd');
    if (b.kind !== 'zstd') return;
    assert.equal(b.end, COMPRESSED_FRAME.length);
    assert.equal(b.contentSize, 196);
    assert.equal(b.blocks, 1);
    assert.equal(b.maxContent, 196, 'a compressed block may regenerate up to the window (here the content size)');
  });

  it('reports every proper prefix of a frame as incomplete, never as invalid', () => {
    for (const frame of [rawFrame('a\nbb\nccc\n', { blockSize: 2 }), COMPRESSED_FRAME]) {
      for (let cut = 1; cut < frame.length; cut++) {
        const scan = scanFrame(frame.subarray(0, cut), 0);
        assert.equal(scan.kind, 'zstd', `cut ${cut}`);
        assert.equal(scan.kind === 'zstd' && scan.complete, false, `cut ${cut}`);
      }
    }
  });

  it('counts the complete blocks of a torn frame', () => {
    const frame = rawFrame('0123456789', { blockSize: 4 }); // blocks of 4, 4, 2 content bytes
    const scan = scanFrame(frame.subarray(0, 6 + 7 + 5), 0); // header, one block, part of the second
    assert.ok(scan.kind === 'zstd' && !scan.complete);
    if (scan.kind !== 'zstd') return;
    assert.equal(scan.blocks, 1);
    assert.equal(scan.completeBlocksEnd, 6 + 7);
    assert.equal(scan.hasChecksum, true);
  });

  it('walks skippable frames', () => {
    const skip = new Uint8Array([0x5f, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 9, 9, 0x28]);
    assert.deepEqual(scanFrame(skip, 0), { kind: 'skippable', start: 0, end: 10, complete: true });
    assert.deepEqual(scanFrame(skip.subarray(0, 9), 0), { kind: 'skippable', start: 0, end: 9, complete: false });
  });

  it('rejects broken structure', () => {
    const frame = rawFrame('abc\n');
    const reserved = frame.slice();
    reserved[4] |= 0x08;
    assert.match(invalid(reserved), /reserved bit/);
    const blockType = frame.slice();
    blockType[6] |= 0x06;
    assert.match(invalid(blockType), /reserved block type/);
    const tooBig = frame.slice();
    tooBig[5] = 2; // declared content size 2, but the stored block holds 4 bytes
    assert.match(invalid(tooBig), /larger than the block size limit/);
    const dictionary = frame.slice();
    dictionary[4] |= 0x01; // a 1-byte dictionary id (the content-size byte, 4, is read as it)
    assert.match(invalid(dictionary), /dictionary/);
    assert.match(invalid(new Uint8Array([1, 2, 3, 4, 5])), /magic/);
    assert.match(invalid(new Uint8Array([0x28, 0xb6])), /magic/);
  });
});

function invalid(bytes: Uint8Array): string {
  const scan = scanFrame(bytes, 0);
  assert.equal(scan.kind, 'invalid', JSON.stringify(scan));
  return scan.kind === 'invalid' ? scan.reason : '';
}
