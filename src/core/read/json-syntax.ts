// Whether a line is JSON, without parsing it. A JSON.parse that fails costs microseconds (it builds an
// exception and its message), so a log of a million broken lines would take seconds; this check walks
// the text once with its own stack, builds nothing and never throws.

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ARRAY = 1;
const OBJECT = 2;

/** True exactly when JSON.parse(text) would succeed. */
export function isJsonText(text: string): boolean {
  const n = text.length;
  const open: number[] = [];
  let i = skipSpace(text, 0);
  for (;;) {
    // A value starts at i.
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      i = skipSpace(text, i + 1);
      const close = c === 0x7b ? 0x7d : 0x5d;
      if (text.charCodeAt(i) === close) {
        i += 1;
      } else {
        open.push(c === 0x7b ? OBJECT : ARRAY);
        if (c === 0x7b) {
          i = member(text, i);
          if (i < 0) return false;
        }
        continue;
      }
    } else if (c === QUOTE) {
      i = stringEnd(text, i);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      i = numberEnd(text, i);
    } else if (c === 0x74) {
      i = text.startsWith('true', i) ? i + 4 : -1;
    } else if (c === 0x66) {
      i = text.startsWith('false', i) ? i + 5 : -1;
    } else if (c === 0x6e) {
      i = text.startsWith('null', i) ? i + 4 : -1;
    } else return false;
    if (i < 0) return false;
    // After a value: close containers, or go on to the next item.
    for (;;) {
      i = skipSpace(text, i);
      if (open.length === 0) return i === n;
      const top = open[open.length - 1];
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i = skipSpace(text, i + 1);
        if (top === OBJECT) {
          i = member(text, i);
          if (i < 0) return false;
        }
        break;
      }
      if ((d === 0x5d && top === ARRAY) || (d === 0x7d && top === OBJECT)) {
        open.pop();
        i += 1;
        continue;
      }
      return false;
    }
  }
}

/** A member's `"key":` at i (spaces before it skipped); the index of its value, or -1. */
function member(text: string, i: number): number {
  if (text.charCodeAt(i) !== QUOTE) return -1;
  i = stringEnd(text, i);
  if (i < 0) return -1;
  i = skipSpace(text, i);
  if (text.charCodeAt(i) !== 0x3a) return -1;
  return skipSpace(text, i + 1);
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== LF && c !== CR) return i;
    i += 1;
  }
}

/** The index after the string that starts at i (a quote), or -1. */
function stringEnd(text: string, i: number): number {
  const n = text.length;
  for (i += 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c !== BACKSLASH) continue;
    const e = text.charCodeAt(++i);
    if (e === 0x75) {
      for (let k = 1; k <= 4; k++) if (!isHex(text.charCodeAt(i + k))) return -1;
      i += 4;
    } else if (!(e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74))
      return -1;
  }
  return -1;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The index after the number that starts at i, or -1. */
function numberEnd(text: string, i: number): number {
  if (text.charCodeAt(i) === 0x2d) i += 1;
  const first = text.charCodeAt(i);
  if (first === 0x30) i += 1;
  else if (first >= 0x31 && first <= 0x39) while (isDigit(text.charCodeAt(++i)));
  else return -1;
  if (text.charCodeAt(i) === 0x2e) {
    if (!isDigit(text.charCodeAt(++i))) return -1;
    while (isDigit(text.charCodeAt(++i)));
  }
  const e = text.charCodeAt(i);
  if (e === 0x45 || e === 0x65) {
    let d = text.charCodeAt(++i);
    if (d === 0x2b || d === 0x2d) d = text.charCodeAt(++i);
    if (!isDigit(d)) return -1;
    while (isDigit(text.charCodeAt(++i)));
  }
  return i;
}
