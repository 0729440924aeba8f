// Goal changes and schedule changes (both versioned records with an operation).
import { SessionFormatError } from '../../errors';
import { assertExactKeys, jsonObject, type JsonObject } from '../../json';
import { countValue, exactRecord, literalValue, nonEmptyString, positiveInteger } from './values';

export function goalChange(data: JsonObject, label: string): void {
  literalValue(data['kind'], ['goal/change'], `${label} kind`);
  literalValue(data['version'], [1], `${label} version`);
  if (data['operation'] === 'clear') {
    assertExactKeys(data, ['kind', 'version', 'operation', 'cleared', 'clearedAt'], [], `${label} data`);
    goalRef(data['cleared'], `${label} cleared`);
    countValue(data['clearedAt'], `${label} clearedAt`);
    return;
  }
  assertExactKeys(data, ['kind', 'version', 'operation', 'goal', 'roundsStarted', 'createdAt', 'updatedAt'], [], `${label} data`);
  literalValue(data['operation'], ['create', 'edit', 'pause', 'resume', 'complete', 'block'], `${label} operation`);
  goalSnapshot(data['goal'], `${label} goal`);
  countValue(data['roundsStarted'], `${label} roundsStarted`);
  countValue(data['createdAt'], `${label} createdAt`);
  countValue(data['updatedAt'], `${label} updatedAt`);
}

function goalRef(value: unknown, label: string): void {
  const ref = exactRecord(value, label, ['id', 'revision']);
  nonEmptyString(ref['id'], `${label} id`);
  positiveInteger(ref['revision'], `${label} revision`);
}

function goalSnapshot(value: unknown, label: string): void {
  const goal = exactRecord(value, label, ['id', 'revision', 'objective', 'phase', 'maxGoalRounds'], ['blockedReason']);
  nonEmptyString(goal['id'], `${label} id`);
  positiveInteger(goal['revision'], `${label} revision`);
  nonEmptyString(goal['objective'], `${label} objective`);
  literalValue(goal['phase'], ['active', 'paused', 'blocked', 'complete'], `${label} phase`);
  positiveInteger(goal['maxGoalRounds'], `${label} maxGoalRounds`);
  if (goal['phase'] === 'blocked') {
    const reason = exactRecord(goal['blockedReason'], `${label} blockedReason`, ['code', 'message']);
    nonEmptyString(reason['code'], `${label} blocked code`);
    nonEmptyString(reason['message'], `${label} blocked message`);
  } else if (goal['blockedReason'] !== undefined) throw new SessionFormatError(`${label} blockedReason requires blocked phase`);
}

export function scheduleChange(data: JsonObject, label: string): void {
  literalValue(data['version'], [1], `${label} version`);
  if (data['operation'] === 'create') {
    assertExactKeys(data, ['version', 'operation', 'schedule'], [], `${label} data`);
    scheduleRecord(data['schedule'], `${label} schedule`);
    return;
  }
  assertExactKeys(data, ['version', 'operation', 'id'], data['operation'] === 'dispatch' ? ['acceptedAt'] : [], `${label} data`);
  literalValue(data['operation'], ['delete', 'dispatch'], `${label} operation`);
  scheduleId(data['id'], `${label} id`);
  if (data['acceptedAt'] !== undefined) instant(data['acceptedAt'], `${label} acceptedAt`);
}

function scheduleRecord(value: unknown, label: string): void {
  const record = jsonObject(value, label);
  if (record['kind'] === 'after') {
    assertExactKeys(record, ['id', 'kind', 'prompt', 'afterSeconds', 'scheduledAt'], [], label);
    positiveInteger(record['afterSeconds'], `${label} afterSeconds`);
  } else if (record['kind'] === 'at') assertExactKeys(record, ['id', 'kind', 'prompt', 'scheduledAt'], [], label);
  else if (record['kind'] === 'every') {
    assertExactKeys(record, ['id', 'kind', 'prompt', 'everySeconds', 'scheduledAt'], [], label);
    if (positiveInteger(record['everySeconds'], `${label} everySeconds`) < 300)
      throw new SessionFormatError(`${label} everySeconds must be at least 300`);
  } else throw new SessionFormatError(`${label} has unknown schedule kind`);
  scheduleId(record['id'], `${label} id`);
  nonEmptyString(record['prompt'], `${label} prompt`);
  instant(record['scheduledAt'], `${label} scheduledAt`);
}

function scheduleId(value: unknown, label: string): void {
  nonEmptyString(value, label);
  if ((value as string).trim() !== value) throw new SessionFormatError(`${label} must not have surrounding whitespace`);
}

const CANONICAL_INSTANT = /^(?!0000)\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/u;

/** An ISO instant exactly as `Date.prototype.toISOString` writes it. */
function instant(value: unknown, label: string): void {
  const valid =
    typeof value === 'string' &&
    CANONICAL_INSTANT.test(value) &&
    Number.isFinite(Date.parse(value)) &&
    new Date(Date.parse(value)).toISOString() === value;
  if (!valid) throw new SessionFormatError(`${label} must be a canonical UTC instant`);
}
