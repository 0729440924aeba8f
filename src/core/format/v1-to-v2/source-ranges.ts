// `sourceEventSeqs` as v2 and later store it: a list of seqs and `[start, end]` pairs, a pair standing
// for every seq from start to end. The writer packs runs of three or more consecutive seqs into pairs.
import { SessionFormatError } from '../errors';
import { formatCount } from '../json';

/**
 * A validated physical list, not yet expanded: `[first, last]` spans in list order. Validation works
 * on the spans, so a hostile pair such as `[0, 9007199254740990]` is judged without being expanded.
 */
export interface SourceSpans {
  readonly spans: readonly (readonly [number, number])[];
  readonly count: number;
}

/**
 * Checks one row's physical `sourceEventSeqs` against the row's own seq, in the order and words of
 * dsh's v2 decoder: members and pairs one by one, then uniqueness and earliness, then (when the list
 * has a pair) strict increase.
 */
export function readSourceSpans(value: unknown, seq: number): SourceSpans {
  if (!Array.isArray(value)) throw new SessionFormatError('sourceEventSeqs must be an array');
  const spans: [number, number][] = [];
  let count = 0;
  let hasPair = false;
  for (const entry of value) {
    if (!Array.isArray(entry)) {
      const member = formatCount(entry, 'sourceEventSeqs member');
      spans.push([member, member]);
      count += 1;
      continue;
    }
    if (entry.length !== 2) throw new SessionFormatError('sourceEventSeqs range must be a [start, end] pair');
    const start = formatCount(entry[0], 'sourceEventSeqs range start');
    const end = formatCount(entry[1], 'sourceEventSeqs range end');
    if (start > end || end >= seq || end - start + 1 > seq - count)
      throw new SessionFormatError('sourceEventSeqs range exceeds its event seq');
    spans.push([start, end]);
    count += end - start + 1;
    hasPair = true;
  }
  if (spans.some(([, last]) => last >= seq) || overlaps(spans))
    throw new SessionFormatError('sourceEventSeqs ranges must contain unique earlier seqs');
  if (hasPair && spans.some(([first], index) => index > 0 && first <= spans[index - 1][1]))
    throw new SessionFormatError('sourceEventSeqs ranges must be strictly increasing');
  return { spans, count };
}

export function expandSourceSpans(spans: SourceSpans): number[] {
  const seqs = new Array<number>(spans.count);
  let at = 0;
  for (const [first, last] of spans.spans) for (let seq = first; seq <= last; seq++) seqs[at++] = seq;
  return seqs;
}

/** Whether two spans share a seq. */
function overlaps(spans: readonly (readonly [number, number])[]): boolean {
  if (spans.length < 2) return false;
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  for (let index = 1; index < sorted.length; index++) if (sorted[index][0] <= sorted[index - 1][1]) return true;
  return false;
}

/** The physical form the writer stores: runs of three or more consecutive seqs as pairs, unless the list is not increasing. */
export function encodeSourceSeqs(seqs: readonly number[]): (number | [number, number])[] {
  for (let index = 1; index < seqs.length; index++) if (seqs[index] <= seqs[index - 1]) return [...seqs];
  const encoded: (number | [number, number])[] = [];
  for (let index = 0; index < seqs.length;) {
    const start = seqs[index];
    let end = start;
    while (index + 1 < seqs.length && seqs[index + 1] === end + 1) {
      index += 1;
      end += 1;
    }
    if (end - start >= 2) encoded.push([start, end]);
    else {
      encoded.push(start);
      if (end > start) encoded.push(end);
    }
    index += 1;
  }
  return encoded;
}
