// The native Zstandard codec a host may hand to the core: Node's zlib has `zstdDecompressSync` /
// `zstdCompressSync` from Node 22.15 / 23.8 on; Node 20 and browsers do not. The core never reaches for
// Node modules itself: the CLI and the extension host pass the codec in (LoadOptions.zstdCodec), and
// without one the core decodes with the pure-JS fzstd.

/** The subset of `node:zlib` used here. */
export interface NativeZstd {
  zstdDecompressSync(buf: Uint8Array, options?: { params?: Record<number, number>; maxOutputLength?: number }): Uint8Array;
  zstdCompressSync(buf: Uint8Array, options?: { params?: Record<number, number> }): Uint8Array;
  constants: Record<string, number>;
}

/** `candidate` as a codec when it has both zstd functions and the constants (else undefined). */
export function asNativeZstd(candidate: unknown): NativeZstd | undefined {
  const zlib = candidate as Partial<NativeZstd> | null | undefined;
  return zlib &&
    typeof zlib.zstdDecompressSync === 'function' &&
    typeof zlib.zstdCompressSync === 'function' &&
    typeof zlib.constants === 'object'
    ? (zlib as NativeZstd)
    : undefined;
}
