// The order keys appear in a JSON value, as dotted paths ("data.message.content[].type"): two
// lines with the same key order serialize their shared fields in the same byte layout.
export function keyOrder(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => keyOrder(item, `${path}[]`));
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    out.push(here, ...keyOrder(child, here));
  }
  return out;
}

/** Paths in first-seen order without repeats (arrays of like items list each key once). */
export function distinctKeyOrder(value: unknown): string[] {
  return [...new Set(keyOrder(value))];
}
