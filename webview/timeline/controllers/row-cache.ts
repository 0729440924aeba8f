// Rows are pulled from the host by window, a page at a time, as the list scrolls over them. A page
// remembers the generation it was fetched at; when the host's generation moves on (an append, a
// replace) pages become stale: still drawn, so the list does not flash, but fetched again as soon as
// they are in view, so a window from before a change is never taken as current for long.

export interface PageResult<Row> {
  rows: Row[];
  generation: string;
  /** Total rows of this view at that generation. */
  total: number;
}

export type FetchPage<Row> = (start: number, count: number) => Promise<PageResult<Row>>;

/**
 * Rows per request. A jump far into the list needs the 40 or so rows around its target: a small page
 * brings little more than that (each row is copied, checked and kept), and a window of rows seldom
 * spans more than two pages.
 */
export const PAGE_SIZE = 100;
/** Pages kept at most (5,000 rows, a hundred screens): scrolling a 300k log end to end must not keep it all. */
const MAX_PAGES = 50;

interface Page<Row> {
  rows: Row[];
  generation: string;
}

export class RowCache<Row> {
  private readonly pages = new Map<number, Page<Row>>();
  private readonly inFlight = new Map<number, Promise<void>>();
  private generation: string | undefined;
  private closed = false;

  constructor(
    private readonly fetchPage: FetchPage<Row>,
    /** Called when rows first..last arrived (redraw) with the host's total for the view. */
    private readonly onChange: (total: number, first: number, last: number) => void,
  ) {}

  get(index: number): Row | undefined {
    return this.pages.get(Math.floor(index / PAGE_SIZE))?.rows[index % PAGE_SIZE];
  }

  /** Makes sure rows first..last are loaded and current, or on their way. */
  ensure(first: number, last: number): void {
    void this.ready(first, last);
  }

  /** Rows first..last, loaded: resolves once they can be drawn (or could not be fetched). */
  async ready(first: number, last: number): Promise<void> {
    if (last < first || this.closed) return;
    const loads: Promise<void>[] = [];
    for (let p = Math.floor(Math.max(0, first) / PAGE_SIZE); p <= Math.floor(Math.max(0, last) / PAGE_SIZE); p++) loads.push(this.load(p));
    await Promise.all(loads);
  }

  /** This cache's view is gone (another order or filter): late answers are dropped. */
  close(): void {
    this.closed = true;
    this.pages.clear();
  }

  /** The host's generation is now `generation`: every page fetched before is stale. */
  stale(generation: string): void {
    this.generation = generation;
  }

  private load(page: number): Promise<void> {
    const have = this.pages.get(page);
    if (have && have.generation === this.generation) return Promise.resolve();
    const loading = this.inFlight.get(page);
    if (loading) return loading;
    const fetched = this.fetchPage(page * PAGE_SIZE, PAGE_SIZE).then(
      (result) => {
        this.inFlight.delete(page);
        if (this.closed) return;
        if (this.generation === undefined) this.generation = result.generation;
        this.pages.delete(page); // re-insert: the map's order is the eviction order
        this.pages.set(page, { rows: result.rows, generation: result.generation });
        if (this.pages.size > MAX_PAGES) {
          const oldest = this.pages.keys().next().value;
          if (oldest !== undefined) this.pages.delete(oldest);
        }
        this.onChange(result.total, page * PAGE_SIZE, page * PAGE_SIZE + result.rows.length - 1);
      },
      () => {
        this.inFlight.delete(page);
      },
    );
    this.inFlight.set(page, fetched);
    return fetched;
  }
}
