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
