// The core's messages in the display language. The core words its diagnostics, refusal reasons and
// health entries in English and keeps each message's template and arguments beside it
// (src/core/words.ts); here the template is translated through the formatter and filled, nested
// phrases first. A message without words (dsh's own messages, which are quoted as dsh wrote them)
// stays as it is. Through the CLI's English formatter the result is the core's English exactly.
import type { Words } from '../core';
import type { Formatter } from './format';

/** A template and its arguments in the formatter's language. */
export function wordsText(words: Words, fmt: Formatter): string {
  return fmt.t(words.template, ...words.args.map((arg) => (typeof arg === 'object' ? wordsText(arg, fmt) : arg)));
}

/** A core message in the formatter's language: its words translated when it has them, else its text. */
export function coreText(said: { message: string; words?: Words }, fmt: Formatter): string {
  return said.words ? wordsText(said.words, fmt) : said.message;
}

/** A torn tail's `why` in the formatter's language. */
export function tailWhy(tail: { why: string; whyWords?: Words }, fmt: Formatter): string {
  return tail.whyWords ? wordsText(tail.whyWords, fmt) : tail.why;
}
