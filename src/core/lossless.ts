// dsh's strict constructor (Session.create) accepts only lossless JSON: no -0 and no non-finite
// numbers. JSON text can produce both (`-0`, `1e400`), and the persistence load path does not check,
// so the core reports them as warnings plus the strictSeed verdict.

// Cheap text pre-filters: only lines that could hold -0 or an overflowing number are walked. They are
// split because one alternation was slower than JSON.parse itself on typical lines.
const NEGATIVE_ZERO = /[:,[]\s*-0(?:\.0*)?(?:[eE][+-]?\d+)?\s*[,\]}]/;
const BIG_EXPONENT = /\d[eE]\+?0*[1-9]\d{2}/;
/** A number needs 309 digits to overflow; a run of 40 is rare enough to be worth walking the value. */
const LONG_RUN = 40;

/** A plain loop: the regex `\d{40}` cost more than parsing the line. */
function hasLongDigitRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++run >= LONG_RUN) return true;
    } else run = 0;
  }
  return false;
}

export function mayBeLossy(lineText: string): boolean {
  return (lineText.includes('-0') && NEGATIVE_ZERO.test(lineText)) || BIG_EXPONENT.test(lineText) || hasLongDigitRun(lineText);
}

/** Whether a parsed JSON value is losslessly serializable (iterative walk: deep nesting is fine). */
export function isLosslessJson(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'number') {
      if (!Number.isFinite(current) || Object.is(current, -0)) return false;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (typeof current === 'object' && current !== null) {
      for (const key of Object.keys(current)) pending.push((current as Record<string, unknown>)[key]);
    }
  }
  return true;
}
