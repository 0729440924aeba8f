// The small checks the v4 relationships are written with, worded as dsh words them.
import { SessionFormatError } from '../../errors';
import { isJsonObject, formatCount, type JsonObject } from '../../json';

export function record(value: unknown, subject: string): JsonObject {
  if (!isJsonObject(value)) throw new SessionFormatError(`${subject} requires an object`);
  return value;
}

export function nonEmptyText(value: unknown, subject: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new SessionFormatError(`${subject} requires a nonempty string`);
  return value;
}

export function list(value: unknown, subject: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new SessionFormatError(`${subject} requires an array`);
  return value;
}

/** A seq that names an event before `seq`. */
export function earlierSeq(value: unknown, seq: number, subject: string): number {
  const coordinate = formatCount(value, subject);
  if (coordinate >= seq) throw new SessionFormatError(`${subject} must name an earlier event`);
  return coordinate;
}

/** Deep equality of two JSON values (key order ignored, as Node's isDeepStrictEqual does for plain data). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameJson(a[key], b[key]));
}
