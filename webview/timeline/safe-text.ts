// Session text is untrusted. Everything the timeline shows goes through these helpers before it is
// bound as a text node (never as HTML): direction-changing controls are made visible instead of
// reordering what follows them, and long strings are cut to a size the page can lay out.

// Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the implicit marks
// (U+200E, U+200F, U+061C): each is shown as its code point so "gnp.exe" with an override reads as written.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export function neutraliseBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `\u2039U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}\u203A`);
}

/** One line: whitespace runs (newlines included) become one space; cut at `max` characters. */
export function oneLine(text: string, max = 240): string {
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = head.replace(/\s+/g, ' ').trim();
  return neutraliseBidi(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

/** A block of text for the inspector, cut at `max` characters with a note of how much was left out. */
export function clampBlock(text: string, max = 20_000): { text: string; omitted: number } {
  if (text.length <= max) return { text: neutraliseBidi(text), omitted: 0 };
  return { text: neutraliseBidi(text.slice(0, max)), omitted: text.length - max };
}
