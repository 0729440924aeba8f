// Turning values from a log (or from a caller) into text without trusting them. `String()`,
// template literals, `JSON.stringify` and `structuredClone` recurse, so a value nested a few thousand
// levels deep — a 10 KB line — overflows the stack; a cycle, a BigInt or a throwing getter makes them
// throw. Everything here walks values with an explicit stack, and never throws.

/** A value as short text for a message: JSON-like, depth-safe, cut at `maxLength` characters (with …). */
export function valueText(value: unknown, maxLength = 120): string {
  const out: string[] = [];
  let length = 0;
  const emit = (text: string): boolean => {
    out.push(text);
    length += text.length;
    return length <= maxLength;
  };
  // The work list holds values still to print and literal text ("]", ",", …) between them.
  const work: { text?: string; value?: unknown }[] = [{ value }];
  const seen = new Set<object>();
  while (work.length > 0) {
    const item = work.pop()!;
    if (item.text !== undefined) {
      if (!emit(item.text)) break;
      continue;
    }
    const v = item.value;
    if (typeof v !== 'object' || v === null) {
      if (!emit(scalarText(v))) break;
      continue;
    }
    if (seen.has(v)) {
      if (!emit('[cycle]')) break;
      continue;
    }
    seen.add(v);
    const entries = safeEntries(v);
    if (entries === undefined) {
      if (!emit('[unreadable]')) break;
      continue;
    }
    const array = Array.isArray(v);
    if (!emit(array ? '[' : '{')) break;
    work.push({ text: array ? ']' : '}' });
    // Pushed in reverse so they pop in order; only as many as could still fit are expanded.
    const shown = Math.min(entries.length, Math.max(1, maxLength - length));
    if (shown < entries.length) work.push({ text: '…' });
    for (let i = shown - 1; i >= 0; i--) {
      const [key, item2] = entries[i];
      work.push({ value: item2 });
      if (!array) work.push({ text: `${JSON.stringify(key)}:` });
      if (i > 0) work.push({ text: ',' });
    }
  }
  const text = out.join('');
  return text.length > maxLength ? `${text.slice(0, Math.max(0, maxLength - 1))}…` : text;
}

function scalarText(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
    case 'boolean':
      return String(v);
    case 'bigint':
      return `${v.toString()}n`;
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return safeCall(() => v.toString()) ?? 'Symbol()';
    case 'function':
      return '[function]';
    default:
      return v === null ? 'null' : '[value]';
  }
}

/** Own enumerable entries, or undefined when reading them throws (a proxy, a throwing getter). */
function safeEntries(v: object): [string, unknown][] | undefined {
  return safeCall(() => {
    if (Array.isArray(v)) return v.map((item, i) => [String(i), item] as [string, unknown]);
    return Object.keys(v).map((k) => [k, (v as Record<string, unknown>)[k]] as [string, unknown]);
  });
}

function safeCall<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** Why a value is not plain JSON (what JSON.parse could have produced), or undefined when it is. */
export function notJsonReason(value: unknown): string | undefined {
  const seen = new Set<object>();
  const work: { v: unknown; path: string }[] = [{ v: value, path: '' }];
  while (work.length > 0) {
    const { v, path } = work.pop()!;
    const where = path === '' ? '' : ` at ${path}`;
    switch (typeof v) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (!Number.isFinite(v)) return `a non-finite number${where}`;
        continue;
      case 'object':
        break;
      default:
        return `${typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`}${where}`;
    }
    if (v === null) continue;
    if (seen.has(v)) return `a value that contains itself${where}`;
    seen.add(v);
    const proto = safeCall(() => Object.getPrototypeOf(v));
    if (!Array.isArray(v) && proto !== Object.prototype && proto !== null)
      return `a ${safeCall(() => (v as object).constructor?.name) ?? 'non-plain'} object${where}`;
    if (safeCall(() => Object.getOwnPropertySymbols(v).length) !== 0) return `symbol keys${where}`;
    const entries = safeEntries(v);
    if (entries === undefined) return `a property that cannot be read${where}`;
    if (Array.isArray(v) && entries.length !== safeCall(() => Object.keys(v).length)) return `an array with extra or missing items${where}`;
    for (const [key, item] of entries) {
      if (!Array.isArray(v) && item === undefined) return `undefined${where}.${key}`;
      work.push({ v: item, path: Array.isArray(v) ? `${path}[${key}]` : `${path}.${key}` });
    }
  }
  return undefined;
}

/**
 * `JSON.stringify(value)` for plain JSON values (see `notJsonReason`), without recursion: the same text,
 * key order and number forms. Undefined array items print `null`, as JSON.stringify prints them.
 */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  const work: { text?: string; value?: unknown }[] = [{ value }];
  while (work.length > 0) {
    const item = work.pop()!;
    if (item.text !== undefined) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (typeof v === 'string') out.push(JSON.stringify(v));
    else if (typeof v === 'number') out.push(Number.isFinite(v) ? String(v) : 'null');
    else if (typeof v === 'boolean') out.push(String(v));
    else if (v === null || typeof v !== 'object') out.push('null');
    else if (Array.isArray(v)) {
      out.push('[');
      work.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        work.push({ value: v[i] });
        if (i > 0) work.push({ text: ',' });
      }
    } else {
      const keys = Object.keys(v).filter((k) => {
        const x = (v as Record<string, unknown>)[k];
        return x !== undefined && typeof x !== 'function' && typeof x !== 'symbol';
      });
      out.push('{');
      work.push({ text: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        work.push({ value: (v as Record<string, unknown>)[keys[i]] });
        work.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:` });
      }
    }
  }
  return out.join('');
}

/** A deep copy of a plain JSON value, without recursion. */
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
 * `String(value)` where that is safe — the words dsh's own messages use (`got 1,2` for an array) — and
 * `valueText` where it is not: a value nested too deep, too large, cyclic or unreadable. At most
 * `maxLength` characters.
 */
export function stringText(value: unknown, maxLength = 1000): string {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (typeof value !== 'object' || value === null)
    text = typeof value === 'symbol' ? safeCall(() => value.toString()) : safeCall(() => String(value));
  else if (isSmallPlain(value)) text = safeCall(() => String(value));
  if (text === undefined) return valueText(value, maxLength);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** Plain arrays and objects, at most 32 levels and 1,000 values, no cycles: `String()` of it is cheap and cannot throw. */
function isSmallPlain(value: object): boolean {
  const seen = new Set<object>();
  const work: [unknown, number][] = [[value, 0]];
  let count = 0;
  while (work.length > 0) {
    const [v, depth] = work.pop()!;
    if (++count > 1000 || depth > 32) return false;
    if (typeof v === 'function' || typeof v === 'symbol') return false;
    if (typeof v !== 'object' || v === null) continue;
    if (seen.has(v)) return false;
    seen.add(v);
    const proto = safeCall(() => Object.getPrototypeOf(v));
    if (proto !== Array.prototype && proto !== Object.prototype && proto !== null) return false;
    if (proto === null) return false; // String() of a prototype-free object throws
    const entries = safeEntries(v);
    if (entries === undefined) return false;
    for (const [, item] of entries) work.push([item, depth + 1]);
  }
  return true;
}
