// `sourceEventSeqs` as v0/v1 rows may write it: plain seqs and `[start, end]` range pairs. The rules
// are checked arithmetically first, so a row whose range claims billions of seqs is refused (or, when
// the row is dropped anyway, never expanded) without materialising it.
import { SessionFormatError } from '../errors';
import { formatCount } from '../json';

/** Checked entries: plain seqs and inclusive ranges, in order. */
export interface SeqRanges {
  entries: (number | readonly [number, number])[];
  length: number;
}

/** Checks a physical `sourceEventSeqs` of the event at `seq` (dsh's v0/v1 rules and messages). */
export function decodeSeqRanges(value: unknown, seq: number): SeqRanges {
  if (!Array.isArray(value)) throw new SessionFormatError('sourceEventSeqs must be an array');
  const entries: (number | readonly [number, number])[] = [];
  let length = 0;
  let hasRange = false;
  let increasing = true;
  let last = -1;
  for (const entry of value) {
    if (typeof entry === 'number') {
      if (length >= seq) throw new SessionFormatError('sourceEventSeqs exceeds its event seq');
      const member = formatCount(entry, 'sourceEventSeqs member');
      if (length > 0 && member <= last) increasing = false;
      entries.push(member);
      last = member;
      length += 1;
      continue;
    }
    if (!Array.isArray(entry) || entry.length !== 2) throw new SessionFormatError('sourceEventSeqs range must be a [start, end] pair');
    const start = formatCount(entry[0], 'sourceEventSeqs range start');
    const end = formatCount(entry[1], 'sourceEventSeqs range end');
    if (end < start || end - start + 1 > seq - length) throw new SessionFormatError('sourceEventSeqs range exceeds its event seq');
    if (length > 0 && start <= last) increasing = false;
    entries.push([start, end]);
    last = end;
    length += end - start + 1;
    hasRange = true;
  }
  if (hasRange && !increasing) throw new SessionFormatError('sourceEventSeqs ranges must be strictly increasing');
  return { entries, length };
}

/** The seqs the entries stand for. */
export function expandSeqRanges(ranges: SeqRanges): number[] {
  const out = new Array<number>(ranges.length);
  let at = 0;
  for (const entry of ranges.entries) {
    if (typeof entry === 'number') out[at++] = entry;
    else for (let seq = entry[0]; seq <= entry[1]; seq++) out[at++] = seq;
  }
  return out;
}
