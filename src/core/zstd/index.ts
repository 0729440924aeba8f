// Zstandard support for dsh session logs: decode a `session.jsonl.zstd` frame by frame (with dsh's rules
// for the header frame, torn records and torn tails) and write frames the way dsh does.
// Pure TypeScript: Node's zlib is used only when a caller hands it in (see backend.ts).
export { decodeZstdLog } from './decode';
export { isZstd } from './frames';
export { effectiveLimits } from './decode-types';
export type { ZstdBackend, ZstdDecodeOptions, ZstdDecodeResult, ZstdLimits, ZstdLogError, ZstdRule } from './decode-types';
export { encodeZstdFrame, encodeRawZstdFrame, encodeDshZstdLog, concatBytes } from './encode';
export type { ZstdEncodeOptions, DshZstdLogOptions, RawFrameOptions } from './encode';
export { scanFrame } from './frames';
export type { FrameScan, ZstdFrameScan } from './frames';
export { xxh64Low32, xxh64Hex } from './xxh64';
export { asNativeZstd } from './backend';
export type { NativeZstd } from './backend';
