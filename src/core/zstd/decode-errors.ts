// The failures of decoding one frame, as the frame loop (decode.ts) reports them: a rule broken (with the
// limit, for the read limits), and what Node's zlib says when it refuses a frame. The sizes in the words
// are written as people read them (MiB, hex checksums).
import type { ZstdRule } from './decode-types';

export class FrameError extends Error {
  constructor(
    readonly rule: ZstdRule,
    message: string,
    readonly limit?: number,
  ) {
    super(message);
  }
}

export const hex = (n: number): string => '0x' + (n >>> 0).toString(16).padStart(8, '0');
export const mib = (n: number): string => (n >= 1024 * 1024 ? `${+(n / (1024 * 1024)).toFixed(1)} MiB` : `${n} bytes`);

export function textLimitError(what: string, limit: number): FrameError {
  return new FrameError('limits.text-bytes', `${what} (the text limit is ${mib(limit)}, maxTextBytes)`, limit);
}

export function lineLimitError(limit: number): FrameError {
  return new FrameError('limits.line-bytes', `holds a line longer than the line limit of ${mib(limit)} (maxLineBytes)`, limit);
}

/** What a codec failure says, with its code when it has one. */
export function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? `${e.message}; ${code}` : e.message;
}

/** Node's zlib reports a content checksum mismatch with this code. */
export function isChecksumError(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === 'ZSTD_error_checksum_wrong';
}

/** Node's zlib stops at `maxOutputLength` with this error. */
export function isOutputLimitError(e: unknown): boolean {
  return e instanceof Error && (e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
}
