// What is opened in place in the list: shadowed brackets (the nodes a replacement shadowed, drawn
// under it as rows of the Full log) and collapsed chunk runs (a run of assistant/chunk events shown as
// one row until it is expanded, which asks the host for the list again).
import type { ShadowBracket, TimelineRow } from '../../../src/protocol';
import type { ListController } from './list-controller';
import { TimelineController, type TimelineHost } from './timeline-host';

/** Rows a bracket shows at most (a compaction may shadow thousands). */
export const BRACKET_ROWS = 200;

export class ExpansionController extends TimelineController {
  /** The replacements of the log, by replacement seq. */
  brackets: ReadonlyMap<number, ShadowBracket> = new Map();
  readonly expandedBrackets = new Set<number>();
  readonly expandedRuns = new Set<number>();
  /** Rows of shadowed events, by seq, as the Full log draws them. */
  private readonly bracketRows = new Map<number, TimelineRow>();

  constructor(
    host: TimelineHost,
    private readonly list: ListController,
  ) {
    super(host);
  }

  async loadBrackets(): Promise<void> {
    const { result } = await this.host.request('shadowBrackets', {});
    this.brackets = new Map(result.brackets.map((b) => [b.replacementSeq, b]));
    this.host.requestUpdate();
  }

  /** The shadowed rows of a bracket, as far as they have arrived (undefined until then). */
  rowsOf(bracket: ShadowBracket): (TimelineRow | undefined)[] {
    return bracket.shadowedSeqs.slice(0, BRACKET_ROWS).map((seq) => this.bracketRows.get(seq));
  }

  /** Opens what the row holds (ArrowRight): a collapsed run first, else its bracket. */
  open(row: TimelineRow): boolean {
    if (row.kind === 'chunkRun' && !this.expandedRuns.has(row.seq)) this.toggleRun(row);
    else if (this.brackets.has(row.seq) && !this.expandedBrackets.has(row.seq)) this.toggleBracket(row.seq);
    else return false;
    return true;
  }

  /** Closes what the row holds open (ArrowLeft): its bracket first, else its run. */
  close(row: TimelineRow): boolean {
    if (this.expandedBrackets.has(row.seq)) this.toggleBracket(row.seq);
    else if (this.expandedRuns.has(row.seq)) this.toggleRun(row);
    else return false;
    return true;
  }

  toggleBracket(replacementSeq: number): void {
    if (this.expandedBrackets.has(replacementSeq)) this.expandedBrackets.delete(replacementSeq);
    else {
      this.expandedBrackets.add(replacementSeq);
      void this.loadBracketRows(this.brackets.get(replacementSeq));
    }
    this.host.requestUpdate();
  }

  /** The shadowed nodes of a bracket, as rows of the unfiltered Full log (whose row index is the seq). */
  private async loadBracketRows(b: ShadowBracket | undefined): Promise<void> {
    if (!b) return;
    const wanted = b.shadowedSeqs.slice(0, BRACKET_ROWS).filter((seq) => !this.bracketRows.has(seq));
    // Nearby seqs share one window: a compaction usually shadows a contiguous stretch of the log.
    const runs: [number, number][] = [];
    for (const seq of wanted) {
      const last = runs[runs.length - 1];
      if (last && seq - last[1] <= 20 && seq - last[0] < 1000) last[1] = seq;
      else runs.push([seq, seq]);
    }
    for (const [first, last] of runs) {
      const { result } = await this.host.request('rows', { order: 'log', start: first, count: last - first + 1, filter: {} });
      for (const row of result.rows) this.bracketRows.set(row.seq, row);
      this.host.requestUpdate();
    }
  }

  /** Expands or collapses a chunk run: the list starts again, keeping the run's row in view. */
  toggleRun(row: TimelineRow): void {
    if (this.expandedRuns.has(row.seq)) this.expandedRuns.delete(row.seq);
    else this.expandedRuns.add(row.seq);
    this.list.reset();
    void this.list.rowOf(row.seq).then((index) => {
      if (index !== undefined) {
        this.list.activeIndex = index;
        this.list.scrollToIndex(index, 'center');
      }
    });
  }
}
