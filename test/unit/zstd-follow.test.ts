// Following a growing zstd log: frames appended by a writer are folded in as they complete, a frame
// cut mid-write waits for its remaining bytes, and lines recovered from a torn frame at load are not
// folded twice when the frame completes.
import { strict as assert } from 'node:assert';
import { extendLoadedFile, loadSessionFile } from '../../src/core';
import { concatBytes, encodeRawZstdFrame } from '../../src/core/zstd/encode';
import { richLog } from '../support/build-log';

const encoder = new TextEncoder();

/**
 * Header alone in frame 1, then one frame per batch of `batch` lines, as dsh writes. Small blocks, so a
 * frame cut mid-write still holds complete blocks whose complete lines are recovered.
 */
function framesOf(text: string, batch: number): Uint8Array[] {
  const frame = (content: string) => encodeRawZstdFrame(encoder.encode(content), { blockSize: 64 });
  const lines = text.split('\n').filter((l) => l.length > 0);
  const frames = [frame(lines[0] + '\n')];
  for (let i = 1; i < lines.length; i += batch)
    frames.push(
      frame(
        lines
          .slice(i, i + batch)
          .map((l) => l + '\n')
          .join(''),
      ),
    );
  return frames;
}

describe('following a growing zstd log', () => {
  const text = richLog().text();
  const frames = framesOf(text, 3);
  const whole = loadSessionFile(concatBytes(frames));

  it('loads the whole file like the plain text', () => {
    const plain = loadSessionFile(encoder.encode(text));
    assert.equal(whole.log.verdict.ok, true);
    assert.deepEqual(whole.log.surface(), plain.log.surface());
    assert.equal(whole.log.eventCount, plain.log.eventCount);
  });

  for (const cut of [1, 2, 0.5]) {
    it(`folds appended frames in when the file was read ${cut === 0.5 ? 'mid-frame' : `after ${cut} frames`}`, () => {
      const all = concatBytes(frames);
      const firstBytes =
        cut === 0.5
          ? frames[0].length + frames[1].length + Math.floor(frames[2].length / 2)
          : frames.slice(0, cut).reduce((n, f) => n + f.length, 0);
      const loaded = loadSessionFile(all.subarray(0, firstBytes));
      assert.ok(loaded.follow, 'a zstd file is followed frame by frame');
      if (cut === 0.5) assert.ok((loaded.zstd?.recoveredBytes ?? 0) > 0, 'the torn frame gave up complete lines at load');
      // The rest arrives in two uneven pieces, the first ending inside a frame.
      const middle = firstBytes + Math.floor((all.length - firstBytes) / 3);
      extendLoadedFile(loaded, all.subarray(firstBytes, middle));
      extendLoadedFile(loaded, all.subarray(middle));
      assert.equal(loaded.log.eventCount, whole.log.eventCount);
      assert.deepEqual(loaded.log.surface(), whole.log.surface());
      assert.deepEqual(loaded.log.verdict, whole.log.verdict);
      assert.equal(loaded.log.deriveMessages().length, whole.log.deriveMessages().length);
    });
  }
});
