// JSON text of values without recursion. A log value can nest tens of thousands of levels (a 40 KB
// line); `JSON.stringify` overflows the stack on it. The writer keeps its own stack, reads each member
// once and guarded, and hands its text on in pieces (a whole log's text may be longer than the engine's
// longest string). Checked copies of a caller's values are json-copy.ts's.

type Sink = (chunk: string) => void;

/** A container being written: its members are taken one at a time, so a long array costs no list. */
type Open =
  { array: unknown[]; length: number; next: number } | { record: Record<string, unknown>; keys: string[]; next: number; wrote: boolean };

/** Output is handed on in pieces of about this many characters (one call per value would cost more than the text). */
const FLUSH_AT = 1 << 16;

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
  // Pieces joined per flush: appending to one string builds a rope the engine flattens slowly.
  let pieces: string[] = [];
  let chars = 0;
  const put = (text: string) => {
    pieces.push(text);
    chars += text.length;
  };
  const flush = () => {
    if (pieces.length > 0) write(pieces.join(''));
    pieces = [];
    chars = 0;
  };
  let v: unknown = value;
  for (;;) {
    // Write `v`: a scalar at once, a container by opening it.
    const scalar = scalarJson(v);
    if (scalar !== undefined) put(scalar);
    else if (ancestors.has(v as object)) put('null');
    else {
      const container = openContainer(v as object);
      if (container === undefined) put('null');
      else {
        put('array' in container ? '[' : '{');
        open.push(container);
        ancestors.add(v as object);
      }
    }
    // Find the next container to open, writing scalar members on the way and closing what is done.
    let found = false;
    while (open.length > 0 && !found) {
      if (chars >= FLUSH_AT) flush();
      const top = open[open.length - 1];
      if ('array' in top) {
        // Arrays of scalars (most of a large value) are written in this loop.
        while (top.next < top.length) {
          const i = top.next++;
          if (i > 0) put(',');
          const item = guardedRead(top.array, i);
          const text = scalarJson(item);
          if (text === undefined) {
            v = item;
            found = true;
            break;
          }
          put(text);
          if (chars >= FLUSH_AT) flush();
        }
        if (found) break;
        put(']');
        ancestors.delete(top.array);
        open.pop();
        continue;
      }
      while (top.next < top.keys.length) {
        const key = top.keys[top.next++];
        const item = guardedRead(top.record, key);
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        put(`${top.wrote ? ',' : ''}${JSON.stringify(key)}:`);
        top.wrote = true;
        v = item;
        found = true;
        break;
      }
      if (found) break;
      put('}');
      ancestors.delete(top.record);
      open.pop();
    }
    if (!found) break;
  }
  flush();
}

/** The JSON text of a value that is no container (undefined for an object or array). */
function scalarJson(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      return v === null ? 'null' : undefined;
    default:
      return 'null';
  }
}

/** A container to write (its length or keys read once), or undefined when they cannot be read (a throwing Proxy). */
function openContainer(v: object): Open | undefined {
  try {
    if (Array.isArray(v)) {
      const length = Number(v.length);
      return { array: v, length: Number.isFinite(length) ? length : 0, next: 0 };
    }
    return { record: v as Record<string, unknown>, keys: Object.keys(v), next: 0, wrote: false };
  } catch {
    return undefined;
  }
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
  return out.length === 1 ? out[0] : out.join('');
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
