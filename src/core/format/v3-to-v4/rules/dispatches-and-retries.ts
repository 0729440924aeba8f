// PTC sub-calls and model-call retries (spec §6 relationships). A PTC sub-call starts once and
// settles once with the same root, parent, name and arguments, its parent in the same root. A retry
// schedule belongs to the current turn, step and request provider; its attempts count up per policy
// chain under one retry id, and each start pairs with one scheduled attempt.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { formatCount, jsonEqual, type JsonObject } from '../../json';
import { nonEmptyText } from './checks';

export class PtcDispatches {
  private readonly byId = new Map<string, { data: JsonObject; settled: boolean }>();

  accept(event: FormatEvent, data: JsonObject): void {
    const id = nonEmptyText(data.subCallId, 'PTC subCallId');
    const root = nonEmptyText(data.rootCallId, 'PTC rootCallId');
    const parent = nonEmptyText(data.parentCallId, 'PTC parentCallId');
    const existing = this.byId.get(id);
    if (existing !== undefined && existing.data.rootCallId !== root) throw new SessionFormatError('PTC dispatch changes its rootCallId');
    if (parent !== root && this.byId.get(parent)?.data.rootCallId !== root) {
      throw new SessionFormatError('PTC parentCallId does not belong to rootCallId');
    }
    if (event.type === 'tool/ptc-dispatch-start') {
      if (existing !== undefined) throw new SessionFormatError('PTC dispatch repeats subCallId');
      this.byId.set(id, { data, settled: false });
      return;
    }
    if (existing === undefined || existing.settled) throw new SessionFormatError('PTC dispatch has no unique start');
    if (['rootCallId', 'parentCallId', 'name', 'arguments'].some((key) => !jsonEqual(existing.data[key], data[key]))) {
      throw new SessionFormatError('PTC dispatch does not match its start');
    }
    existing.settled = true;
  }
}

/** Where the lifecycle stands when a retry is scheduled. */
export interface RetryPosition {
  turn: number | null;
  /** The open step, or the last closed one when none is open. */
  step: number;
  provider: unknown;
}

export class Retries {
  /** The first schedule of each attempt of each retryId, by `retry:retryId` (as `started` keys them). */
  private readonly scheduled = new Map<string, JsonObject>();
  /** Every retryId scheduled so far. */
  private readonly scheduledIds = new Set<unknown>();
  /** The latest schedule of each chain: by turn, then step, provider and policyKey (compared as `===` does). */
  private readonly chains = new Map<unknown, Map<unknown, Map<unknown, Map<unknown, JsonObject>>>>();
  private readonly started = new Set<string>();

  accept(event: FormatEvent, data: JsonObject, position: RetryPosition): void {
    const id = nonEmptyText(data.retryId, 'retryId');
    const attempt = formatCount(data.retry, 'retry');
    const key = `${attempt}:${id}`;
    if (event.type === 'llm/retry-started') {
      const schedule = this.scheduled.get(key);
      if (schedule === undefined) throw new SessionFormatError('llm/retry-started pairs no prior scheduled attempt');
      if (schedule.turn !== data.turn || schedule.step !== data.step)
        throw new SessionFormatError('llm/retry-started changes scheduled coordinates');
      if (this.started.has(key)) throw new SessionFormatError('llm/retry-started repeats one scheduled attempt');
      this.started.add(key);
      return;
    }
    if (position.turn === null || data.turn !== position.turn || data.step !== position.step) {
      throw new SessionFormatError('llm/retry does not match the current turn and step');
    }
    if (data.provider !== position.provider) throw new SessionFormatError('llm/retry provider does not match the open request/header');
    const chain = this.chainOf(data);
    const prior = chain.get(data.policyKey);
    if (attempt !== (prior === undefined ? 1 : formatCount(prior.retry, 'prior retry') + 1)) {
      throw new SessionFormatError('llm/retry skips its policy attempt sequence');
    }
    if (prior === undefined ? this.scheduledIds.has(id) : prior.retryId !== id) {
      throw new SessionFormatError('llm/retry must keep one retryId per policy chain');
    }
    // Kept in maps rather than searched for in a list of every schedule: a long log retries thousands of times.
    if (!this.scheduled.has(key)) this.scheduled.set(key, data);
    this.scheduledIds.add(id);
    chain.set(data.policyKey, data);
  }

  /** The latest schedules of the chains of the same turn, step and provider, by policyKey. */
  private chainOf(data: JsonObject): Map<unknown, JsonObject> {
    const byStep = child(this.chains, data.turn);
    const byProvider = child(byStep, data.step);
    return child(byProvider, data.provider);
  }
}

function child<K, V>(map: Map<K, Map<unknown, V>>, key: K): Map<unknown, V> {
  let found = map.get(key);
  if (found === undefined) {
    found = new Map();
    map.set(key, found);
  }
  return found;
}
