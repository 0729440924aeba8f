// The webview's words in VS Code's display language: the host sends the translated strings table
// (src/protocol/webview-strings.ts) and the page looks each English string up here, falling back to
// the English when the table has not arrived or lacks it. Text the host worded (event labels, header
// fields, the live state) arrives in the display language already and is shown as it is. No DOM here (controllers word what they
// announce with it, under Node in the unit tests too): the page sets its `lang` attribute itself.
import { localize, type WebviewString } from '../../src/protocol';

let table: Record<string, string> | undefined;
/** Bumped when the table changes, so words kept per row are worded again. */
let version = 0;
export function stringsVersion(): number {
  return version;
}

/** Numbers as VS Code's display language writes them; never the browser's own language. */
let numbers = new Intl.NumberFormat('en');

/** Whether `language` is a BCP 47 tag the page may put in its `lang` attribute. */
export function isLanguageTag(language: string): boolean {
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(language);
}

export function setStrings(strings: Record<string, string>, language: string): void {
  table = strings;
  version++;
  if (isLanguageTag(language)) setNumberLocale(language);
}

/** The display language for numbers: the strings' language first, then the summary's `locale`. */
export function setNumberLocale(locale: string): void {
  try {
    numbers = new Intl.NumberFormat(locale);
  } catch {
    // A tag Intl does not accept keeps the format there was.
  }
}

/** A number in VS Code's display language ("2,854"). */
export function formatNumber(n: number): string {
  return numbers.format(n);
}

/** The translation of a string of the table, with {0}, {1}… filled in. */
export function t(english: WebviewString, ...args: (string | number)[]): string {
  return localize(table, english, ...args);
}

/**
 * `one` when `n` is 1, else `many` with `n` as {0}; further args fill {1}, {2}… in either. English has
 * the two forms; a translation words each (Chinese the same way twice).
 */
export function counted(n: number, one: WebviewString, many: WebviewString, ...rest: (string | number)[]): string {
  return n === 1 ? t(one, n, ...rest) : t(many, n, ...rest);
}

/** A span of milliseconds as the host words one ("340 ms", "1.2 s", "3 min 05 s", "2 h 04 min"). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms < 1000) return t('{0} ms', formatNumber(Math.round(ms)));
  if (ms < 60_000) return t('{0} s', formatNumber(Math.round(ms / 100) / 10));
  const s = Math.round(ms / 1000);
  if (s < 3600) return t('{0} min {1} s', Math.floor(s / 60), String(s % 60).padStart(2, '0'));
  return t('{0} h {1} min', formatNumber(Math.floor(s / 3600)), String(Math.floor((s % 3600) / 60)).padStart(2, '0'));
}
