// Node's zlib as the core's native Zstandard codec, when the running Node has zstd (22.15 / 23.8 on).
// The CLI, the extension host, the tests and the benchmarks hand it to the core's load functions; the
// core itself never imports Node modules.
import * as zlib from 'node:zlib';
import type { NativeZstd } from '../core';
import { asNativeZstd } from '../core/internal';

/** Node's zlib when it has zstd, else undefined (the core then decodes with fzstd). */
export function zlibZstd(): NativeZstd | undefined {
  return asNativeZstd(zlib);
}
