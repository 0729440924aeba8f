// A search over the whole log, done by the host: the query, its matches (as rows of the searched
// order) and the result a finished search answers with.
// Plain JSON data only. Every string in here has already been made safe to show by the host's
// presentation layer (single line where it says so, bounded, bidi controls neutralised); the webview
// still renders all of it as text, never as HTML.
import { arrayOf, bool, count, optional, shape, str, type Validator } from './validate';
import { isRowFilter, isRowOrder, type RowFilter, type RowOrder } from './rows';

export interface SearchQuery {
  text: string;
  caseSensitive?: boolean;
  /** Matches are reported as row indexes of this order and filter. */
  order: RowOrder;
  filter?: RowFilter;
}
export const isSearchQuery: Validator<SearchQuery> = shape<SearchQuery>({
  text: (v): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 1000,
  caseSensitive: optional(bool),
  order: isRowOrder,
  filter: optional(isRowFilter),
});

export interface SearchMatch {
  /** 0-based index of the match among all matches (in order of rows). */
  matchIndex: number;
  seq: number;
  /** Row index in the searched order, so the list can scroll to it. */
  rowIndex: number;
  /** One line around the match, bounded. */
  excerpt: string;
}
export const isSearchMatch: Validator<SearchMatch> = shape<SearchMatch>({ matchIndex: count, seq: count, rowIndex: count, excerpt: str });

export interface SearchResult {
  searchId: number;
  matchCount: number;
  /** False when the search was cancelled (by `cancelSearch` or a newer `search`) before the end. */
  complete: boolean;
  /** The first matches (up to 100); more through `searchMatches`. */
  first: SearchMatch[];
}
export const isSearchResult: Validator<SearchResult> = shape<SearchResult>({
  searchId: count,
  matchCount: count,
  complete: bool,
  first: arrayOf(isSearchMatch, 100),
});
