// The CLI speaks English, whatever the machine's language: its output is read by scripts and compared
// by tests byte for byte, so the presentation layer's words stay untranslated here.
import { Formatter } from '../present';

export const english = new Formatter();

/** "1 event", "300052 events": a count and its noun, the digits as written (scripts read them). */
export function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The seqs of `count` lines from `first` on: "seq 40", "seqs 40–42". */
export function seqSpan(first: number, count: number): string {
  return count === 1 ? `seq ${first}` : `seqs ${first}–${first + count - 1}`;
}

/** A core message's words: `{ template, args }` (src/core/words.ts). */
function isWords(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 2 && typeof (value as { template?: unknown }).template === 'string' && Array.isArray((value as { args?: unknown }).args)
  );
}

/**
 * `value` without the words the core keeps beside its English messages for other display languages
 * (`words`, and a torn tail's `whyWords`): the CLI's JSON stays what scripts already read. Plain
 * objects and arrays are copied only where something is left out; anything else is kept as it is.
 */
export function withoutWords<T>(value: T, depth = 0): T {
  if (typeof value !== 'object' || value === null || depth > 32) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item: unknown) => {
      const kept = withoutWords(item, depth + 1);
      if (kept !== item) changed = true;
      return kept;
    });
    return (changed ? out : value) as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const drop = (key === 'words' || key === 'whyWords') && isWords(item);
    const kept = drop ? undefined : withoutWords(item, depth + 1);
    if (!drop && kept === item) continue;
    out ??= { ...(value as Record<string, unknown>) };
    if (drop) delete out[key];
    else out[key] = kept;
  }
  return (out ?? value) as T;
}
