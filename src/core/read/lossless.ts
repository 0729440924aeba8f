// dsh's strict constructor (Session.create) accepts only lossless JSON: no -0 and no non-finite
// numbers. JSON text can produce both (`-0`, `1e400`), and the persistence load path does not check,
// so the core reports them as warnings plus the strictSeed verdict.

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

/**
 * The same answer for a value just parsed from JSON text, fast enough to run on every event while
 * loading: strings are skipped without looking at them (a text filter would see inside them).
 * Recursive for speed; a value nested deeper than the stack falls back to the iterative walk.
 */
export function isLosslessParsed(value: unknown): boolean {
  try {
    return losslessNode(value);
  } catch {
    return isLosslessJson(value);
  }
}

function losslessNode(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'number' || losslessNumber(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === 'number' ? !losslessNumber(item) : typeof item === 'object' && item !== null && !losslessNode(item)) return false;
    }
    return true;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'number' ? !losslessNumber(item) : typeof item === 'object' && item !== null && !losslessNode(item)) return false;
  }
  return true;
}

/**
 * The same answer for a packed row that passed validateRow: its only numbers are seq0, time0, the
 * data's turn, step and index, and the dt gaps (every other value is a string, and the keys are
 * exactly known), so only those are looked at. Safe integers can still be -0.
 */
export function isLosslessRow(row: Record<string, any>): boolean {
  const data = row.data;
  if (!losslessNumber(row.seq0) || !losslessNumber(row.time0)) return false;
  if (!losslessNumber(data.turn) || !losslessNumber(data.step) || !losslessNumber(data.index)) return false;
  const dt = data.dt as number[];
  for (let i = 0; i < dt.length; i++) if (dt[i] === 0 && 1 / dt[i] < 0) return false;
  return true;
}

function losslessNumber(n: number): boolean {
  return n - n === 0 && (n !== 0 || 1 / n > 0);
}
