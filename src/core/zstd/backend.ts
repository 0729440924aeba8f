// Which native Zstandard codec the running JavaScript engine offers. Node ≥ 22.15 / 23.8 has
// `zlib.zstdDecompressSync` / `zlib.zstdCompressSync`; Node 20 and browsers do not. The module is reached
// through `process.getBuiltinModule` (Node ≥ 20.16), never through an import or `require`, so this file
// loads (and bundles) anywhere and simply reports "no native codec" outside a recent Node.

/** The subset of `node:zlib` used here. */
export interface NativeZstd {
  zstdDecompressSync(buf: Uint8Array, options?: { params?: Record<number, number> }): Uint8Array;
  zstdCompressSync(buf: Uint8Array, options?: { params?: Record<number, number> }): Uint8Array;
  constants: Record<string, number>;
}

let cached: NativeZstd | null | undefined;

/** Node's zlib when it has zstd support, else undefined. */
export function nativeZstd(): NativeZstd | undefined {
  if (cached === undefined) cached = probe();
  return cached ?? undefined;
}

function probe(): NativeZstd | null {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const zlib = proc?.getBuiltinModule?.('node:zlib') as Partial<NativeZstd> | undefined;
    if (zlib && typeof zlib.zstdDecompressSync === 'function' && typeof zlib.zstdCompressSync === 'function' && zlib.constants) {
      return zlib as NativeZstd;
    }
  } catch {
    // not Node, or a sandbox without builtins
  }
  return null;
}
