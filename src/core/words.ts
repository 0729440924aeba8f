// The core words its messages in English, and a display in another language words them again. So each
// message keeps its English template ({0}, {1}… placeholders, the convention of vscode.l10n.t) and
// its arguments beside the English text: the presentation layer translates the template and fills it.
// scripts/l10n-bundle.mjs collects the literal templates of `say(…)` calls into the string bundles.
import { stringText } from './value-text';

/** A message as a template and what fills it; an argument may itself be a worded phrase. */
export interface Words {
  template: string;
  args: WordArg[];
}

export type WordArg = string | number | Words;

/** A message in English and its words. Spread into a diagnostic: `{ rule, ...say(template, n) }`. */
export interface Said {
  message: string;
  words: Words;
}

/** Fills {0}, {1}… of a template; a placeholder without an argument stays as written. */
function fill(template: string, args: readonly (string | number)[]): string {
  // A scan rather than a regular expression with a callback: a log can word one message per event.
  let out = '';
  let copied = 0;
  for (let open = template.indexOf('{'); open !== -1; open = template.indexOf('{', open + 1)) {
    let close = open + 1;
    while (close < template.length && isDigit(template.charCodeAt(close))) close++;
    if (close === open + 1 || template.charCodeAt(close) !== CLOSE_BRACE) continue;
    const arg = args[Number(template.slice(open + 1, close))];
    if (arg === undefined) continue;
    out += template.slice(copied, open) + String(arg);
    copied = close + 1;
    open = close;
  }
  return copied === 0 ? template : out + template.slice(copied);
}

const CLOSE_BRACE = 0x7d;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * `template` filled in English, with its words. An argument that is itself `say(…)` is a nested
 * phrase: its English fills the message and its words are translated on their own.
 */
export function say(template: string, ...args: (string | number | Said)[]): Said {
  if (typeof template !== 'string') template = stringText(template);
  const english: (string | number)[] = [];
  const words: WordArg[] = [];
  for (const arg of args as unknown[]) {
    if (isSaid(arg)) {
      english.push(arg.message);
      words.push(arg.words);
    } else {
      // Values from a log or a caller may be of any type: shown as a template literal would show them.
      const shown = typeof arg === 'number' ? arg : stringText(arg);
      english.push(shown);
      words.push(shown);
    }
  }
  return { message: fill(template, english), words: { template, args: words } };
}

function isSaid(value: unknown): value is Said {
  try {
    return typeof value === 'object' && value !== null && typeof (value as Said).message === 'string' && 'words' in value;
  } catch {
    return false; // a Proxy: shown as any other value
  }
}

/** A message given either as plain English or as `say(…)`, as the fields of a diagnostic. */
export function said(message: string | Said): { message: string; words?: Words } {
  return typeof message === 'string' ? { message } : message;
}
