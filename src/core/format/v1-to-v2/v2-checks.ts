// Checks with the wording of dsh's v2 and v3 layers, which differs from v0/v1's: an object "must be an
// object" (not "a JSON object"), and an exact-members breach names a missing member first, as a
// "required field", then an unexpected one.
import { SessionFormatError } from '../errors';
import { findKeyProblem, isJsonObject, type JsonObject } from '../json';

export function objectAt(value: unknown, label: string): JsonObject {
  if (!isJsonObject(value)) throw new SessionFormatError(`${label} must be an object`);
  return value;
}

export function requireExactFields(value: JsonObject, required: readonly string[], optional: readonly string[], label: string): void {
  const problem = findKeyProblem(value, required, optional, 'missing-first');
  if (problem?.kind === 'missing') throw new SessionFormatError(`${label} lacks required field ${problem.key}`);
  if (problem?.kind === 'unexpected') throw new SessionFormatError(`${label} has unexpected field ${problem.key}`);
}

/**
 * Whether `key` names an entry of `table`. Only a string can: a value from a log used as a key would
 * otherwise be turned into text, which for an array nested thousands deep overflows the stack.
 */
export function hasEntry(table: object, key: unknown): key is string {
  return typeof key === 'string' && Object.hasOwn(table, key);
}
