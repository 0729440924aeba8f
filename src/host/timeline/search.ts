// Text search over the whole log, done by the host (the webview only holds the rows it shows). It
// matches an event's JSON line as written — also a query as it looks inside a JSON string (quotes and
// newlines escaped) — in slices that yield to the event loop, reports progress, and stops when
// cancelled or replaced by a newer search. Matches are given as rows of the searched order.
import type { SessionLog } from '../../core';
import { boundedJson, oneLine } from '../../present';
import type { SearchMatch, SearchQuery, SearchResult } from '../../protocol';
import type { RowList } from './row-lists';

const SLICE_MS = 30;
const PROGRESS_EVERY_MS = 100;
const FIRST_MATCHES = 100;
/** Searches kept for paging and next/previous. */
const KEEP = 4;

interface SearchState {
  id: number;
  cancelled: boolean;
  /** Matches sorted by row, then seq. */
  matches: SearchMatch[];
}

export interface SearchProgress {
  searchId: number;
  scanned: number;
  total: number;
  matchCount: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matcher(query: SearchQuery): RegExp {
  const plain = escapeRegExp(query.text);
  const inJson = escapeRegExp(JSON.stringify(query.text).slice(1, -1));
  return new RegExp(inJson === plain ? plain : `${plain}|${inJson}`, query.caseSensitive ? '' : 'i');
}

function excerpt(text: string, at: number, length: number): string {
  const from = Math.max(0, at - 50);
  return oneLine(`${from > 0 ? '…' : ''}${text.slice(from, at + length + 70)}`, 160);
}

export class SearchService {
  private nextId = 1;
  private readonly searches: SearchState[] = [];

  /** Starts a search; a running one is cancelled. Resolves when the whole log was searched or it was cancelled. */
  async run(log: SessionLog, list: RowList, query: SearchQuery, progress: (p: SearchProgress) => void): Promise<SearchResult> {
    for (const s of this.searches) s.cancelled = true;
    const state: SearchState = { id: this.nextId++, cancelled: false, matches: [] };
    this.searches.push(state);
    if (this.searches.length > KEEP) this.searches.shift();
    const pattern = matcher(query);
    const total = log.eventCount;
    const found: { seq: number; excerpt: string }[] = [];
    let seq = 0;
    let lastProgress = Date.now();
    let lastLineStart = -1;
    let lastLineMatched = false;
    while (seq < total && !state.cancelled) {
      const sliceStart = Date.now();
      while (seq < total && Date.now() - sliceStart < SLICE_MS) {
        for (let k = 0; k < 256 && seq < total; k++, seq++) {
          const place = log.place(seq);
          if (!place) continue;
          if (place.packedMember === undefined) {
            const text = log.lineText(seq)!;
            const m = pattern.exec(text);
            if (m) found.push({ seq, excerpt: excerpt(text, m.index, m[0].length) });
            continue;
          }
          // Members of a packed row share a line: test the line once, then each member's own JSON.
          if (place.offset !== lastLineStart) {
            lastLineStart = place.offset;
            lastLineMatched = pattern.test(log.lineText(seq)!);
          }
          if (!lastLineMatched) continue;
          const text = boundedJson(log.event(seq), { maxChars: 1_000_000 }).text;
          const m = pattern.exec(text);
          if (m) found.push({ seq, excerpt: excerpt(text, m.index, m[0].length) });
        }
      }
      if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        progress({ searchId: state.id, scanned: seq, total, matchCount: found.length });
      }
      if (seq < total) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const matches: SearchMatch[] = [];
    for (const f of found) {
      const rowIndex = list.rowOf(f.seq);
      if (rowIndex !== undefined) matches.push({ matchIndex: 0, seq: f.seq, rowIndex, excerpt: f.excerpt });
    }
    matches.sort((a, b) => a.rowIndex - b.rowIndex || a.seq - b.seq);
    matches.forEach((m, i) => {
      m.matchIndex = i;
    });
    state.matches = matches;
    progress({ searchId: state.id, scanned: seq, total, matchCount: matches.length });
    return { searchId: state.id, matchCount: matches.length, complete: !state.cancelled, first: matches.slice(0, FIRST_MATCHES) };
  }

  cancel(searchId: number): boolean {
    const s = this.searches.find((x) => x.id === searchId);
    if (!s || s.cancelled) return false;
    s.cancelled = true;
    return true;
  }

  private get(searchId: number): SearchState | undefined {
    return this.searches.find((x) => x.id === searchId);
  }

  has(searchId: number): boolean {
    return this.get(searchId) !== undefined;
  }

  matches(searchId: number, start: number, count: number): { matchCount: number; matches: SearchMatch[] } | undefined {
    const s = this.get(searchId);
    return s && { matchCount: s.matches.length, matches: s.matches.slice(start, start + count) };
  }

  /** The first match after `fromRow` (next) or before it (previous), wrapping around the ends. */
  step(searchId: number, fromRow: number, direction: 'next' | 'previous'): { match?: SearchMatch; matchCount: number } | undefined {
    const s = this.get(searchId);
    if (!s) return undefined;
    const list = s.matches;
    if (list.length === 0) return { matchCount: 0 };
    // First index whose row is > fromRow.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].rowIndex <= fromRow) lo = mid + 1;
      else hi = mid;
    }
    if (direction === 'next') return { match: list[lo % list.length], matchCount: list.length };
    // Last index whose row is < fromRow.
    let before = lo - 1;
    while (before >= 0 && list[before].rowIndex >= fromRow) before -= 1;
    return { match: list[(before + list.length) % list.length], matchCount: list.length };
  }

  cancelAll(): void {
    for (const s of this.searches) s.cancelled = true;
  }
}
