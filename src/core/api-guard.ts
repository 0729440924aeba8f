// The public functions take whatever a caller hands them (a host, a script, a fuzzer): wrong types,
// BigInts, throwing getters, cycles. They refuse such input with a diagnostic instead of throwing.
import type { LoadOptions, ReadLimits } from './api';
import { textDecoderSlicer, type Utf8Slicer } from './read/columns';
import type { Diagnostic } from './types';
import { asNativeZstd } from './zstd/backend';
import { valueText } from './value-text';
export { asBytes, plainView } from './bytes';

export function badInput(what: string, value: unknown): Diagnostic {
  return { severity: 'error', rule: 'api.bad-input', message: `${what}, got ${describeValue(value)}` };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') {
    let name: string | undefined;
    try {
      name = (value as object).constructor?.name;
    } catch {
      name = undefined;
    }
    return `${typeof name === 'string' ? `a ${name}` : 'an object'} (${valueText(value, 60)})`;
  }
  return `${typeof value} ${valueText(value, 60)}`;
}

function read<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** Options made by safeLoadOptions (so a second pass over them is not needed). */
const SAFE_OPTIONS = new WeakSet<object>();

export function isSafeLoadOptions(options: unknown): options is LoadOptions {
  return typeof options === 'object' && options !== null && SAFE_OPTIONS.has(options);
}

/** The options as the core reads them: each field read once, checked, and dropped when unusable. */
export function safeLoadOptions(options: unknown): LoadOptions {
  const out: LoadOptions = {};
  SAFE_OPTIONS.add(out);
  if (typeof options !== 'object' || options === null) return out;
  const o = options as Record<string, unknown>;
  const fileName = read(() => o.fileName);
  if (typeof fileName === 'string') out.fileName = fileName;
  const onProgress = read(() => o.onProgress);
  if (typeof onProgress === 'function') {
    out.onProgress = (fraction) => {
      try {
        (onProgress as (f: number) => void)(fraction);
      } catch {
        // a caller's progress callback cannot stop the load
      }
    };
  }
  if (read(() => o.provenanceEdges) === false) out.provenanceEdges = false;
  const slicer = read(() => o.utf8Slicer);
  if (typeof slicer === 'function') out.utf8Slicer = checkedSlicer(slicer as Utf8Slicer);
  const codec = asNativeZstd(read(() => o.zstdCodec));
  if (codec) out.zstdCodec = codec;
  const limits = read(() => o.limits);
  if (typeof limits === 'object' && limits !== null) {
    const l: Partial<ReadLimits> = {};
    for (const key of ['maxLineBytes', 'maxTextBytes'] as const) {
      const v = read(() => (limits as Record<string, unknown>)[key]);
      if (typeof v === 'number' && v >= 0) l[key] = v;
    }
    out.limits = l;
  }
  return out;
}

/**
 * A caller's UTF-8 decoder, trusted only for what it returns: where it throws or returns anything but a
 * string, TextDecoder decodes instead, so a faulty decoder cannot stop a load or change what it reads.
 */
function checkedSlicer(slicer: Utf8Slicer): Utf8Slicer {
  return (bytes) => {
    const decodeHere = textDecoderSlicer(bytes);
    let slice: unknown;
    try {
      slice = slicer(bytes);
    } catch {
      return decodeHere;
    }
    if (typeof slice !== 'function') return decodeHere;
    return (start, end) => {
      try {
        const text: unknown = (slice as (s: number, e: number) => unknown)(start, end);
        if (typeof text === 'string') return text;
      } catch {
        // decoded below
      }
      return decodeHere(start, end);
    };
  };
}

/** A sequence number a caller passed: a non-negative safe integer, else undefined. */
export function asSeq(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * A caller's list of seqs below `limit` (a log's nodes), copied; undefined when it is not an array of
 * such seqs or is longer than `limit` (no list of a log's nodes is: a Proxy claiming 2^32−1 items is
 * refused before one is read).
 */
export function asSeqList(value: unknown, limit: number): number[] | undefined {
  try {
    if (!Array.isArray(value)) return undefined;
    const length: unknown = value.length;
    if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0 || length > limit) return undefined;
    const out: number[] = [];
    for (let i = 0; i < length; i++) {
      const seq = asSeq(value[i]);
      if (seq === undefined || seq >= limit) return undefined;
      out.push(seq);
    }
    return out;
  } catch {
    return undefined;
  }
}

/** A field of a caller's object, read once; undefined where reading it throws (a getter, a Proxy). */
export function readField(value: unknown, key: string): unknown {
  try {
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}
