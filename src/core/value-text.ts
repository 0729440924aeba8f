// Turning values from a log (or from a caller) into text without trusting them. `String()`,
// template literals, `JSON.stringify` and `structuredClone` recurse, so a value nested a few thousand
// levels deep — a 10 KB line — overflows the stack; a cycle, a BigInt or a throwing getter makes them
// throw; a Proxy can claim 2^32−1 elements. Everything here walks values with an explicit stack, reads
// only as much as its result needs, and never throws.
export { jsonByteLength, jsonText, utf8ByteLength, writeJson } from './json-text';
export { MAX_JSON_VALUES, MAX_TEXT_LENGTH, checkedJsonCopy, cloneJson, jsonEqual, notJsonReason } from './json-copy';
export type { CheckedJson } from './json-copy';

type Piece = { text: string } | { value: unknown } | { leave: object };

/**
 * A value as short text for a message: JSON-like, depth-safe, cut at `maxLength` characters (with …).
 * Its cost is bounded by `maxLength`, not by the value: only the members that can still be shown are read
 * (a 10^8-element array or a Proxy claiming 2^32−1 elements costs what its first few do).
 */
export function valueText(value: unknown, maxLength = 120): string {
  const max = typeof maxLength === 'number' && maxLength >= 1 ? Math.min(Math.floor(maxLength), 1_000_000) : 120;
  const out: string[] = [];
  let length = 0;
  const emit = (text: string): boolean => {
    out.push(text);
    length += text.length;
    return length <= max;
  };
  const work: Piece[] = [{ value }];
  const ancestors = new Set<object>();
  while (work.length > 0) {
    const item = work.pop()!;
    if ('leave' in item) {
      ancestors.delete(item.leave);
      continue;
    }
    if ('text' in item) {
      if (!emit(item.text)) break;
      continue;
    }
    const v = item.value;
    if (typeof v !== 'object' || v === null) {
      if (!emit(scalarText(v, max))) break;
      continue;
    }
    if (ancestors.has(v)) {
      if (!emit('[cycle]')) break;
      continue;
    }
    const shown = shownMembers(v, Math.max(1, max - length));
    if (typeof shown === 'string') {
      if (!emit(shown)) break;
      continue;
    }
    if (!emit(shown.array ? '[' : '{')) break;
    ancestors.add(v);
    work.push({ leave: v }, { text: shown.array ? ']' : '}' });
    if (shown.more) work.push({ text: '…' });
    // Pushed in reverse so they pop in order.
    for (let i = shown.entries.length - 1; i >= 0; i--) {
      const [key, member] = shown.entries[i];
      work.push({ value: member });
      if (!shown.array) work.push({ text: `${JSON.stringify(key)}:` });
      if (i > 0) work.push({ text: ',' });
    }
  }
  const text = out.join('');
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

/**
 * The first `room` members of a container (room ≥ 1: each member takes a character or more), or a text
 * standing for it: a typed array or buffer by its kind and size, an unreadable value as `[unreadable]`.
 */
function shownMembers(v: object, room: number): { array: boolean; entries: [string, unknown][]; more: boolean } | string {
  try {
    if (ArrayBuffer.isView(v)) return `[${v.constructor?.name ?? 'view'} of ${v.byteLength} bytes]`;
    if (v instanceof ArrayBuffer) return `[ArrayBuffer of ${v.byteLength} bytes]`;
  } catch {
    return '[unreadable]';
  }
  try {
    const entries: [string, unknown][] = [];
    if (Array.isArray(v)) {
      const length = Number(v.length);
      const n = Number.isFinite(length) ? Math.min(length, room) : 0;
      for (let i = 0; i < n; i++) entries.push([String(i), readMember(v, i)]);
      return { array: true, entries, more: length > n };
    }
    const keys = Object.keys(v);
    const n = Math.min(keys.length, room);
    for (let i = 0; i < n; i++) entries.push([keys[i], readMember(v, keys[i])]);
    return { array: false, entries, more: keys.length > n };
  } catch {
    return '[unreadable]';
  }
}

/** Stands for a member whose read threw (a getter, a Proxy trap). */
const UNREADABLE = Symbol('unreadable');

function readMember(v: object, key: string | number): unknown {
  try {
    return (v as Record<string | number, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

function scalarText(v: unknown, max: number): string {
  switch (typeof v) {
    case 'string':
      // Only what can be shown is escaped: a 100 MB string costs what its head does.
      return JSON.stringify(v.length > max + 1 ? v.slice(0, max + 1) : v);
    case 'number':
    case 'boolean':
      return String(v);
    case 'bigint':
      // Decimal digits of a huge BigInt take long to make; its size in hex digits is cheap.
      return v.toString(16).length > max ? `[a ${v.toString(16).length}-hex-digit bigint]` : `${v.toString()}n`;
    case 'undefined':
      return 'undefined';
    case 'symbol': {
      if (v === UNREADABLE) return '[unreadable]';
      const description = v.description;
      return `Symbol(${typeof description === 'string' ? description.slice(0, max) : ''})`;
    }
    case 'function':
      return '[function]';
    default:
      return v === null ? 'null' : '[value]';
  }
}

function safeCall<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/**
 * `String(value)` where that is safe — the words dsh's own messages use (`got 1,2` for an array) — and
 * `valueText` where it is not: a value nested too deep, too large, cyclic or unreadable. At most
 * `maxLength` characters.
 */
export function stringText(value: unknown, maxLength = 1000): string {
  const max = typeof maxLength === 'number' && maxLength >= 1 ? Math.min(Math.floor(maxLength), 1_000_000) : 1000;
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (typeof value !== 'object' || value === null)
    text = typeof value === 'symbol' || typeof value === 'bigint' ? undefined : String(value);
  else if (isSmallPlain(value)) text = jsString(value);
  if (text === undefined) return valueText(value, max);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Plain arrays and objects, at most 32 levels and 1,000 values, no cycles: their text is short and cheap to make. */
function isSmallPlain(value: object): boolean {
  const work: [unknown, number][] = [[value, 0]];
  let count = 0;
  while (work.length > 0) {
    const [v, depth] = work.pop()!;
    if (++count > 1000 || depth > 32) return false;
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return false;
    if (typeof v !== 'object' || v === null) continue;
    const shown = safeCall(() => Object.getPrototypeOf(v) as unknown);
    if (shown !== Array.prototype && shown !== Object.prototype) return false;
    const members = shownMembers(v, 1001);
    if (typeof members === 'string' || members.more) return false;
    for (const [, item] of members.entries) work.push([item, depth + 1]);
  }
  return true;
}

/** V8's words when `String()` meets an object it cannot turn into text (dsh's own TypeError then). */
export const NO_PRIMITIVE_MESSAGE = 'Cannot convert object to primitive value';

/**
 * `String(value)` — what a template literal makes of it — for a value JSON.parse returned, computed
 * without recursion: an array nested 20,000 levels deep gives the engine's text instead of a stack
 * overflow (nested arrays join with `,`, null and undefined items as empty text, an array inside itself
 * as empty text, objects as `[object Object]`). Undefined where the engine throws a TypeError
 * (`NO_PRIMITIVE_MESSAGE`): an object whose own `toString` member is not a function, or with no
 * prototype, and symbols. Other values (class instances) get their own `String()`, guarded.
 */
export function jsString(value: unknown): string | undefined {
  if (!Array.isArray(value)) return leafString(value);
  const out: string[] = [];
  let length = 0;
  const frames: { items: unknown[]; next: number }[] = [{ items: value, next: 0 }];
  const joining = new Set<unknown>([value]);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1];
    const items = frame.items;
    if (frame.next >= items.length) {
      joining.delete(items);
      frames.pop();
      continue;
    }
    const i = frame.next++;
    if (i > 0) {
      out.push(',');
      length += 1;
    }
    const item = items[i];
    if (item === null || item === undefined) continue;
    if (Array.isArray(item)) {
      // Array.prototype.join writes an array it is already joining as empty text.
      if (!joining.has(item)) {
        joining.add(item);
        frames.push({ items: item, next: 0 });
      }
      continue;
    }
    const text = leafString(item);
    if (text === undefined) return undefined;
    out.push(text);
    length += text.length;
    // The engine throws a RangeError past its longest string; so does nothing here.
    if (length > 2 ** 29 - 24) return undefined;
  }
  return out.join('');
}

function leafString(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(value);
    case 'symbol':
      return undefined;
    default:
      break;
  }
  if (value === null) return 'null';
  const proto = safeCall(() => Object.getPrototypeOf(value) as unknown);
  if (proto === Object.prototype) {
    // A JSON object's own `toString` member (never a function) hides Object.prototype.toString, and
    // valueOf then gives the object itself: the engine has no primitive to use.
    const ownToString = safeCall(() => Object.prototype.hasOwnProperty.call(value, 'toString'));
    return ownToString === false ? '[object Object]' : undefined;
  }
  if (proto === null) return undefined;
  return safeCall(() => String(value));
}
