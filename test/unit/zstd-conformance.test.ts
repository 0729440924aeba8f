// zstd logs against the conformance corpus: every public case whose plain verdict is ok and whose file
// ends with a newline, re-encoded as dsh writes it (frame 1 = the header line alone, the events in
// further frames of a few lines each), must get the same verdict and projections (scan compared on the
// decompressed bytes). Plus generated logs with a corrupt middle frame, a bad checksum, a complete frame
// ending mid-line and a truncated final frame.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadSessionFile } from '../../src/core';
import { concatBytes, encodeRawZstdFrame, encodeZstdFrame } from '../../src/core/zstd/encode';
import { compareWithExpected } from '../support/conformance';
import { hasShared, sharedDir } from '../support/paths';
import { richLog } from '../support/build-log';

const encoder = new TextEncoder();

/** Batch sizes from a PRNG seeded by the case name, so every run encodes a case the same way. */
function batchSizes(seedText: string): () => number {
  let state = 2166136261;
  for (const ch of seedText) state = Math.imul(state ^ ch.charCodeAt(0), 16777619) >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return 1 + (state % 8);
  };
}

/** The frames dsh writes: the header line alone, then one frame per durable batch. */
function dshFrames(bytes: Uint8Array, name: string, frame: (b: Uint8Array) => Uint8Array = (b) => encodeZstdFrame(b)): Uint8Array[] {
  const frames: Uint8Array[] = [];
  const next = batchSizes(name);
  let start = 0;
  let end = bytes.indexOf(0x0a) + 1;
  frames.push(frame(bytes.subarray(0, end)));
  start = end;
  while (start < bytes.length) {
    let lines = next();
    end = start;
    while (lines-- > 0 && end < bytes.length) end = bytes.indexOf(0x0a, end) + 1;
    frames.push(frame(bytes.subarray(start, end)));
    start = end;
  }
  return frames;
}

describe('zstd: conformance cases re-encoded as dsh writes them', function () {
  this.timeout(120_000);
  if (!hasShared()) {
    it(process.env.CI === 'true' ? 'has the shared corpus' : 'is skipped: no shared corpus', function () {
      if (process.env.CI === 'true') assert.fail(`../shared is required under CI=true (looked in ${sharedDir()})`);
      this.skip();
    });
    return;
  }
  const root = join(sharedDir(), 'conformance');
  let encoded = 0;
  for (const dir of ['real', 'mutations', 'scale']) {
    const folder = join(root, dir);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()) {
      const path = join(folder, name);
      const expected = JSON.parse(readFileSync(path.replace(/\.jsonl$/, '.expected.json'), 'utf8'));
      const bytes = new Uint8Array(readFileSync(path));
      if (!expected.ok || bytes[bytes.length - 1] !== 0x0a) continue;
      encoded++;
      it(`${dir}/${name.replace(/\.jsonl$/, '')}`, () => {
        const compressed = concatBytes(dshFrames(bytes, name));
        const loaded = loadSessionFile(compressed, { fileName: `${name}.zstd` });
        assert.ok(loaded.zstd, 'read as zstd');
        assert.equal(loaded.zstd!.frames > 1, true);
        const mismatches = compareWithExpected(loaded.log, expected);
        if (mismatches.length > 0) assert.fail(`${dir}/${name} as zstd disagrees with its expected.json:\n  ${mismatches.join('\n  ')}`);
      });
    }
  }
  it('re-encoded a large share of the corpus', () => assert.ok(encoded > 150, `only ${encoded} cases were ok and newline-terminated`));
});

describe('zstd: damaged frames in a log', () => {
  const text = encoder.encode(richLog().text());
  // Stored blocks keep the content visible in the file, so a test can damage exactly one byte of it.
  const frames = dshFrames(text, 'damaged', (b) => encodeRawZstdFrame(b, { blockSize: 256 }));
  const middle = Math.floor(frames.length / 2);
  const offsetOf = (index: number) => frames.slice(0, index).reduce((n, f) => n + f.length, 0);
  const plain = loadSessionFile(text).log;

  it('the undamaged encoding loads like the plain text', () => {
    const loaded = loadSessionFile(concatBytes(frames));
    assert.equal(loaded.log.verdict.ok, true);
    assert.deepEqual(loaded.log.surface(), plain.surface());
  });

  it('a corrupt middle frame (reserved block type) refuses the log at stage parse', () => {
    const bytes = concatBytes(frames);
    // Block header right after the 4-byte magic, frame header descriptor and (single-segment) content size.
    const frameStart = offsetOf(middle);
    const descriptor = bytes[frameStart + 4];
    const fcsBytes = [1, 2, 4, 8][descriptor >> 6] ?? 1;
    const blockHeader = frameStart + 5 + (descriptor & 0x20 ? 0 : 1) + fcsBytes;
    bytes[blockHeader] |= 0x06; // block type 3: reserved
    const log = loadSessionFile(bytes).log;
    assert.equal(log.verdict.ok, false);
    assert.equal(log.verdict.stage, 'parse');
    assert.equal(log.verdict.rule, 'zstd.frame-corrupt');
    assert.ok(log.eventCount > 0 && log.eventCount < plain.eventCount, 'the frames before the damage are still shown');
  });

  it('a bad checksum in a middle frame refuses the log at stage parse', () => {
    const bytes = concatBytes(frames);
    const end = offsetOf(middle + 1);
    bytes[end - 1] ^= 0xff; // the last byte of the frame is its content checksum
    const log = loadSessionFile(bytes).log;
    assert.equal(log.verdict.stage, 'parse');
    assert.equal(log.verdict.rule, 'zstd.checksum');
  });

  it('a complete frame ending mid-line refuses the log', () => {
    const lines = richLog()
      .text()
      .split('\n')
      .filter((l) => l);
    const cut = lines[3].length >> 1;
    const torn = [
      encodeZstdFrame(encoder.encode(lines[0] + '\n')),
      encodeZstdFrame(encoder.encode(lines[1] + '\n' + lines[2] + '\n' + lines[3].slice(0, cut))),
      encodeZstdFrame(encoder.encode(lines[3].slice(cut) + '\n')),
    ];
    const log = loadSessionFile(concatBytes(torn)).log;
    assert.equal(log.verdict.ok, false);
    assert.equal(log.verdict.rule, 'zstd.torn-record');
    assert.equal(log.verdict.dshError, 'corrupt Zstandard session log: complete frame contains a torn JSONL record');
  });

  it('a truncated final frame is a torn tail: its complete lines are kept and the log loads', () => {
    const last = frames[frames.length - 1];
    const bytes = concatBytes(frames).subarray(0, offsetOf(frames.length - 1) + last.length - 5);
    const loaded = loadSessionFile(bytes);
    assert.equal(loaded.log.verdict.ok, true);
    assert.equal(loaded.zstd?.tornFrameStart, offsetOf(frames.length - 1));
    const kept = loaded.log.eventCount;
    assert.ok(kept <= plain.eventCount && kept >= loadSessionFile(concatBytes(frames.slice(0, -1))).log.eventCount);
  });
});
