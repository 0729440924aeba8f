// One loaded log as the timeline sees it: the core's log with the indexes the webview's questions need
// (rows in three orders, turns and steps, diagnostics by seq, repair marks, spans, searches). One
// instance per load; a reload makes a new one (a new `load` in the generation stamp). No vscode here:
// the host hands in what needs the editor (reveal, reload, the repair commands). The protocol's
// requests are answered over this by ./request-handlers.ts, one function per method.
import { type Diagnostic, type FormatVerdict, type LoadedFile, type SessionLog, findRepairsMade } from '../../core';
import { logDiagnostics, upgradeDiagnostic, type Formatter } from '../../present';
import {
  RequestError,
  type AppendedNote,
  type LineageTarget,
  type RepairAction,
  type SessionSummary,
  type SeverityMark,
} from '../../protocol';
import { liveState, liveText } from '../../present';
import { crashReviewView, hasTornTail } from './crash-view';
import { RowLists } from './row-lists';
import { timeBounds, type RowContext } from './rows';
import { SearchService } from './search';
import { SpanIndex } from './spans';
import { LaterLinks } from './later-links';
import { buildSummary, followWord, summaryCounts, summaryFacts, type SummaryContext } from './summary';
import { TimelineIndex } from './timeline-index';

/** What the editor side provides. */
export interface TimelineHost {
  summaryContext(): Omit<SummaryContext, 'generation' | 'diagnostics' | 'upgrade'>;
  /** Opens the log as text at a 1-based file line. */
  reveal(line: number): Promise<boolean>;
  reload(): void;
  /** The file's bytes as they are now (for a torn tail's preview); absent where they cannot be read. */
  readFileBytes?(): Promise<Uint8Array | undefined>;
  /** Runs Apply Crash Repair or Remove Torn Tail on this log; each command asks before it writes. */
  runRepairAction?(action: RepairAction): Promise<boolean>;
  /** How many child sessions of this one the sessions folder holds; absent where there is no catalogue. */
  childSessions?(): Promise<number>;
  /** Opens the parent's log or a child's in the session editor. */
  openLineage?(to: LineageTarget): Promise<boolean>;
  /** Opens a session of the sessions folder by its id; false when the folder does not hold it. */
  openSession?(id: string): Promise<boolean>;
}

interface DiagnosticState {
  events: number;
  list: Diagnostic[];
  bySeq: Map<number, Diagnostic[]>;
  worstBySeq: Map<number, SeverityMark>;
}

const RANK: Record<SeverityMark, number> = { info: 0, warning: 1, error: 2 };

export class SessionTimeline {
  readonly index: TimelineIndex;
  readonly lists: RowLists;
  readonly search = new SearchService();
  private spans: SpanIndex | undefined;
  private later: LaterLinks | undefined;
  private diagnosticState: DiagnosticState | undefined;
  private repairState: { events: number; marks: Map<number, 'closer' | 'seed'> } | undefined;
  private upgradeState: { events: number; verdict: FormatVerdict } | undefined;

  constructor(
    readonly source: LoadedFile,
    readonly load: number,
    readonly fmt: Formatter,
    readonly host: TimelineHost,
  ) {
    this.index = new TimelineIndex(source.log, load);
    this.lists = new RowLists(source.log, this.index, (seq) => this.repairMarks().has(seq));
  }

  get log(): SessionLog {
    return this.source.log;
  }

  get generation() {
    return this.index.generation;
  }

  /**
   * Takes in events a writer appended (already folded into the log by the core). Only the new
   * events are indexed; lists, spans and diagnostics catch up when next asked for.
   */
  foldAppend(): { surfaceChanged: boolean } {
    return { surfaceChanged: this.index.extend() };
  }

  /**
   * Today's dsh's verdict on the log (it migrates an older generation, or refuses), read now when the
   * log grew since it was last read. Migrating a large older log takes a while: the document asks for
   * it after the load, and the summary and diagnostics carry it from then on.
   */
  readUpgrade(): FormatVerdict {
    const log = this.log;
    if (this.upgradeState?.events === log.eventCount) return this.upgradeState.verdict;
    const verdict = log.upgradeRead({ digest: false }).verdict;
    this.upgradeState = { events: log.eventCount, verdict };
    this.diagnosticState = undefined; // its refusal joins the diagnostics
    return verdict;
  }

  /** Today's dsh's verdict as last read (undefined until read; it may lag behind appends). */
  get knownUpgrade(): FormatVerdict | undefined {
    return this.upgradeState?.verdict;
  }

  /** The one list of the log's diagnostics (computed when first asked after the log grew). */
  diagnostics(): DiagnosticState {
    const log = this.log;
    if (this.diagnosticState?.events === log.eventCount) return this.diagnosticState;
    const list = logDiagnostics(log, this.fmt);
    const upgrade = this.upgradeState ? upgradeDiagnostic(this.upgradeState.verdict, log.format.version, this.fmt) : undefined;
    // In file-line order, as the rest of the list (after the problems of its own line).
    if (upgrade) list.splice(upgrade.line === undefined ? 0 : list.filter((d) => (d.line ?? 0) <= upgrade.line!).length, 0, upgrade);
    const bySeq = new Map<number, Diagnostic[]>();
    const worstBySeq = new Map<number, SeverityMark>();
    for (const d of list) {
      const seq = d.seq ?? (d.line !== undefined ? this.seqOfLine(d.line) : undefined);
      if (seq === undefined) continue;
      const at = bySeq.get(seq);
      if (at) at.push(d);
      else bySeq.set(seq, [d]);
      const worst = worstBySeq.get(seq);
      if (!worst || RANK[d.severity] > RANK[worst]) worstBySeq.set(seq, d.severity);
    }
    this.diagnosticState = { events: log.eventCount, list, bySeq, worstBySeq };
    return this.diagnosticState;
  }

  /** The last computed diagnostics, without computing them again after an append (may lag behind). */
  lastDiagnostics(): readonly Diagnostic[] {
    return this.lastDiagnosticState().list;
  }

  /**
   * Rows, details and the overview use the diagnostics last gathered: gathering them walks the whole
   * log, which a live log's appends must not trigger; the document gathers them again, throttled.
   */
  lastDiagnosticState(): DiagnosticState {
    return this.diagnosticState ?? this.diagnostics();
  }

  /** The first event written on a 1-based file line (lines are ascending in seq order). */
  seqOfLine(line: number): number | undefined {
    const log = this.log;
    let lo = 0;
    let hi = log.eventCount - 1;
    let found: number | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const l = log.place(mid)!.line;
      if (l >= line) {
        if (l === line) found = mid;
        hi = mid - 1;
      } else lo = mid + 1;
    }
    return found;
  }

  /** The events crash repairs wrote, by seq (found again when the log grew). */
  repairMarks(): ReadonlyMap<number, 'closer' | 'seed'> {
    const log = this.log;
    if (this.repairState?.events === log.eventCount) return this.repairState.marks;
    const marks = new Map<number, 'closer' | 'seed'>();
    for (const repair of findRepairsMade(log)) {
      for (const seq of repair.closerSeqs) marks.set(seq, 'closer');
      if (repair.endSeedSeq !== undefined) marks.set(repair.endSeedSeq, 'seed');
    }
    // A repair found later changes which rows the repairs filter keeps.
    if (this.repairState && this.repairState.marks.size !== marks.size) this.lists.forgetRepairLists();
    this.repairState = { events: log.eventCount, marks };
    return marks;
  }

  async crashReview() {
    const ctx = this.host.summaryContext();
    const changedAt = Math.max(ctx.file.mtimeMs, ctx.file.lastAppendAt ?? 0);
    const tail = hasTornTail(this.log, this.source.zstd);
    const fileBytes = tail ? await this.host.readFileBytes?.() : undefined;
    return crashReviewView({
      log: this.log,
      ...(this.source.zstd ? { zstd: this.source.zstd } : {}),
      ...(fileBytes ? { fileBytes } : {}),
      msSinceChange: Date.now() - changedAt,
      seqOfLine: (line) => this.seqOfLine(line),
      fmt: this.fmt,
    });
  }

  /**
   * The small note a live append sends: counts, generation, the worded facts an append changes, and
   * whether the surface changed. Diagnostic counts are those last gathered; a `summary` follows when
   * they are gathered again.
   */
  appendedNote(added: number, surfaceChanged: boolean): AppendedNote {
    const ctx = this.host.summaryContext();
    const live = liveState(this.log, this.index.turns);
    const counts = summaryCounts(this.log, this.index.turns, this.lastDiagnostics());
    return {
      generation: this.generation,
      added,
      surfaceChanged,
      counts,
      facts: summaryFacts(this.log, ctx, counts, this.fmt),
      live,
      liveText: liveText(live, followWord(ctx.file, ctx.followLiveLogs), this.fmt),
      file: ctx.file,
    };
  }

  summary(): SessionSummary {
    return buildSummary(
      this.log,
      {
        ...this.host.summaryContext(),
        generation: this.generation,
        diagnostics: this.diagnostics().list,
        ...(this.upgradeState ? { upgrade: this.upgradeState.verdict } : {}),
      },
      this.fmt,
    );
  }

  rowContext(): RowContext {
    const worst = this.lastDiagnosticState().worstBySeq;
    const repairs = this.repairMarks();
    return {
      log: this.log,
      index: this.index,
      lists: this.lists,
      fmt: this.fmt,
      severityOf: (seq) => worst.get(seq),
      repairOf: (seq) => repairs.get(seq),
      seedLength: this.log.inheritedEventCount ?? 0,
      systemHead: this.log.protectedHead(),
      times: timeBounds(this.log),
    };
  }

  /** Refuses a seq beyond the log with `outOfRange`. */
  checkSeq(seq: number): void {
    if (seq >= this.log.eventCount) throw new RequestError('outOfRange', `seq ${seq} is beyond the log's ${this.log.eventCount} events`);
  }

  /** The links of the later generations' events (developer headers, attempts, image offloads), extended as the log grows. */
  laterLinks(): LaterLinks {
    this.later ??= new LaterLinks(this.log, this.index);
    return this.later.extend();
  }

  spanIndex(): SpanIndex {
    this.spans ??= new SpanIndex(this.log, this.fmt);
    return this.spans.extend();
  }

  dispose(): void {
    this.search.cancelAll();
  }
}
