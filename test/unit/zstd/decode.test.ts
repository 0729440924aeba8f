// decodeZstdLog on logs built frame by frame: dsh's zstd rules (spec §1.2, §1.6) with exact messages,
// offsets and kept text. Every case runs with fzstd (own XXH64 checksums) and, where the running Node has
// zstd in zlib (Node >= 22.15), with zlib too.
import { strict as assert } from 'node:assert';
import { concatBytes, decodeZstdLog, isZstd, type ZstdBackend, type ZstdDecodeResult } from '../../../src/core/zstd';
import { COMPRESSED_FRAME, COMPRESSED_TEXT, HEADER, dec, enc, eventLines, rawFrame, rawLog, text } from '../../support/zstd-data';
import { zlibZstd } from '../../../src/node/zlib-zstd';

const backends: ZstdBackend[] = zlibZstd() ? ['fzstd', 'zlib'] : ['fzstd'];

const HEADER_TEXT = HEADER + '\n';
const CORRUPT = 'corrupt Zstandard session log: ';

/** The invariants every result keeps, whatever the input. */
function assertCoherent(r: ZstdDecodeResult, input: Uint8Array): void {
  assert.equal(r.compressedBytes, input.length);
  assert.equal(r.frames, r.frameEnds.length);
  assert.equal(r.frames, r.frameOffsets.length);
  const committed = r.frameEnds.length ? r.frameEnds[r.frameEnds.length - 1] : 0;
  assert.equal(r.text.length, committed + (r.recoveredBytes ?? 0));
  for (let i = 1; i < r.frameEnds.length; i++) assert.ok(r.frameEnds[i] >= r.frameEnds[i - 1]);
  if (r.text.length) assert.equal(r.text[r.text.length - 1], 0x0a, 'kept text ends with a newline');
  assert.ok(r.committedCompressedBytes <= input.length);
  if (r.tornFrameStart !== undefined) assert.equal(r.committedCompressedBytes, r.tornFrameStart);
}

for (const backend of backends) {
  const decode = (bytes: Uint8Array, options: { expectHeaderFrame?: boolean } = {}): ZstdDecodeResult => {
    const r = decodeZstdLog(bytes, { backend, codec: zlibZstd(), ...options });
    assert.equal(r.backend, backend);
    assertCoherent(r, bytes);
    return r;
  };

  describe(`zstd: decodeZstdLog (${backend})`, () => {
    it('round-trips a header frame and one batch frame', () => {
      const lines = eventLines(0, 5);
      const { file, starts } = rawLog([lines]);
      const r = decode(file);
      assert.equal(r.error, undefined);
      assert.equal(dec.decode(r.text), HEADER_TEXT + text(lines));
      assert.equal(r.frames, 2);
      assert.deepEqual(r.frameEnds, [HEADER_TEXT.length, HEADER_TEXT.length + text(lines).length]);
      assert.deepEqual(r.frameOffsets, starts);
      assert.equal(r.committedCompressedBytes, file.length);
      assert.equal(r.checksumsVerified, 2);
      assert.equal(r.tornFrameStart, undefined);
      assert.equal(r.recoveredBytes, undefined);
    });

    it('decodes many batch frames and maps each to its text range', () => {
      const batches = [eventLines(0, 1), eventLines(1, 3), eventLines(4, 2), eventLines(6, 7)];
      const { file, starts } = rawLog(batches);
      const r = decode(file);
      assert.equal(r.error, undefined);
      assert.equal(r.frames, 5);
      let end = HEADER_TEXT.length;
      const ends = [end];
      for (const b of batches) ends.push((end += text(b).length));
      assert.deepEqual(r.frameEnds, ends);
      assert.deepEqual(r.frameOffsets, starts);
      assert.equal(dec.decode(r.text), HEADER_TEXT + batches.map(text).join(''));
    });

    it('decodes a frame with a real compressed block (made by the zstd CLI)', () => {
      const file = concatBytes([rawFrame(HEADER_TEXT), COMPRESSED_FRAME, rawFrame(text(eventLines(4, 2)))]);
      const r = decode(file);
      assert.equal(r.error, undefined);
      assert.equal(dec.decode(r.text), HEADER_TEXT + COMPRESSED_TEXT + text(eventLines(4, 2)));
      assert.equal(r.checksumsVerified, 3);
    });

    it('refuses a bad content checksum in a middle frame, naming the frame and its offset', () => {
      const batches = [eventLines(0, 2), eventLines(2, 2), eventLines(4, 2)];
      const { file, starts, frames } = rawLog(batches);
      const bad = file.slice();
      bad[starts[2] + frames[2].length - 2] ^= 0x40; // inside frame 3's stored checksum
      const r = decode(bad);
      assert.equal(r.error?.rule, 'zstd.checksum');
      assert.equal(r.error?.frameIndex, 2);
      assert.equal(r.error?.compressedOffset, starts[2]);
      assert.match(r.error!.message, new RegExp(`^${CORRUPT}frame 3 at compressed offset ${starts[2]}: `));
      assert.match(r.error!.detail, /checksum/);
      // Everything before the bad frame is still readable.
      assert.equal(r.frames, 2);
      assert.equal(dec.decode(r.text), HEADER_TEXT + text(batches[0]));
      assert.equal(r.committedCompressedBytes, starts[2]);
    });

    it('refuses changed content under an intact checksum (stored block byte flipped)', () => {
      const { file, starts } = rawLog([eventLines(0, 2), eventLines(2, 2)]);
      const bad = file.slice();
      bad[starts[2] + 20] ^= 0x01; // a content byte of frame 3 ("seq" digits region)
      const r = decode(bad);
      assert.equal(r.error?.rule, 'zstd.checksum');
      assert.equal(r.error?.frameIndex, 2);
      assert.equal(r.frames, 2);
    });

    it('refuses a damaged compressed block in a middle frame', () => {
      const damaged = COMPRESSED_FRAME.slice();
      damaged[20] ^= 0xff; // inside the compressed block (header 6 bytes, block header 3)
      const header = rawFrame(HEADER_TEXT);
      const file = concatBytes([header, damaged, rawFrame(text(eventLines(4, 1)))]);
      const r = decode(file);
      assert.ok(r.error, 'an error');
      assert.ok(r.error.rule === 'zstd.frame-corrupt' || r.error.rule === 'zstd.checksum', r.error.rule);
      assert.equal(r.error.frameIndex, 1);
      assert.equal(r.error.compressedOffset, header.length);
      assert.ok(r.error.message.startsWith(`${CORRUPT}frame 2 at compressed offset ${header.length}: `), r.error.message);
      assert.equal(dec.decode(r.text), HEADER_TEXT);
      assert.equal(r.frames, 1);
    });

    it('refuses a frame that breaks a structural rule (reserved block type) and reads nothing after it', () => {
      const { file, starts } = rawLog([eventLines(0, 1), eventLines(1, 1), eventLines(2, 1)]);
      const bad = file.slice();
      const blockHeader = starts[2] + 6; // magic 4 + descriptor 1 + 1-byte content size
      bad[blockHeader] |= 0x06; // block type 3 = reserved
      const r = decode(bad);
      assert.equal(r.error?.rule, 'zstd.frame-corrupt');
      assert.equal(r.error?.frameIndex, 2);
      assert.equal(r.error?.compressedOffset, starts[2]);
      assert.match(r.error!.detail, /reserved block type/);
      assert.equal(r.frames, 2);
      assert.equal(r.tornFrameStart, undefined);
    });

    it('refuses a complete frame whose content ends inside a line', () => {
      const torn = '{"type":"turn/start","seq":2,"time":0,"data":{"turn":1}}\n{"type":"turn/end","seq":3,"ti';
      const header = rawFrame(HEADER_TEXT);
      const first = rawFrame(text(eventLines(0, 2)));
      const file = concatBytes([header, first, rawFrame(torn), rawFrame(text(eventLines(4, 1)))]);
      const r = decode(file);
      assert.equal(r.error?.message, `${CORRUPT}complete frame contains a torn JSONL record`);
      assert.equal(r.error?.rule, 'zstd.torn-record');
      assert.equal(r.error?.frameIndex, 2);
      assert.equal(r.error?.compressedOffset, header.length + first.length);
      assert.equal(dec.decode(r.text), HEADER_TEXT + text(eventLines(0, 2)));
    });

    it('keeps the complete lines of a truncated final frame and reports where it starts', () => {
      const last = eventLines(10, 4);
      const lastText = text(last);
      const { file, starts } = rawLog([eventLines(0, 3), last], { blockSize: 40 });
      const start = starts[2];
      const lastBytes = enc.encode(lastText);
      const headerSize = 4 + 1 + (lastBytes.length < 256 ? 1 : 2); // magic, descriptor, content size
      for (let cut = start + 1; cut < file.length; cut++) {
        const r = decode(file.subarray(0, cut));
        assert.equal(r.error, undefined, `cut ${cut}`);
        assert.equal(r.tornFrameStart, start, `cut ${cut}`);
        assert.equal(r.frames, 2);
        assert.equal(r.committedCompressedBytes, start);
        // Oracle: the blocks (3-byte header + up to 40 content bytes) that end before the cut.
        let pos = start + headerSize;
        let contentDone = 0;
        for (let k = 0; k * 40 < lastBytes.length; k++) {
          const size = Math.min(40, lastBytes.length - k * 40);
          pos += 3 + size;
          if (pos > cut) break;
          contentDone += size;
        }
        const decoded = dec.decode(lastBytes.subarray(0, contentDone));
        const expected = decoded.slice(0, decoded.lastIndexOf('\n') + 1);
        assert.equal(r.recoveredBytes, enc.encode(expected).length, `cut ${cut}: recovered`);
        assert.equal(dec.decode(r.text), HEADER_TEXT + text(eventLines(0, 3)) + expected, `cut ${cut}: text`);
      }
      // Cut just before the checksum: every block is there, so every line is recovered.
      const r = decode(file.subarray(0, file.length - 4));
      assert.equal(r.recoveredBytes, lastBytes.length);
      // A cut exactly at a frame boundary is not torn at all.
      const clean = decode(file.subarray(0, start));
      assert.equal(clean.tornFrameStart, undefined);
      assert.equal(clean.frames, 2);
    });

    it('recovers nothing from a truncated compressed frame whose only block is incomplete', () => {
      const header = rawFrame(HEADER_TEXT);
      const file = concatBytes([header, COMPRESSED_FRAME.subarray(0, 40)]);
      const r = decode(file);
      assert.equal(r.error, undefined);
      assert.equal(r.tornFrameStart, header.length);
      assert.equal(r.recoveredBytes, 0);
      assert.equal(dec.decode(r.text), HEADER_TEXT);
    });

    it('recovers the lines of a compressed frame that lost only its checksum', () => {
      const header = rawFrame(HEADER_TEXT);
      const r = decode(concatBytes([header, COMPRESSED_FRAME.subarray(0, COMPRESSED_FRAME.length - 4)]));
      assert.equal(r.tornFrameStart, header.length);
      assert.equal(r.recoveredBytes, COMPRESSED_TEXT.length);
      assert.equal(dec.decode(r.text), HEADER_TEXT + COMPRESSED_TEXT);
    });

    it('refuses a header frame holding more than one line', () => {
      const file = concatBytes([rawFrame(HEADER_TEXT + text(eventLines(0, 1))), rawFrame(text(eventLines(1, 1)))]);
      const r = decode(file);
      assert.equal(r.error?.message, `${CORRUPT}first frame is not exactly one header line`);
      assert.equal(r.error?.rule, 'zstd.header-frame');
      assert.equal(r.error?.frameIndex, 0);
      assert.equal(r.error?.compressedOffset, 0);
      assert.match(r.error!.detail, /2 lines/);
      assert.equal(r.frames, 0);
      assert.equal(r.text.length, 0);
    });

    it('refuses a header frame without its newline', () => {
      const r = decode(concatBytes([rawFrame(HEADER), rawFrame(text(eventLines(0, 1)))]));
      assert.equal(r.error?.rule, 'zstd.header-frame');
    });

    it('refuses an empty file, a torn first frame and a non-zstd start as header-less', () => {
      const HEADERLESS = 'empty or header-less Zstandard session log';
      const empty = decode(new Uint8Array(0));
      assert.equal(empty.error?.message, HEADERLESS);
      assert.equal(empty.error?.rule, 'zstd.header-less');
      assert.equal(empty.frames, 0);
      const header = rawFrame(HEADER_TEXT);
      for (const cut of [1, 3, 4, 5, 6, 9, header.length - 1]) {
        const r = decode(header.subarray(0, cut));
        assert.equal(r.error?.message, HEADERLESS, `cut ${cut}`);
      }
      const plain = decode(enc.encode(HEADER_TEXT));
      assert.equal(plain.error?.message, HEADERLESS);
    });

    it('decodes a continuation (appended frames) without a header frame', () => {
      const { file } = rawLog([eventLines(0, 2)]);
      const first = decode(file);
      const appended = concatBytes([file, rawFrame(text(eventLines(2, 2))), rawFrame(text(eventLines(4, 1)))]);
      const more = decode(appended.subarray(first.committedCompressedBytes), { expectHeaderFrame: false });
      assert.equal(more.error, undefined);
      assert.equal(more.frames, 2);
      assert.equal(dec.decode(more.text), text(eventLines(2, 3)));
      assert.equal(decode(new Uint8Array(0), { expectHeaderFrame: false }).error, undefined);
    });

    it('skips skippable frames anywhere', () => {
      const skippable = new Uint8Array([0x53, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
      const file = concatBytes([skippable, rawFrame(HEADER_TEXT), skippable, rawFrame(text(eventLines(0, 2))), skippable]);
      const r = decode(file);
      assert.equal(r.error, undefined);
      assert.equal(r.skippableFrames, 3);
      assert.equal(r.frames, 2);
      assert.deepEqual(r.frameOffsets, [skippable.length, 2 * skippable.length + rawFrame(HEADER_TEXT).length]);
      assert.equal(r.committedCompressedBytes, file.length);
      assert.equal(dec.decode(r.text), HEADER_TEXT + text(eventLines(0, 2)));
      // A torn skippable frame at the end is a torn tail with nothing to recover.
      const torn = decode(file.subarray(0, file.length - 2));
      assert.equal(torn.tornFrameStart, file.length - skippable.length);
      assert.equal(torn.recoveredBytes, 0);
    });

    it('tells trailing garbage (corrupt) from a torn magic number (torn tail)', () => {
      const { file } = rawLog([eventLines(0, 1)]);
      const garbage = decode(concatBytes([file, enc.encode('garbage')]));
      assert.equal(garbage.error?.rule, 'zstd.frame-corrupt');
      assert.equal(garbage.error?.compressedOffset, file.length);
      assert.equal(garbage.error?.frameIndex, 2);
      assert.match(garbage.error!.detail, /magic/);
      assert.equal(garbage.frames, 2);
      const tornMagic = decode(concatBytes([file, new Uint8Array([0x28, 0xb5])]));
      assert.equal(tornMagic.error, undefined);
      assert.equal(tornMagic.tornFrameStart, file.length);
    });

    it('reads frames without a checksum, counting only the verified ones', () => {
      const file = concatBytes([rawFrame(HEADER_TEXT), rawFrame(text(eventLines(0, 2)), { checksum: false })]);
      const r = decode(file);
      assert.equal(r.error, undefined);
      assert.equal(r.checksumsVerified, 1);
      assert.equal(dec.decode(r.text), HEADER_TEXT + text(eventLines(0, 2)));
    });

    it('never throws on damaged input', () => {
      const { file } = rawLog([eventLines(0, 3), eventLines(3, 3)], { blockSize: 50 });
      const withCompressed = concatBytes([file, COMPRESSED_FRAME]);
      let state = 12345;
      const rnd = (n: number): number => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return state % n;
      };
      for (let k = 0; k < 300; k++) {
        const bad = withCompressed.slice(0, withCompressed.length - rnd(30));
        for (let f = 0; f < 1 + rnd(3); f++) bad[rnd(bad.length)] ^= 1 << rnd(8);
        decode(bad); // asserts coherence; must not throw
      }
    });

    it('decodes 30,000 small frames in linear time', function () {
      this.timeout(60_000);
      const frames = [rawFrame(HEADER_TEXT)];
      const line = enc.encode(text(eventLines(0, 1)));
      const one = rawFrame(line);
      for (let i = 0; i < 30_000; i++) frames.push(one);
      const file = concatBytes(frames);
      const started = Date.now();
      const r = decode(file);
      const ms = Date.now() - started;
      assert.equal(r.error, undefined);
      assert.equal(r.frames, 30_001);
      assert.equal(r.text.length, HEADER_TEXT.length + 30_000 * line.length);
      assert.equal(r.frameEnds[30_000], r.text.length);
      // Quadratic copying (one concatenation per frame) would move ~90 GB here; linear work is well under a second.
      assert.ok(ms < 10_000, `took ${ms} ms`);
    });
  });
}

describe('zstd: isZstd', () => {
  it('recognizes the frame magic number and a skippable frame magic (which may precede the header frame)', () => {
    assert.equal(isZstd(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0])), true);
    assert.equal(isZstd(new Uint8Array([0x28, 0xb5, 0x2f])), false);
    assert.equal(isZstd(enc.encode('{"type":"session"}')), false);
    assert.equal(isZstd(new Uint8Array([0x50, 0x2a, 0x4d, 0x18])), true);
    assert.equal(isZstd(new Uint8Array([0x5f, 0x2a, 0x4d, 0x18])), true);
    assert.equal(isZstd(new Uint8Array([0x60, 0x2a, 0x4d, 0x18])), false);
  });
});
