// The format layer's JSON helpers, with dsh's rules and messages (they appear verbatim in verdicts).
// Values come from log lines, so every walk here is iterative: a value nested thousands of levels
// deep is answered, never a RangeError.
import { SessionFormatError } from './errors';
import type { LogicalHeader } from './types';
import { jsonText } from '../value-text';

export type JsonObject = Record<string, unknown>;

/** A non-null, non-array object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` as an object, or `<label> must be a JSON object`. */
export function jsonObject(value: unknown, label: string): JsonObject {
  if (!isJsonObject(value)) throw new SessionFormatError(`${label} must be a JSON object`);
  return value;
}

/** A non-negative safe integer; `-0` is refused (JSON would write it as 0). */
export function formatCount(value: unknown, label: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0 || Object.is(value, -0))
    throw new SessionFormatError(`${label} must be a non-negative safe integer`);
  return value as number;
}

/** A safe integer; `-0` is refused. */
export function formatSafeInteger(value: unknown, label: string): number {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) throw new SessionFormatError(`${label} must be a safe integer`);
  return value as number;
}

export function formatVersion(value: unknown, label = 'Session format version'): number {
  return formatCount(value, label);
}

/** The stored version of a physical header, read before anything version-specific. */
export function inspectFormatVersion(headerValue: unknown): number {
  if (!isJsonObject(headerValue)) throw new SessionFormatError('Session header must be a JSON object');
  return formatVersion(headerValue['version']);
}

/** A member found where the exact-keys rule says it must not be, or missing where it must be. */
export interface KeyProblem {
  kind: 'unexpected' | 'missing';
  key: string;
}

/**
 * The first breach of "exactly these keys": with `unexpected-first` (dsh's v0/v1 codec) an unexpected
 * member is named before a missing one; with `missing-first` (dsh's v2 codec) the other way round.
 */
export function findKeyProblem(
  record: JsonObject,
  required: readonly string[],
  optional: readonly string[],
  order: 'unexpected-first' | 'missing-first' = 'unexpected-first',
): KeyProblem | undefined {
  const unexpected = (): KeyProblem | undefined => {
    for (const key of Object.keys(record)) if (!required.includes(key) && !optional.includes(key)) return { kind: 'unexpected', key };
    return undefined;
  };
  const missing = (): KeyProblem | undefined => {
    for (const key of required) if (!Object.hasOwn(record, key)) return { kind: 'missing', key };
    return undefined;
  };
  return order === 'unexpected-first' ? (unexpected() ?? missing()) : (missing() ?? unexpected());
}

/** Exactly the required members plus any of the optional ones, with dsh's v0/v1 messages. */
export function assertExactKeys(record: JsonObject, required: readonly string[], optional: readonly string[], label: string): void {
  const problem = findKeyProblem(record, required, optional);
  if (problem?.kind === 'unexpected') throw new SessionFormatError(`${label} has unexpected member ${JSON.stringify(problem.key)}`);
  if (problem?.kind === 'missing') throw new SessionFormatError(`${label} lacks required member ${JSON.stringify(problem.key)}`);
}

/** One pending step of the snapshot walk: a value to copy into `into[key]`, or a finished container. */
interface Pending {
  value: unknown;
  into: JsonObject | unknown[] | undefined;
  key: string | number;
  leave?: object;
}

/**
 * A detached copy of a lossless JSON value, or undefined when the value is not lossless JSON (dsh's
 * rules: finite numbers but not -0, plain arrays without holes or extra keys, plain or null-prototype
 * objects with enumerable string keys only, no cycles, nothing but null, booleans, strings, numbers,
 * arrays and objects). Iterative.
 */
export function snapshotLosslessJson(value: unknown): unknown {
  const root: { value?: unknown } = {};
  return walkLossless(value, root) ? root.value : undefined;
}

/** The same rules without copying. */
export function isLosslessJson(value: unknown): boolean {
  return walkLossless(value, undefined);
}

function walkLossless(value: unknown, root: { value?: unknown } | undefined): boolean {
  const ancestors = new Set<object>();
  const stack: Pending[] = [{ value, into: undefined, key: 0 }];
  const place = (item: Pending, copy: unknown): void => {
    if (!root) return;
    if (item.into === undefined) root.value = copy;
    else if (Array.isArray(item.into)) item.into[item.key as number] = copy;
    else Object.defineProperty(item.into, item.key, { value: copy, enumerable: true, configurable: true, writable: true });
  };
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.leave) {
      ancestors.delete(item.leave);
      continue;
    }
    const current = item.value;
    if (current === null || typeof current === 'boolean' || typeof current === 'string') {
      place(item, current);
      continue;
    }
    if (typeof current === 'number') {
      if (!Number.isFinite(current) || Object.is(current, -0)) return false;
      place(item, current);
      continue;
    }
    if (typeof current !== 'object' || ancestors.has(current)) return false;
    const keys = plainKeys(current);
    if (keys === undefined) return false;
    const array = Array.isArray(current);
    const copy: JsonObject | unknown[] | undefined = root ? (array ? [] : {}) : undefined;
    place(item, copy);
    ancestors.add(current);
    stack.push({ value: undefined, into: undefined, key: 0, leave: current });
    const source = current as Record<string, unknown>;
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = array ? i : keys[i];
      if (array && !Object.hasOwn(current, i)) return false;
      stack.push({ value: source[key as string], into: copy, key });
    }
  }
  return true;
}

/** The JSON-visible keys of a plain array or object, or undefined when JSON would lose something. */
function plainKeys(value: object): string[] | undefined {
  if (Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Array.prototype && !(Array.isArray(proto) && Object.getPrototypeOf(proto) === Object.prototype)) return undefined;
    if (Reflect.ownKeys(value).length !== value.length + 1) return undefined;
    return new Array<string>(value.length);
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype) return undefined;
  const keys = Reflect.ownKeys(value);
  for (const key of keys) if (typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(value, key)) return undefined;
  return keys as string[];
}

/** A detached lossless copy, or `<label> is not lossless JSON`. */
export function snapshotFormatJson(value: unknown, label = 'Session value'): unknown {
  const snapshot = snapshotLosslessJson(value);
  if (snapshot === undefined) throw new SessionFormatError(`${label} is not lossless JSON`);
  return snapshot;
}

/** A detached logical header with the checks every generation shares (dsh's messages). */
export function snapshotFormatHeader(header: unknown, label = 'Session header'): LogicalHeader {
  const snapshot = snapshotFormatJson(header, label);
  if (!isJsonObject(snapshot)) throw new SessionFormatError(`${label} must be a JSON object`);
  inspectFormatVersion(snapshot);
  if (typeof snapshot['id'] !== 'string') throw new SessionFormatError(`${label} id must be a string`);
  formatCount(snapshot['createdAt'], `${label} createdAt`);
  if (typeof snapshot['isSeeded'] !== 'boolean') throw new SessionFormatError(`${label} isSeeded must be a boolean`);
  formatCount(snapshot['delegationDepth'], `${label} delegationDepth`);
  return snapshot as unknown as LogicalHeader;
}

/**
 * Structural equality of two JSON values (object key order ignored), iterative. Same answers as
 * dsh's deepEqualJson for JSON values.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pairs: unknown[] = [a, b];
  while (pairs.length > 0) {
    const right = pairs.pop();
    const left = pairs.pop();
    if (left === right) continue;
    if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
    if (Array.isArray(left) || Array.isArray(right)) {
      if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
      for (let i = 0; i < left.length; i++) pairs.push(left[i], right[i]);
      continue;
    }
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return false;
    for (const key of keys) {
      if (!(key in right)) return false;
      pairs.push((left as JsonObject)[key], (right as JsonObject)[key]);
    }
  }
  return true;
}

/**
 * `JSON.stringify(value)` as dsh writes it into a message, without overflowing on a value nested
 * thousands of levels deep (the same text, built iteratively, in that case).
 */
export function jsonString(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return jsonText(value);
  }
}

/**
 * A value as a template literal (`${value}`) writes it into a message: what dsh's messages show for
 * a value that was never validated. Arrays are joined iteratively (their own toString recurses).
 */
export function templateString(value: unknown): string {
  if (!Array.isArray(value)) return typeof value === 'object' && value !== null ? '[object Object]' : String(value);
  const out: string[] = [];
  const work: unknown[] = [value];
  const SEPARATOR = {};
  while (work.length > 0) {
    const item = work.pop();
    if (item === SEPARATOR) out.push(',');
    else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) {
        work.push(item[i] === null || item[i] === undefined ? '' : item[i]);
        if (i > 0) work.push(SEPARATOR);
      }
    } else out.push(typeof item === 'object' && item !== null ? '[object Object]' : String(item));
  }
  return out.join('');
}
