// Packed chunk rows (spec §1.4): one storage line standing for ≥ 1 consecutive `assistant/chunk`
// events. Reading always expands them; a malformed row-tagged line is damage, never an event.
import type { SessionEvent } from '../types';
import { hasExactKeys, isObjectLike } from './json-values';

export const ROW_TAGS: ReadonlySet<string> = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks']);

export class MalformedRowError extends Error {}

function malformed(tag: string, why: string): never {
  throw new MalformedRowError(`malformed ${tag} storage row: ${why}`);
}

/** Whether a parsed line is a packed chunk row (by its tag). */
export function isRowTagged(value: unknown): value is Record<string, unknown> {
  return isObjectLike(value) && !Array.isArray(value) && ROW_TAGS.has((value as Record<string, unknown>).type as string);
}

function validateMembers(tag: string, data: Record<string, unknown>, key: 'texts' | 'args'): string[] {
  if (typeof data.turn !== 'number' || typeof data.step !== 'number' || typeof data.index !== 'number') {
    malformed(tag, 'turn/step/index must be numbers');
  }
  const members = data[key];
  if (!Array.isArray(members) || members.length === 0 || !allStrings(members)) malformed(tag, `${key} must be a non-empty string array`);
  const dt = data.dt;
  if (!Array.isArray(dt) || !allSafeIntegers(dt)) malformed(tag, 'dt must be an array of safe integers');
  if (dt.length !== members.length - 1) malformed(tag, `dt length ${dt.length} does not match ${members.length} members`);
  return members as string[];
}

// Plain loops: these run over every member of every packed row.
function allStrings(values: unknown[]): boolean {
  for (let i = 0; i < values.length; i++) if (typeof values[i] !== 'string') return false;
  return true;
}

function allSafeIntegers(values: unknown[]): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isSafeInteger(values[i])) return false;
  return true;
}

// The key lists, made once rather than for every row.
const ROW_KEYS = ['type', 'seq0', 'time0', 'data'];
const TOOL_DATA_KEYS = ['turn', 'step', 'index', 'id', 'name', 'dt', 'args'];
const TOOL_DATA_KEYS_NAMELESS = ['turn', 'step', 'index', 'id', 'dt', 'args'];
const TEXT_DATA_KEYS = ['turn', 'step', 'index', 'dt', 'texts'];

/** Validates a row-tagged value; throws MalformedRowError with dsh's wording. Returns the member count. */
export function validateRow(row: Record<string, unknown>): number {
  const tag = row.type as string;
  if (!hasExactKeys(row, ROW_KEYS)) malformed(tag, 'envelope must be exactly {type, seq0, time0, data}');
  if (!Number.isSafeInteger(row.seq0) || (row.seq0 as number) < 0) malformed(tag, 'seq0 must be a non-negative safe integer');
  if (!Number.isSafeInteger(row.time0)) malformed(tag, 'time0 must be a safe integer');
  const data = row.data;
  if (!isObjectLike(data)) malformed(tag, 'data must be an object');
  let members: string[];
  if (tag === 'tool-call-chunks') {
    const withName = hasExactKeys(data, TOOL_DATA_KEYS);
    if (!withName && !hasExactKeys(data, TOOL_DATA_KEYS_NAMELESS)) {
      malformed(tag, 'data must be exactly {turn, step, index, id, name?, dt, args}');
    }
    if (typeof data.id !== 'string' || (withName && typeof data.name !== 'string'))
      malformed(tag, 'id (and name when present) must be strings');
    members = validateMembers(tag, data, 'args');
  } else {
    if (!hasExactKeys(data, TEXT_DATA_KEYS)) malformed(tag, 'data must be exactly {turn, step, index, dt, texts}');
    members = validateMembers(tag, data, 'texts');
  }
  if (!Number.isSafeInteger((row.seq0 as number) + members.length - 1)) malformed(tag, 'member seqs must stay safe integers');
  let time = row.time0 as number;
  const dt = data.dt as number[];
  for (let i = 0; i < dt.length; i++) {
    time += dt[i];
    if (!Number.isSafeInteger(time)) malformed(tag, 'member times must stay safe integers');
  }
  return members.length;
}

/** Expands member k of a validated row into its `assistant/chunk` event (dsh's key order). */
export function rowMember(row: Record<string, any>, k: number, knownTime?: number): SessionEvent {
  const data = row.data;
  let time = row.time0 as number;
  if (knownTime !== undefined) time = knownTime;
  else for (let i = 0; i < k; i++) time += data.dt[i];
  let chunk: Record<string, unknown>;
  if (row.type === 'tool-call-chunks') {
    chunk = { type: 'tool-call-delta', index: data.index, id: data.id };
    if (Object.prototype.hasOwnProperty.call(data, 'name')) chunk.name = data.name;
    chunk.argumentsDelta = data.args[k];
  } else {
    chunk = { type: row.type === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index: data.index, text: data.texts[k] };
  }
  return { type: 'assistant/chunk', seq: row.seq0 + k, time, data: { turn: data.turn, step: data.step, chunk } };
}

/** All members of a validated row, times accumulated once (rows can hold hundreds of members). */
export function expandRow(row: Record<string, any>): SessionEvent[] {
  const members = (row.type === 'tool-call-chunks' ? row.data.args : row.data.texts) as string[];
  const events: SessionEvent[] = [];
  let time = row.time0 as number;
  for (let k = 0; k < members.length; k++) {
    if (k > 0) time += row.data.dt[k - 1];
    const event = rowMember(row, k, time);
    events.push(event);
  }
  return events;
}
