// XXH64 (seed 0), the hash behind the Zstandard content checksum (RFC 8878 §3.1.1: the checksum is the
// low 32 bits of XXH64 of the decompressed content, stored little-endian).
//
// JavaScript has no fast 64-bit integer arithmetic (BigInt allocates), so every 64-bit value is kept as two
// int32 halves (hi, lo) and the 64x64 -> low-64 products are built from 16-bit limbs and Math.imul. All
// intermediate values stay int32 so V8 keeps them unboxed. The helpers hand results back through the
// module-level registers RH/RL (and LANE_H) instead of allocating a pair per operation.

// The five XXH64 primes, split into 32-bit halves.
const P1H = 0x9e3779b1 | 0,
  P1L = 0x85ebca87 | 0;
const P2H = 0xc2b2ae3d | 0,
  P2L = 0x27d4eb4f | 0;
const P3H = 0x165667b1 | 0,
  P3L = 0x9e3779f9 | 0;
const P4H = 0x85ebca77 | 0,
  P4L = 0xc2b2ae63 | 0;
const P5H = 0x27d4eb2f | 0,
  P5L = 0x165667c5 | 0;
const P2L0 = P2L & 0xffff,
  P2L1 = P2L >>> 16,
  P1L0 = P1L & 0xffff,
  P1L1 = P1L >>> 16;

let RH = 0;
let RL = 0;
let LANE_H = 0;

/** (aH:aL) * (bH:bL) mod 2^64 into RH:RL. */
function mul(aH: number, aL: number, bH: number, bL: number): void {
  const a0 = aL & 0xffff,
    a1 = aL >>> 16,
    b0 = bL & 0xffff,
    b1 = bL >>> 16;
  const p00 = Math.imul(a0, b0),
    p01 = Math.imul(a0, b1),
    p10 = Math.imul(a1, b0);
  // Carry out of the low 32 bits of aL*bL, computed from the 16-bit limbs.
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  RL = Math.imul(aL, bL);
  RH = (Math.imul(a1, b1) + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(aL, bH) + Math.imul(aH, bL)) | 0;
}

/** (aH:aL) + (bH:bL) mod 2^64 into RH:RL. */
function add(aH: number, aL: number, bH: number, bL: number): void {
  const lo = (aL + bL) | 0;
  // carry out of the low words, from their top bits
  RH = (((aH + bH) | 0) + (((aL & bL) | ((aL | bL) & ~lo)) >>> 31)) | 0;
  RL = lo;
}

/**
 * The XXH64 round rotl(acc + input * P2, 31) * P1, written out with locals (the bulk of the time is
 * spent here): returns the low half, leaves the high half in LANE_H.
 */
function round(vH: number, vL: number, iH: number, iL: number): number {
  // m = input * P2
  let a0 = iL & 0xffff,
    a1 = iL >>> 16;
  let p00 = Math.imul(a0, P2L0),
    p01 = Math.imul(a0, P2L1),
    p10 = Math.imul(a1, P2L0);
  let mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const mL = Math.imul(iL, P2L);
  const mH = Math.imul(a1, P2L1) + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(iL, P2H) + Math.imul(iH, P2L);
  // s = acc + m
  const sL = (vL + mL) | 0;
  const sH = (((vH + mH) | 0) + (((vL & mL) | ((vL | mL) & ~sL)) >>> 31)) | 0;
  // r = rotl(s, 31)
  const rH = (sH << 31) | (sL >>> 1),
    rL = (sL << 31) | (sH >>> 1);
  // r * P1
  a0 = rL & 0xffff;
  a1 = rL >>> 16;
  p00 = Math.imul(a0, P1L0);
  p01 = Math.imul(a0, P1L1);
  p10 = Math.imul(a1, P1L0);
  mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  LANE_H = (Math.imul(a1, P1L1) + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(rL, P1H) + Math.imul(rH, P1L)) | 0;
  return Math.imul(rL, P1L);
}

/** acc = (acc ^ round(0, val)) * P1 + P4, into RH:RL. */
function mergeRound(accH: number, accL: number, vH: number, vL: number): void {
  const rL = round(0, 0, vH, vL);
  mul(accH ^ LANE_H, accL ^ rL, P1H, P1L);
  add(RH, RL, P4H, P4L);
}

function rotlH(h: number, l: number, r: number): number {
  return (h << r) | (l >>> (32 - r));
}
function rotlL(h: number, l: number, r: number): number {
  return (l << r) | (h >>> (32 - r));
}

function u32(b: Uint8Array, p: number): number {
  return b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** The four accumulators v1..v4 as hi, lo pairs. */
const LANES = new Int32Array(8);

/** The 32-byte stripes of bytes[p, p + 32 * count) into LANES; aligned input is read as words. */
function stripes(bytes: Uint8Array, p: number, count: number): void {
  const at = bytes.byteOffset + p;
  if (LITTLE_ENDIAN && (at & 3) === 0 && count >= 32) stripeWords(new Int32Array(bytes.buffer, at, count * 8), count);
  else stripeBytes(bytes, p, count);
}

function stripeWords(w: Int32Array, count: number): void {
  const v = LANES;
  let v0 = v[0],
    v1 = v[1],
    v2 = v[2],
    v3 = v[3],
    v4 = v[4],
    v5 = v[5],
    v6 = v[6],
    v7 = v[7];
  for (let q = 0, end = count * 8; q < end; q += 8) {
    v1 = round(v0, v1, w[q + 1], w[q]);
    v0 = LANE_H;
    v3 = round(v2, v3, w[q + 3], w[q + 2]);
    v2 = LANE_H;
    v5 = round(v4, v5, w[q + 5], w[q + 4]);
    v4 = LANE_H;
    v7 = round(v6, v7, w[q + 7], w[q + 6]);
    v6 = LANE_H;
  }
  v[0] = v0;
  v[1] = v1;
  v[2] = v2;
  v[3] = v3;
  v[4] = v4;
  v[5] = v5;
  v[6] = v6;
  v[7] = v7;
}

function stripeBytes(b: Uint8Array, p: number, count: number): void {
  const v = LANES;
  let v0 = v[0],
    v1 = v[1],
    v2 = v[2],
    v3 = v[3],
    v4 = v[4],
    v5 = v[5],
    v6 = v[6],
    v7 = v[7];
  for (const end = p + count * 32; p < end; p += 32) {
    v1 = round(v0, v1, u32(b, p + 4), u32(b, p));
    v0 = LANE_H;
    v3 = round(v2, v3, u32(b, p + 12), u32(b, p + 8));
    v2 = LANE_H;
    v5 = round(v4, v5, u32(b, p + 20), u32(b, p + 16));
    v4 = LANE_H;
    v7 = round(v6, v7, u32(b, p + 28), u32(b, p + 24));
    v6 = LANE_H;
  }
  v[0] = v0;
  v[1] = v1;
  v[2] = v2;
  v[3] = v3;
  v[4] = v4;
  v[5] = v5;
  v[6] = v6;
  v[7] = v7;
}

/** XXH64 with seed 0 of `bytes[start, end)`, left in RH:RL. */
function hash(bytes: Uint8Array, start: number, end: number): void {
  const len = end - start;
  let p = start;
  let hH: number, hL: number;
  if (len >= 32) {
    // v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1 (seed 0)
    add(P1H, P1L, P2H, P2L);
    LANES[0] = RH;
    LANES[1] = RL;
    LANES[2] = P2H;
    LANES[3] = P2L;
    LANES[4] = 0;
    LANES[5] = 0;
    add(~P1H, ~P1L, 0, 1);
    LANES[6] = RH;
    LANES[7] = RL;
    const count = Math.floor(len / 32);
    stripes(bytes, p, count);
    p += count * 32;
    const v1H = LANES[0],
      v1L = LANES[1],
      v2H = LANES[2],
      v2L = LANES[3];
    const v3H = LANES[4],
      v3L = LANES[5],
      v4H = LANES[6],
      v4L = LANES[7];
    add(rotlH(v1H, v1L, 1), rotlL(v1H, v1L, 1), rotlH(v2H, v2L, 7), rotlL(v2H, v2L, 7));
    add(RH, RL, rotlH(v3H, v3L, 12), rotlL(v3H, v3L, 12));
    add(RH, RL, rotlH(v4H, v4L, 18), rotlL(v4H, v4L, 18));
    mergeRound(RH, RL, v1H, v1L);
    mergeRound(RH, RL, v2H, v2L);
    mergeRound(RH, RL, v3H, v3L);
    mergeRound(RH, RL, v4H, v4L);
    hH = RH;
    hL = RL;
  } else {
    hH = P5H;
    hL = P5L;
  }
  // h += len (len < 2^53: split into halves)
  add(hH, hL, Math.floor(len / 0x100000000) | 0, len | 0);
  hH = RH;
  hL = RL;
  for (; p + 8 <= end; p += 8) {
    const kL = round(0, 0, u32(bytes, p + 4), u32(bytes, p));
    const xH = hH ^ LANE_H,
      xL = hL ^ kL;
    mul(rotlH(xH, xL, 27), rotlL(xH, xL, 27), P1H, P1L);
    add(RH, RL, P4H, P4L);
    hH = RH;
    hL = RL;
  }
  if (p + 4 <= end) {
    mul(0, u32(bytes, p), P1H, P1L);
    const xH = hH ^ RH,
      xL = hL ^ RL;
    mul(rotlH(xH, xL, 23), rotlL(xH, xL, 23), P2H, P2L);
    add(RH, RL, P3H, P3L);
    hH = RH;
    hL = RL;
    p += 4;
  }
  for (; p < end; p++) {
    mul(0, bytes[p], P5H, P5L);
    const xH = hH ^ RH,
      xL = hL ^ RL;
    mul(rotlH(xH, xL, 11), rotlL(xH, xL, 11), P1H, P1L);
    hH = RH;
    hL = RL;
  }
  // avalanche
  hL ^= hH >>> 1; // h ^= h >>> 33
  mul(hH, hL, P2H, P2L);
  hH = RH;
  hL = RL;
  hL ^= (hL >>> 29) | (hH << 3);
  hH ^= hH >>> 29; // h ^= h >>> 29
  mul(hH, hL, P3H, P3L);
  hH = RH;
  hL = RL;
  hL ^= hH; // h ^= h >>> 32
  RH = hH;
  RL = hL;
}

/** Low 32 bits of XXH64(bytes[start, end), seed 0), unsigned: the Zstandard content checksum. */
export function xxh64Low32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  hash(bytes, start, end);
  return RL >>> 0;
}

/** Full XXH64(bytes[start, end), seed 0) as 16 lowercase hex digits. */
export function xxh64Hex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  hash(bytes, start, end);
  return (RH >>> 0).toString(16).padStart(8, '0') + (RL >>> 0).toString(16).padStart(8, '0');
}
