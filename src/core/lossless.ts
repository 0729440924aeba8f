// dsh's strict constructor (Session.create) accepts only lossless JSON: no -0 and no non-finite
// numbers. JSON text can produce both (`-0`, `1e400`), and the persistence load path does not check,
// so the core reports them as warnings plus the strictSeed verdict.

/** Cheap text pre-filter: only lines that could hold -0 or an overflowing number are walked. */
const SUSPECT = /[:,[]\s*-0(?:\.0*)?(?:[eE][+-]?\d+)?\s*[,\]}]|\d[eE]\+?0*[1-9]\d{2,}|\d{300}/;

export function mayBeLossy(lineText: string): boolean {
  return SUSPECT.test(lineText);
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
