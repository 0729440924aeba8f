// JSON text and copies of values without recursion. A log value can nest tens of thousands of levels
// (a 40 KB line); `JSON.stringify`, `structuredClone` and a recursive walk overflow the stack on it.
// A caller's value can also be cyclic, share parts, hold holes, throwing getters or a Proxy that claims
// 2^32−1 elements. Every walk here keeps its own stack, reads each property once and guarded, and is
// bounded by the size of the value it is given (shared parts are counted each time they would be written).

/** The longest string V8 makes (2^29 − 24 UTF-16 units): no JSON text can be longer. */
export const MAX_TEXT_LENGTH = 2 ** 29 - 24;

/**
 * The most values one event may hold for the checked copy: far beyond any event dsh writes (a 256 MiB line
 * of small numbers), and small enough that a Proxy lying about its length is refused in about a second.
 */
export const MAX_JSON_VALUES = 2 ** 24;

type Sink = (chunk: string) => void;

/** A container being written: its members are taken one at a time, so a long array costs no list. */
type Open = { array: unknown[]; next: number } | { record: Record<string, unknown>; keys: string[]; next: number; wrote: boolean };

/**
 * Writes `JSON.stringify(value)` for a plain JSON value to `write`, in chunks, without recursion: the same
 * text, key order and number forms (undefined array items and holes print `null`, undefined, function and
 * symbol members are left out, as JSON.stringify does). For what JSON cannot hold it still writes valid
 * JSON and never throws: a value that contains itself is written as `null` where it repeats, and a value
 * whose members cannot be read (a throwing getter or Proxy) as `null`. `toJSON` is not called.
 */
export function writeJson(value: unknown, write: Sink): void {
  const open: Open[] = [];
  const ancestors = new Set<object>();
  let pending: unknown = value;
  let hasPending = true;
  for (;;) {
    if (hasPending) {
      hasPending = false;
      const v = pending;
      if (typeof v === 'string') write(JSON.stringify(v));
      else if (typeof v === 'number') write(Number.isFinite(v) ? String(v) : 'null');
      else if (typeof v === 'boolean') write(v ? 'true' : 'false');
      else if (v === null || typeof v !== 'object' || ancestors.has(v)) write('null');
      else {
        const container = openContainer(v);
        if (container === undefined) write('null');
        else {
          write('array' in container ? '[' : '{');
          open.push(container);
          ancestors.add(v);
        }
      }
    }
    const top = open[open.length - 1];
    if (top === undefined) return;
    const next = nextMember(top);
    if (next === DONE) {
      write('array' in top ? ']' : '}');
      ancestors.delete('array' in top ? top.array : top.record);
      open.pop();
      continue;
    }
    if (next.key !== undefined) write(next.key);
    pending = next.value;
    hasPending = true;
  }
}

const DONE = Symbol('done');

/** A container to write, or undefined when its members cannot be listed (a throwing Proxy). */
function openContainer(v: object): Open | undefined {
  try {
    if (Array.isArray(v)) return { array: v, next: 0 };
    return { record: v as Record<string, unknown>, keys: Object.keys(v), next: 0, wrote: false };
  } catch {
    return undefined;
  }
}

/** The next member of an open container (with the text before it), or DONE. A member that cannot be read is null. */
function nextMember(top: Open): { key?: string; value: unknown } | typeof DONE {
  if ('array' in top) {
    let length: number;
    try {
      length = top.array.length;
    } catch {
      return DONE;
    }
    if (!(top.next < length)) return DONE;
    const i = top.next++;
    return { key: i > 0 ? ',' : undefined, value: guardedRead(top.array, i) };
  }
  while (top.next < top.keys.length) {
    const key = top.keys[top.next++];
    const x = guardedRead(top.record, key);
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    const text = `${top.wrote ? ',' : ''}${JSON.stringify(key)}:`;
    top.wrote = true;
    return { key: text, value: x };
  }
  return DONE;
}

function guardedRead(from: object, key: string | number): unknown {
  try {
    return (from as Record<string | number, unknown>)[key];
  } catch {
    return null;
  }
}

/**
 * `JSON.stringify(value)` for a plain JSON value (see `writeJson`), as one string. For a value read from a
 * log line the text is never longer than the engine's longest string; text gathered from a whole log
 * (a digest, a view of every event) goes through `writeJson` instead.
 */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  writeJson(value, (chunk) => out.push(chunk));
  return out.join('');
}

/** A checked copy of a caller's value: the copy, or why it is not plain, lossless JSON. */
export type CheckedJson = { ok: true; copy: unknown } | { ok: false; reason: string };

type Into = Record<string, unknown> | unknown[] | undefined;

interface CopyFrame {
  from: object;
  into: Record<string, unknown> | unknown[];
  /** Where this container sits in its parent (`.key` or `[3]`), for the reason's path. */
  step: string;
  /** Characters of its JSON text (an estimate from above for strings with escapes). */
  size: number;
}

type CopyTask = { value: unknown; key: string; index: boolean; into: Into } | { leave: true };

/**
 * Checks that `value` is what JSON.parse could have produced — plain objects and arrays, strings, finite
 * numbers, booleans, null — and copies it in the same walk, so a getter or Proxy cannot show the check one
 * value and the copy another. A part shared by several members is fine (it is written once per member);
 * a value that contains itself, a hole, a symbol key, a throwing read, a class instance, undefined, a
 * BigInt or a non-finite number are not. Bounded: more than `MAX_JSON_VALUES` values, or JSON text longer
 * than the engine's longest string, is refused as too large — shared parts counted each time they repeat.
 */
export function checkedJsonCopy(value: unknown): CheckedJson {
  let root: unknown;
  const frames: CopyFrame[] = [];
  const onPath = new Set<object>();
  /** Containers already checked in full: their copy and text size, reused where they repeat. */
  const done = new Map<object, { copy: unknown; size: number }>();
  let values = 0;
  let textSize = 0;
  const tasks: CopyTask[] = [{ value, key: '', index: false, into: undefined }];
  // The path is built only for a refusal: building it per value would cost the depth each time.
  const refuse = (what: string, task: { key: string; index: boolean; into: Into }): CheckedJson => {
    const last = task.into === undefined ? '' : task.index ? `[${task.key}]` : `.${task.key}`;
    const path = frames.map((f) => f.step).join('') + last;
    return { ok: false, reason: `${what}${path === '' ? '' : ` at ${path}`}` };
  };
  const tooLarge: CheckedJson = {
    ok: false,
    reason: `a value too large to write (more than ${MAX_JSON_VALUES} values or ${MAX_TEXT_LENGTH} characters of JSON)`,
  };
  const place = (task: { key: string; index: boolean; into: Into }, copy: unknown) => {
    if (task.into === undefined) root = copy;
    else if (task.index) (task.into as unknown[]).push(copy);
    // defineProperty: a member named __proto__ stays a member, as JSON.parse makes it.
    else Object.defineProperty(task.into, task.key, { value: copy, enumerable: true, writable: true, configurable: true });
  };
  /** Counts one value of `size` characters; false once the value is too large. */
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
    switch (typeof v) {
      case 'string':
        if (!grow(v.length + 2)) return tooLarge;
        place(task, v);
        continue;
      case 'boolean':
        if (!grow(5)) return tooLarge;
        place(task, v);
        continue;
      case 'number':
        if (!Number.isFinite(v)) return refuse('a non-finite number', task);
        if (!grow(24)) return tooLarge;
        place(task, v);
        continue;
      case 'object':
        break;
      default:
        return refuse(typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`, task);
    }
    if (v === null) {
      if (!grow(4)) return tooLarge;
      place(task, null);
      continue;
    }
    if (onPath.has(v)) return refuse('a value that contains itself', task);
    const checked = done.get(v);
    if (checked) {
      if (!grow(checked.size)) return tooLarge;
      place(task, checked.copy);
      continue;
    }
    const members = readMembers(v);
    if (typeof members === 'string') return refuse(members, task);
    if (!grow(2)) return tooLarge;
    const into: Record<string, unknown> | unknown[] = members.array ? [] : {};
    place(task, into);
    frames.push({ from: v, into, step: task.into === undefined ? '' : task.index ? `[${task.key}]` : `.${task.key}`, size: 2 });
    onPath.add(v);
    tasks.push({ leave: true });
    for (let i = members.entries.length - 1; i >= 0; i--) {
      const [key, item] = members.entries[i];
      tasks.push({ value: item, key, index: members.array, into });
    }
    if (tasks.length > MAX_JSON_VALUES) return tooLarge;
  }
  return { ok: true, copy: root };
}

/** A container's members read once, or why they cannot be (a string naming the problem). */
function readMembers(v: object): { array: boolean; entries: [string, unknown][] } | string {
  try {
    const proto = Object.getPrototypeOf(v);
    if (Array.isArray(v)) {
      if (proto !== Array.prototype) return 'an array of another kind';
      const length = v.length;
      if (!Number.isSafeInteger(length) || length > MAX_JSON_VALUES) return 'an array too long to write';
      if (Object.getOwnPropertySymbols(v).length > 0) return 'symbol keys';
      const entries: [string, unknown][] = [];
      for (let i = 0; i < length; i++) {
        if (!Object.prototype.hasOwnProperty.call(v, i)) return `an array with a hole at [${i}]`;
        entries.push([String(i), v[i]]);
      }
      if (Object.keys(v).length !== length) return 'an array with extra members';
      return { array: true, entries };
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
    const record = v as Record<string, unknown>;
    const keys = Object.keys(record);
    if (Object.getOwnPropertyNames(record).length !== keys.length) return 'a member JSON would leave out (not enumerable)';
    if (keys.length > MAX_JSON_VALUES) return 'an object with too many members to write';
    const entries: [string, unknown][] = [];
    for (const key of keys) entries.push([key, record[key]]);
    return { array: false, entries };
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

/** Bytes of `text` in UTF-8 (a lone surrogate as the 3 bytes of U+FFFD, as TextEncoder writes it), without encoding it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes of a value's JSON text in UTF-8 (`writeJson`'s text), counted as it is written: no text is kept. */
export function jsonByteLength(value: unknown): number {
  let bytes = 0;
  writeJson(value, (chunk) => {
    bytes += utf8ByteLength(chunk);
  });
  return bytes;
}
