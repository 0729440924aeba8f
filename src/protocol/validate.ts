// Small structural validators for protocol messages. Every message that crosses the webview boundary
// is untrusted input on the receiving side, so each message type has a validator built from these
// pieces. A validator is typed by what it accepts, so the compiler checks it against the interface.
export type Validator<T> = (value: unknown) => value is T;

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str: Validator<string> = (v): v is string => typeof v === 'string';
export const bool: Validator<boolean> = (v): v is boolean => typeof v === 'boolean';
/** A finite number (NaN and infinities do not survive JSON anyway). */
export const num: Validator<number> = (v): v is number => typeof v === 'number' && Number.isFinite(v);
/** A whole number >= 0: counts, seqs, indexes. */
export const count: Validator<number> = (v): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** A 1-based file line. */
export const line: Validator<number> = (v): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
/** Any JSON value (used only where the content is shown as text by the receiver). */
export const anything: Validator<unknown> = (_v): _v is unknown => true;

export function literal<const L extends readonly (string | number | boolean)[]>(...values: L): Validator<L[number]> {
  const allowed = new Set<unknown>(values);
  return (v): v is L[number] => allowed.has(v);
}

export function optional<T>(inner: Validator<T>): Validator<T | undefined> {
  return (v): v is T | undefined => v === undefined || inner(v);
}

/** An array of at most `max` items, each accepted by `item`. */
export function arrayOf<T>(item: Validator<T>, max = Number.MAX_SAFE_INTEGER): Validator<T[]> {
  return (v): v is T[] => {
    if (!Array.isArray(v) || v.length > max) return false;
    // A plain loop: a window of rows is checked on every scroll that reaches new rows.
    for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
    return true;
  };
}

/** One validator per field of T (optional fields included: their validators accept undefined). */
export type Shape<T> = { [K in keyof T]-?: Validator<T[K]> };

/** An object whose listed fields are each accepted; extra fields are allowed and ignored. */
export function shape<T>(fields: Shape<T>): Validator<T> {
  const keys = Object.keys(fields);
  const checks = Object.values(fields) as Validator<unknown>[];
  return (v): v is T => {
    if (!isObject(v)) return false;
    for (let i = 0; i < keys.length; i++) if (!checks[i](v[keys[i]])) return false;
    return true;
  };
}

/** One of several object shapes told apart by a string field (`kind`, `type`, …). */
export function tagged<T extends Record<K, string>, K extends string>(
  tag: K,
  variants: { [Tag in T[K]]: Validator<Extract<T, Record<K, Tag>>> },
): Validator<T> {
  const table = new Map<string, Validator<unknown>>(Object.entries(variants));
  return (v): v is T => isObject(v) && typeof v[tag] === 'string' && (table.get(v[tag] as string)?.(v) ?? false);
}
