// Making untrusted log text safe and bounded to show. Session text may hold control characters,
// bidi overrides that reorder what a reader sees ("gnp.exe" shown as "exe.png"), and strings of
// megabytes. Everything we show passes through here.

/** Bidi embeddings, overrides and isolates, and the implicit marks: shown as visible escapes. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** C0 and C1 controls except tab and newline, plus line/paragraph separators. */
const CONTROL_KEEP_LINES = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]/g;
const CONTROL_ALL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** What a terminal may act on: C0 controls (tab and newline too), DEL, C1 controls, line and paragraph separators, bidi controls. */
const TERMINAL_UNSAFE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const TERMINAL_UNSAFE_ALL = new RegExp(TERMINAL_UNSAFE.source, 'g');

/**
 * One line for a terminal: every character a terminal may act on becomes a visible `\uXXXX`, so text from
 * a log or a file name can neither run an escape sequence (ESC, OSC, BEL), start a line of its own nor
 * reorder what is shown. On a JSON line these characters can only stand inside strings, where `\uXXXX`
 * is JSON's own escape: the line stays valid JSON with the same value.
 */
export function terminalSafe(text: string): string {
  return TERMINAL_UNSAFE.test(text) ? text.replace(TERMINAL_UNSAFE_ALL, escape) : text;
}

/** Replaces bidi controls with a visible `\uXXXX` so they cannot reorder text. */
export function neutraliseBidi(text: string): string {
  return text.replace(BIDI, escape);
}

/** Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair, adding `…` when cut. */
export function clipTo(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * One line for a list row or a label: whitespace runs become one space, other controls and bidi
 * controls become visible escapes, and the result is at most `max` units long.
 */
export function oneLine(text: string, max = 160): string {
  // Only the part that can be shown is processed: a 1 MB string costs no more than a short one.
  const limit = max * 4 + 64;
  const cut = text.length > limit;
  const head = cut ? text.slice(0, limit) : text;
  const flat = neutraliseBidi(
    head
      .replace(/[\t\n\r\f\v\u0085\u2028\u2029 ]+/g, ' ')
      .trim()
      .replace(CONTROL_ALL, escape),
  );
  if (cut && flat.length < max) return `${flat}…`;
  return clipTo(flat, max);
}

export interface Bounded {
  text: string;
  truncated: boolean;
  /** Length of the whole text in UTF-16 units. */
  length: number;
}

/** Several lines for the inspector: newlines and tabs kept, other controls escaped, at most `max` units. */
export function boundedText(text: string, max = 20_000): Bounded {
  const truncated = text.length > max;
  const head = truncated ? text.slice(0, max) : text;
  const safe = neutraliseBidi(head.replace(/\r\n?/g, '\n').replace(CONTROL_KEEP_LINES, escape));
  return { text: truncated ? `${safe}…` : safe, truncated, length: text.length };
}
