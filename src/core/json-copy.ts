// Checked copies and comparisons of JSON values without recursion. A caller's value can be cyclic, share
// parts, hold holes, throwing getters or a Proxy that claims 2^32−1 elements; a log's can nest tens of
// thousands of levels. Every walk here keeps its own stack, reads each property once and guarded, and is
// bounded by the size of the value it is given (shared parts are counted each time they would be written).

/** The longest string V8 makes (2^29 − 24 UTF-16 units): no JSON text can be longer. */
export const MAX_TEXT_LENGTH = 2 ** 29 - 24;

/**
 * The most values one event may hold for the checked copy: far beyond any event dsh writes (a 256 MiB line
 * of small numbers), and small enough that a Proxy lying about its length is refused in about a second.
 */
export const MAX_JSON_VALUES = 2 ** 24;

/** A checked copy of a caller's value: the copy, or why it is not plain, lossless JSON. */
export type CheckedJson = { ok: true; copy: unknown } | { ok: false; reason: string };

type Container = Record<string, unknown> | unknown[];

interface CopyFrame {
  from: object;
  into: Container;
  /** Where this container sits in its parent (`.key` or `[3]`), for the reason's path. */
  step: string;
  /** Characters of its JSON text (an estimate from above for strings with escapes). */
  size: number;
}

/** A container member still to check: it goes at `into[key]` (a placeholder holds its place meanwhile). */
type CopyTask = { value: object; into: Container | undefined; key: string | number } | { leave: true };

/** Why a scalar is not lossless JSON, or its JSON size (an upper bound for numbers); 'object' for containers. */
function scalarSize(v: unknown): number | string {
  switch (typeof v) {
    case 'string':
      return v.length + 2;
    case 'boolean':
      return 5;
    case 'number':
      return Number.isFinite(v) ? 24 : 'a non-finite number';
    case 'object':
      return v === null ? 4 : 'object';
    case 'undefined':
      return 'undefined';
    default:
      return `a ${typeof v}`;
  }
}

const step = (key: string | number) => (typeof key === 'number' ? `[${key}]` : `.${key}`);

/**
 * Checks that `value` is what JSON.parse could have produced — plain objects and arrays, strings, finite
 * numbers, booleans, null — and copies it in the same walk, so a getter or Proxy cannot show the check one
 * value and the copy another. A part shared by several members is fine (it is written once per member);
 * a value that contains itself, a hole, a symbol key, a throwing read, a class instance, undefined, a
 * BigInt or a non-finite number are not. Bounded: more than `MAX_JSON_VALUES` values, or JSON text longer
 * than the engine's longest string, is refused as too large — shared parts counted each time they repeat.
 */
export function checkedJsonCopy(value: unknown): CheckedJson {
  const rootSize = scalarSize(value);
  if (typeof rootSize === 'number') return { ok: true, copy: value };
  if (rootSize !== 'object') return { ok: false, reason: rootSize };
  let root: unknown;
  const frames: CopyFrame[] = [];
  const onPath = new Set<object>();
  /** Containers already checked in full: their copy and text size, reused where they repeat. */
  const done = new Map<object, { copy: unknown; size: number }>();
  let values = 0;
  let textSize = 0;
  const tasks: CopyTask[] = [{ value: value as object, into: undefined, key: '' }];
  // The path is built only for a refusal: building it per value would cost the depth each time.
  const refuse = (what: string, last?: string | number): CheckedJson => {
    const path = frames.map((f) => f.step).join('') + (last === undefined ? '' : step(last));
    return { ok: false, reason: `${what}${path === '' ? '' : ` at ${path}`}` };
  };
  const tooLarge: CheckedJson = {
    ok: false,
    reason: `a value too large to write (more than ${MAX_JSON_VALUES} values or ${MAX_TEXT_LENGTH} characters of JSON)`,
  };
  const place = (into: Container | undefined, key: string | number, copy: unknown) => {
    if (into === undefined) root = copy;
    else if (typeof key === 'number') (into as unknown[])[key] = copy;
    // defineProperty: a member named __proto__ stays a member, as JSON.parse makes it.
    else Object.defineProperty(into, key, { value: copy, enumerable: true, writable: true, configurable: true });
  };
  /** Counts a value of `size` characters; false once the whole is too large. */
  const grow = (size: number): boolean => {
    textSize += size;
    if (frames.length > 0) frames[frames.length - 1].size += size;
    return textSize <= MAX_TEXT_LENGTH && ++values <= MAX_JSON_VALUES;
  };
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if ('leave' in task) {
      const frame = frames.pop()!;
      onPath.delete(frame.from);
      done.set(frame.from, { copy: frame.into, size: frame.size });
      if (frames.length > 0) frames[frames.length - 1].size += frame.size;
      continue;
    }
    const v = task.value;
    // The task's own step is on the path while it is checked (it is pushed as a frame once opened).
    const at = task.into === undefined ? undefined : task.key;
    if (onPath.has(v)) return refuse('a value that contains itself', at);
    const checked = done.get(v);
    if (checked) {
      if (!grow(checked.size)) return tooLarge;
      place(task.into, task.key, checked.copy);
      continue;
    }
    const members = readMembers(v);
    if (typeof members === 'string') return refuse(members, at);
    if (!grow(2)) return tooLarge;
    const array = members.keys === undefined;
    const into: Container = array ? [] : {};
    place(task.into, task.key, into);
    frames.push({ from: v, into, step: at === undefined ? '' : step(at), size: 2 });
    onPath.add(v);
    tasks.push({ leave: true });
    const count = array ? members.length : members.keys!.length;
    for (let i = 0; i < count; i++) {
      const key: string | number = array ? i : members.keys![i];
      let item: unknown;
      try {
        if (array && !Object.prototype.hasOwnProperty.call(v, i)) return refuse('an array with a hole', i);
        item = (v as Record<string | number, unknown>)[key];
      } catch {
        return refuse('a property that cannot be read', key);
      }
      const size = scalarSize(item);
      if (typeof size === 'number') {
        if (!grow(size + (array ? 1 : String(key).length + 4))) return tooLarge;
        place(into, key, item);
      } else if (size === 'object') {
        place(into, key, null);
        tasks.push({ value: item as object, into, key });
        if (tasks.length > MAX_JSON_VALUES) return tooLarge;
      } else return refuse(size, key);
    }
  }
  return { ok: true, copy: root };
}

/**
 * A container's shape, read once: an array's length or an object's keys, or why it is not a plain JSON
 * container (a string naming the problem). Its members are read by the caller.
 */
function readMembers(v: object): { length: number; keys?: undefined } | { length?: undefined; keys: string[] } | string {
  try {
    const proto = Object.getPrototypeOf(v);
    if (Array.isArray(v)) {
      if (proto !== Array.prototype) return 'an array of another kind';
      const length = v.length;
      if (!Number.isSafeInteger(length) || length > MAX_JSON_VALUES) return 'an array too long to write';
      // Named members of an array are not JSON's: like JSON.stringify, the copy leaves them out (listing
      // them would cost a key per index). A hole shows when its index is read.
      return { length };
    }
    if (proto !== Object.prototype && proto !== null) {
      let name: unknown;
      try {
        name = (v as { constructor?: { name?: unknown } }).constructor?.name;
      } catch {
        name = undefined;
      }
      return `a ${typeof name === 'string' && name !== '' ? name : 'non-plain'} object`;
    }
    if (Object.getOwnPropertySymbols(v).length > 0) return 'symbol keys';
    const keys = Object.keys(v);
    if (Object.getOwnPropertyNames(v).length !== keys.length) return 'a member JSON would leave out (not enumerable)';
    if (keys.length > MAX_JSON_VALUES) return 'an object with too many members to write';
    return { keys };
  } catch {
    return 'a property that cannot be read';
  }
}

/** Why a value is not plain JSON (what JSON.parse could have produced), or undefined when it is. */
export function notJsonReason(value: unknown): string | undefined {
  const checked = checkedJsonCopy(value);
  return checked.ok ? undefined : checked.reason;
}

/** A deep copy of a plain JSON value that came from a log line (or a checked copy), without recursion. */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const work: [unknown, Record<string, unknown>][] = [[value, root as Record<string, unknown>]];
  while (work.length > 0) {
    const [from, to] = work.pop()!;
    for (const key of Object.keys(from as object)) {
      const v = (from as Record<string, unknown>)[key];
      if (typeof v === 'object' && v !== null) {
        const copy = Array.isArray(v) ? [] : {};
        to[key] = copy;
        work.push([v, copy as Record<string, unknown>]);
      } else to[key] = v;
    }
  }
  return root as T;
}

/**
 * Structural equality of two JSON values (key order ignored), without recursion: it compares whole tool
 * results while a log loads, nested as deep as a line allows. A hole in `a` is skipped, as
 * Array.prototype.every skips it.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pairs: unknown[] = [a, b];
  while (pairs.length > 0) {
    const y = pairs.pop();
    const x = pairs.pop();
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    const xArray = Array.isArray(x);
    if (xArray !== Array.isArray(y)) return false;
    if (xArray) {
      const xs = x as unknown[];
      const ys = y as unknown[];
      if (xs.length !== ys.length) return false;
      for (let i = 0; i < xs.length; i++) if (i in xs) pairs.push(xs[i], ys[i]);
      continue;
    }
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
      pairs.push((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]);
    }
  }
  return true;
}
