// The value rules payload validation is built from, with dsh's messages ("<label> must be …").
import { SessionFormatError } from '../../errors';
import { assertExactKeys, formatCount, formatSafeInteger, jsonObject, type JsonObject } from '../../json';

export type { JsonObject };

/** An object with exactly these members. */
export function exactRecord(value: unknown, label: string, required: readonly string[], optional: readonly string[] = []): JsonObject {
  const record = jsonObject(value, label);
  assertExactKeys(record, required, optional, label);
  return record;
}

export function stringValue(value: unknown, label: string): void {
  if (typeof value !== 'string') throw new SessionFormatError(`${label} must be a string`);
}

export function nonEmptyString(value: unknown, label: string): void {
  if (typeof value !== 'string' || value.length === 0) throw new SessionFormatError(`${label} must be a non-empty string`);
}

export function booleanValue(value: unknown, label: string): void {
  if (typeof value !== 'boolean') throw new SessionFormatError(`${label} must be a boolean`);
}

export function safeIntegerValue(value: unknown, label: string): number {
  return formatSafeInteger(value, label);
}

export function countValue(value: unknown, label: string): number {
  return formatCount(value, label);
}

export function positiveInteger(value: unknown, label: string): number {
  const result = formatCount(value, label);
  if (result === 0) throw new SessionFormatError(`${label} must be positive`);
  return result;
}

export function finiteNumber(value: unknown, label: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Object.is(value, -0))
    throw new SessionFormatError(`${label} must be a finite number`);
  return value;
}

/** One of the listed literals (compared with ===). */
export function literalValue(value: unknown, allowed: readonly unknown[], label: string): void {
  if (!allowed.includes(value) || (typeof value === 'number' && Number.isNaN(value)))
    throw new SessionFormatError(`${label} must be one of ${allowed.map(String).join(', ')}`);
}

/** An array whose every member passes `validate` (labelled `<label>[i]`). */
export function arrayValue(value: unknown, label: string, validate: (member: unknown, memberLabel: string) => void): unknown[] {
  if (!Array.isArray(value)) throw new SessionFormatError(`${label} must be an array`);
  // Holes are skipped as forEach skips them (JSON text cannot make one; a caller's array can).
  for (let i = 0; i < value.length; i++) if (i in value) validate(value[i], `${label}[${i}]`);
  return value;
}

export function coordinatePair(data: JsonObject, label: string): void {
  formatCount(data['turn'], `${label} turn`);
  formatCount(data['step'], `${label} step`);
}

/** A seq of an event before `eventSeq`. */
export function earlierSeq(value: unknown, eventSeq: number, label: string): number {
  const seq = formatCount(value, label);
  if (seq >= eventSeq) throw new SessionFormatError(`${label} must identify an earlier event`);
  return seq;
}

/** Unique earlier seqs. */
export function seqArray(value: unknown, eventSeq: number, label: string, requireNonEmpty: boolean): number[] {
  const seen = new Set<number>();
  const values = arrayValue(value, label, (member, memberLabel) => {
    const seq = earlierSeq(member, eventSeq, memberLabel);
    if (seen.has(seq)) throw new SessionFormatError(`${label} repeats seq ${seq}`);
    seen.add(seq);
  });
  if (requireNonEmpty && values.length === 0) throw new SessionFormatError(`${label} must be non-empty`);
  return values as number[];
}
