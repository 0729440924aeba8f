// Small helpers over parsed JSON values, shared by the validators.

export type JsonRecord = Record<string, unknown>;

/** A plain object (not null, not an array). */
export function asRecord(value: unknown): JsonRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : undefined;
}

/** Any non-null object, arrays included (dsh's looser `isRecord`). */
export function isObjectLike(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null;
}

export function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

// The key checks walk the own keys with for-in (skipping inherited ones, so they see what Object.keys
// would) instead of building a key array per call: they run per packed row and per turn/end.

/** Exactly these keys, no others. */
export function hasExactKeys(value: object, keys: readonly string[]): boolean {
  let own = 0;
  for (const k in value) if (hasOwn(value, k)) own++;
  if (own !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (!hasOwn(value, keys[i])) return false;
  return true;
}

/** Every required key present and nothing outside required + optional. */
export function hasOnlyKeys(value: object, required: readonly string[], optional: readonly string[] = []): boolean {
  for (const k in value) if (hasOwn(value, k) && !required.includes(k) && !optional.includes(k)) return false;
  for (let i = 0; i < required.length; i++) if (!hasOwn(value, required[i])) return false;
  return true;
}

export function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

// Structural equality of JSON values, without recursion (json-copy.ts).
export { jsonEqual } from '../json-copy';

/**
 * The message JavaScript would give for reading `prop` of null/undefined, so a refusal that dsh
 * reports as a TypeError carries the same words.
 */
export function nullReadMessage(value: null | undefined, prop: string): string {
  return `Cannot read properties of ${value === null ? 'null' : 'undefined'} (reading '${prop}')`;
}
