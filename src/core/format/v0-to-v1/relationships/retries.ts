// LLM retry chains: each chain (turn, step, provider, policy) numbers its retries 1, 2, … under one
// retryId that no other chain uses, and each `llm/retry-started` pairs exactly one scheduled retry.
// Values are compared with === as dsh compares them; nested maps keep every lookup constant-time.
import { SessionFormatError } from '../../errors';
import { jsonString, templateString, type JsonObject } from '../../json';

/** Maps keyed by several values at once, each compared as a Map compares keys. */
class KeyedMap<V> {
  private readonly root = new Map<unknown, unknown>();

  get(keys: readonly unknown[]): V | undefined {
    let level: Map<unknown, unknown> | undefined = this.root;
    for (const key of keys) {
      level = level.get(key) as Map<unknown, unknown> | undefined;
      if (level === undefined) return undefined;
    }
    return level as unknown as V;
  }

  set(keys: readonly unknown[], value: V): void {
    let level = this.root;
    for (let i = 0; i < keys.length - 1; i++) {
      let nextLevel = level.get(keys[i]) as Map<unknown, unknown> | undefined;
      if (nextLevel === undefined) level.set(keys[i], (nextLevel = new Map()));
      level = nextLevel;
    }
    level.set(keys[keys.length - 1], value);
  }
}

export class RetryLedger {
  /** The last retry of each chain. */
  private readonly lastOfChain = new KeyedMap<JsonObject>();
  /** Every retryId used so far. */
  private readonly retryIds = new Set<unknown>();
  /** The first scheduled retry for each (retryId, retry). */
  private readonly scheduled = new KeyedMap<JsonObject>();
  private readonly started = new KeyedMap<true>();

  /** One `llm/retry`, after its turn, step and provider were matched. */
  schedule(data: JsonObject): void {
    const chain = [data['turn'], data['step'], data['provider'], data['policyKey']];
    const prior = this.lastOfChain.get(chain);
    const expected = ((prior?.['retry'] ?? 0) as number) + 1;
    if (data['retry'] !== expected) throw new SessionFormatError(`llm/retry must use retry ${templateString(expected)}`);
    if (prior !== undefined && prior['retryId'] !== data['retryId'])
      throw new SessionFormatError('llm/retry must preserve retryId across one policy chain');
    if (prior === undefined && this.retryIds.has(data['retryId']))
      throw new SessionFormatError(`llm/retry reuses retryId ${jsonString(data['retryId'])} across policy chains`);
    this.lastOfChain.set(chain, data);
    this.retryIds.add(data['retryId']);
    const attempt = [data['retryId'], data['retry']];
    if (this.scheduled.get(attempt) === undefined) this.scheduled.set(attempt, data);
  }

  /** One `llm/retry-started`. */
  start(data: JsonObject): void {
    const attempt = [data['retryId'], data['retry']];
    const prior = this.scheduled.get(attempt);
    if (prior === undefined) throw new SessionFormatError('llm/retry-started pairs no prior scheduled attempt');
    if (prior['turn'] !== data['turn'] || prior['step'] !== data['step'])
      throw new SessionFormatError('llm/retry-started does not match its scheduled turn and step');
    if (this.started.get(attempt) !== undefined) throw new SessionFormatError('llm/retry-started repeats one scheduled attempt');
    this.started.set(attempt, true);
  }
}
