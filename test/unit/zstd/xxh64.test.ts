// XXH64 against published values and against a direct BigInt transcription of the algorithm
// (XXH64 specification, seed 0), over every tail length and alignment.
import { strict as assert } from 'node:assert';
import { xxh64Hex, xxh64Low32 } from '../../../src/core/zstd';

const M = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n,
  P2 = 0xc2b2ae3d27d4eb4fn,
  P3 = 0x165667b19e3779f9n,
  P4 = 0x85ebca77c2b2ae63n,
  P5 = 0x27d4eb2f165667c5n;
const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & M;
const round = (acc: bigint, input: bigint): bigint => (rotl((acc + input * P2) & M, 31n) * P1) & M;
const readLE = (b: Uint8Array, p: number, n: number): bigint => {
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[p + i]);
  return v;
};

/** Slow reference: the algorithm as specified, in BigInt. */
function referenceXxh64(b: Uint8Array): bigint {
  const n = b.length;
  let p = 0;
  let h: bigint;
  if (n >= 32) {
    let v1 = (P1 + P2) & M,
      v2 = P2,
      v3 = 0n,
      v4 = -P1 & M;
    for (; p + 32 <= n; p += 32) {
      v1 = round(v1, readLE(b, p, 8));
      v2 = round(v2, readLE(b, p + 8, 8));
      v3 = round(v3, readLE(b, p + 16, 8));
      v4 = round(v4, readLE(b, p + 24, 8));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M;
    for (const v of [v1, v2, v3, v4]) h = ((h ^ round(0n, v)) * P1 + P4) & M;
  } else {
    h = P5;
  }
  h = (h + BigInt(n)) & M;
  for (; p + 8 <= n; p += 8) h = (rotl(h ^ round(0n, readLE(b, p, 8)), 27n) * P1 + P4) & M;
  if (p + 4 <= n) {
    h = (rotl(h ^ ((readLE(b, p, 4) * P1) & M), 23n) * P2 + P3) & M;
    p += 4;
  }
  for (; p < n; p++) h = (rotl(h ^ ((BigInt(b[p]) * P5) & M), 11n) * P1) & M;
  h ^= h >> 33n;
  h = (h * P2) & M;
  h ^= h >> 29n;
  h = (h * P3) & M;
  h ^= h >> 32n;
  return h;
}

/** Deterministic pseudo-random bytes. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('zstd: XXH64', () => {
  it('matches published values', () => {
    const enc = new TextEncoder();
    assert.equal(xxh64Hex(new Uint8Array(0)), 'ef46db3751d8e999');
    assert.equal(xxh64Hex(enc.encode('a')), 'd24ec4f1a98c6e5b');
    assert.equal(xxh64Hex(enc.encode('abc')), '44bc2cf5ad770999');
    assert.equal(xxh64Low32(enc.encode('abc')), 0xad770999);
  });

  it('matches the BigInt reference for every length 0..200 at every alignment', () => {
    const pool = bytes(260, 7);
    for (let len = 0; len <= 200; len++) {
      for (let offset = 0; offset < 4; offset++) {
        const view = pool.subarray(offset, offset + len);
        const expected = referenceXxh64(view).toString(16).padStart(16, '0');
        assert.equal(xxh64Hex(view), expected, `length ${len}, offset ${offset}`);
        assert.equal(xxh64Hex(pool, offset, offset + len), expected, `range form, length ${len}, offset ${offset}`);
      }
    }
  });

  it('matches the reference on large aligned and unaligned inputs (word and byte loops)', () => {
    const big = bytes(70_001, 99);
    for (const [start, end] of [
      [0, 70_000],
      [1, 70_001],
      [2, 65_539],
      [4, 4 + 32 * 40],
    ]) {
      const view = big.subarray(start, end);
      assert.equal(xxh64Hex(view), referenceXxh64(view).toString(16).padStart(16, '0'), `bytes ${start}..${end}`);
    }
  });
});
