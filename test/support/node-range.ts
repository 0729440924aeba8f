// Whether a Node version satisfies an `engines.node` range as npm writes them ("^20.19.0 || ^22.13.0 ||
// >=24", "18 || 20 || >=22", ">= 10.*", "*"): comparator sets joined by "||", each a list of
// comparators that must all hold. Enough of npm's range syntax for the ranges packages put in engines;
// a range it cannot read is an error, never a silent pass.
type Version = [number, number, number];

const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** "20", "20.19", "20.x", "20.19.*": the numbers given (a wildcard ends them). */
function partial(text: string): number[] {
  const parts: number[] = [];
  for (const p of text.split('.')) {
    if (p === '*' || p === 'x' || p === 'X') break;
    if (!/^\d+$/.test(p)) throw new Error(`not a version: "${text}"`);
    parts.push(Number(p));
  }
  return parts;
}

const floor = (p: number[]): Version => [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0];

/** The half-open interval [low, high) a partial version stands for ("20" is [20.0.0, 21.0.0)). */
function span(p: number[]): [Version, Version | undefined] {
  if (p.length === 0) return [[0, 0, 0], undefined];
  if (p.length === 1) return [floor(p), [p[0] + 1, 0, 0]];
  if (p.length === 2) return [floor(p), [p[0], p[1] + 1, 0]];
  return [floor(p), [p[0], p[1], p[2] + 1]];
}

function holds(v: Version, comparator: string): boolean {
  const m = /^(\^|~|>=|<=|>|<|=)?\s*v?(.*)$/.exec(comparator);
  if (!m) throw new Error(`not a comparator: "${comparator}"`);
  const [, op = '', rest] = m;
  const p = partial(rest === '' ? '*' : rest);
  const [low, high] = span(p);
  switch (op) {
    case '>=':
      return compare(v, low) >= 0;
    case '>':
      return high === undefined ? false : compare(v, high) >= 0;
    case '<':
      return compare(v, low) < 0;
    case '<=':
      return high === undefined ? true : compare(v, high) < 0;
    case '^': {
      // Up to the next change of the first non-zero part given.
      const top: Version =
        low[0] > 0 || p.length < 2 ? [low[0] + 1, 0, 0] : low[1] > 0 || p.length < 3 ? [0, low[1] + 1, 0] : [0, 0, low[2] + 1];
      return compare(v, low) >= 0 && compare(v, top) < 0;
    }
    case '~':
      return compare(v, low) >= 0 && compare(v, p.length < 2 ? [low[0] + 1, 0, 0] : [low[0], low[1] + 1, 0]) < 0;
    default:
      return compare(v, low) >= 0 && (high === undefined || compare(v, high) < 0);
  }
}

/** Whether `version` ("20.19.0") is in `range`. */
export function satisfiesNodeRange(version: string, range: string): boolean {
  const v = floor(partial(version));
  return range.split('||').some((set) => {
    const comparators = set
      .trim()
      .replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (comparators.length === 3 && comparators[1] === '-') {
      const [low, high] = [floor(partial(comparators[0])), span(partial(comparators[2]))[1]];
      return compare(v, low) >= 0 && (high === undefined || compare(v, high) < 0);
    }
    return comparators.length === 0 || comparators.every((c) => holds(v, c));
  });
}

/** The lowest version each "||" part of a range admits (">=24" gives 24.0.0), for probing a range. */
export function lowestOfEachPart(range: string): string[] {
  return range.split('||').map((set) => {
    const first = set.trim().replace(/^(\^|~|>=|=)\s*/, '');
    return floor(partial(first.split(/\s+/)[0])).join('.');
  });
}
