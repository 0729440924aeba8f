// The read limits every command that loads a log accepts: `--max-line-bytes N` and `--max-text-bytes N`,
// in bytes or with a binary suffix (`256MiB`, `2GiB`, `64k`), handed to the core as LoadOptions.limits.
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../core';
import type { OptionSpec } from './args';
import { UsageError } from './registry';

export const LIMIT_OPTIONS: OptionSpec = {
  'max-line-bytes': { type: 'string' },
  'max-text-bytes': { type: 'string' },
};

/** The usage words for the limit options (one line in each command's --help). */
export const LIMITS_HELP =
  `read limits: --max-line-bytes N (default ${sizeText(DEFAULT_READ_LIMITS.maxLineBytes)}), --max-text-bytes N (default ${sizeText(DEFAULT_READ_LIMITS.maxTextBytes)}); ` +
  'N in bytes or with a suffix K, M, G (KiB, MiB, GiB)';

const UNITS: Record<string, number> = { '': 1, k: 1024, kib: 1024, m: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gib: 1024 ** 3 };

/** The limits given on the command line (only those given: the core fills in its defaults). */
export function readLimits(values: Record<string, string | boolean | undefined>): Partial<ReadLimits> {
  const limits: Partial<ReadLimits> = {};
  const line = values['max-line-bytes'];
  const text = values['max-text-bytes'];
  if (line !== undefined) limits.maxLineBytes = byteSize('max-line-bytes', line);
  if (text !== undefined) limits.maxTextBytes = byteSize('max-text-bytes', text);
  return limits;
}

/** A size such as `1048576`, `512KiB`, `256MiB` or `2G`: a whole number of bytes of at least 1. */
export function byteSize(name: string, text: string | boolean): number {
  const match = typeof text === 'string' ? /^(\d+)\s*([a-z]*)$/i.exec(text.trim()) : null;
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
  const value = match && unit !== undefined ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(
      `--${name} takes a size in bytes of at least 1, optionally with a suffix K, M or G (KiB, MiB, GiB), not "${String(text)}"`,
    );
  }
  return value;
}

function sizeText(bytes: number): string {
  for (const [suffix, unit] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes % unit === 0) return `${bytes / unit}${suffix}`;
  }
  return String(bytes);
}
