// Everything the timeline asks of one loaded log, answered from the core and the indexes above: the
// request handler of the protocol. One instance per load; a reload makes a new one (a new `load`
// in the generation stamp). No vscode here: the host hands in what needs the editor (reveal, reload).
import type { Diagnostic, LoadedFile, SessionLog } from '../../core';
import { logDiagnostics, type Formatter } from '../../present';
import {
  isRequestMessage,
  PARAMS,
  type Method,
  type Params,
  type RequestMessage,
  type ResponseMessage,
  type Result,
} from '../../protocol/requests';
import type { SessionSummary } from '../../protocol/summary';
import type { SeverityMark } from '../../protocol/timeline';
import { findRepairsMade } from '../../core/surface/repairs-made';
import type { RepairAction } from '../../protocol/crash';
import type { LineageTarget } from '../../protocol/lineage';
import { diffAsOf, surfaceAsOf } from './as-of';
import { shadowBrackets } from './brackets';
import { eventDetail, problemView, provenanceView } from './detail';
import { overview } from './overview';
import { RowLists } from './row-lists';
import { rowWindow, type RowContext } from './rows';
import { SearchService, type SearchProgress } from './search';
import { SpanIndex } from './spans';
import { crashReviewView, hasTornTail } from './crash-view';
import { buildSummary, type SummaryContext } from './summary';
import { TimelineIndex } from './timeline-index';

/** What the editor side provides. */
export interface TimelineHost {
  summaryContext(): Omit<SummaryContext, 'generation' | 'diagnostics'>;
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
}

export class RequestError extends Error {
  constructor(
    readonly code: 'badRequest' | 'notLoaded' | 'outOfRange' | 'unknownSearch' | 'cancelled' | 'failed',
    message: string,
  ) {
    super(message);
  }
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
  private readonly lists: RowLists;
  private readonly search = new SearchService();
  private spans: SpanIndex | undefined;
  private diagnosticState: DiagnosticState | undefined;
  private repairState: { events: number; marks: Map<number, 'closer' | 'seed'> } | undefined;

  constructor(
    readonly source: LoadedFile,
    readonly load: number,
    private readonly fmt: Formatter,
    private readonly host: TimelineHost,
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

  /** The one list of the log's diagnostics (computed when first asked after the log grew). */
  diagnostics(): DiagnosticState {
    const log = this.log;
    if (this.diagnosticState?.events === log.eventCount) return this.diagnosticState;
    const list = logDiagnostics(log, this.fmt);
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
  private lastDiagnosticState(): DiagnosticState {
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

  private async crashReview() {
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

  summary(): SessionSummary {
    return buildSummary(
      this.log,
      { ...this.host.summaryContext(), generation: this.generation, diagnostics: this.diagnostics().list },
      this.fmt,
    );
  }

  private rowContext(): RowContext {
    const worst = this.lastDiagnosticState().worstBySeq;
    const repairs = this.repairMarks();
    return {
      log: this.log,
      index: this.index,
      lists: this.lists,
      fmt: this.fmt,
      severityOf: (seq) => worst.get(seq),
      repairOf: (seq) => repairs.get(seq),
      seedLength: this.log.header?.seedLength ?? 0,
    };
  }

  private checkSeq(seq: number): void {
    if (seq >= this.log.eventCount) throw new RequestError('outOfRange', `seq ${seq} is beyond the log's ${this.log.eventCount} events`);
  }

  private spanIndex(): SpanIndex {
    this.spans ??= new SpanIndex(this.log);
    return this.spans.extend();
  }

  /** Answers one request from the webview (already validated or not: it is checked here again). */
  async handle(request: unknown, progress: (p: SearchProgress) => void): Promise<ResponseMessage | undefined> {
    if (!isRequestMessage(request)) {
      const r = request as Partial<RequestMessage>;
      if (typeof r?.id !== 'number' || typeof r.method !== 'string' || !(r.method in PARAMS)) return undefined;
      return {
        type: 'response',
        id: r.id,
        method: r.method as Method,
        ok: false,
        error: { code: 'badRequest', message: `bad params for ${r.method}` },
      };
    }
    try {
      const result = await this.answer(request.method, request.params, progress);
      return { type: 'response', id: request.id, method: request.method, ok: true, generation: this.generation, result } as ResponseMessage;
    } catch (error) {
      const code = error instanceof RequestError ? error.code : 'failed';
      const message = error instanceof Error ? error.message : String(error);
      return { type: 'response', id: request.id, method: request.method, ok: false, error: { code, message } };
    }
  }

  async answer<M extends Method>(method: M, p: Params<M>, progress: (p: SearchProgress) => void = () => {}): Promise<Result<M>> {
    return (await this.dispatch(method, p, progress)) as Result<M>;
  }

  private async dispatch(method: Method, p: Params<Method>, progress: (p: SearchProgress) => void): Promise<Result<Method>> {
    const log = this.log;
    switch (method) {
      case 'summary':
        return this.summary();
      case 'problems': {
        const { start, count } = p as Params<'problems'>;
        const list = this.diagnostics().list;
        return { start, total: list.length, problems: list.slice(start, start + count).map(problemView) };
      }
      case 'rows': {
        const q = p as Params<'rows'>;
        return rowWindow(this.rowContext(), q.order, q.start, q.count, q.filter);
      }
      case 'rowOf': {
        const q = p as Params<'rowOf'>;
        const list = this.lists.list(q.order, q.filter);
        const index = list.rowOf(q.seq);
        return index === undefined ? { total: list.length } : { index, total: list.length };
      }
      case 'eventDetail': {
        const { seq } = p as Params<'eventDetail'>;
        this.checkSeq(seq);
        return eventDetail(log, this.index, this.fmt, seq, this.lastDiagnosticState().bySeq.get(seq) ?? []);
      }
      case 'provenance': {
        const { seq } = p as Params<'provenance'>;
        this.checkSeq(seq);
        return provenanceView(
          log,
          seq,
          (this.lastDiagnosticState().bySeq.get(seq) ?? []).filter((d) => d.rule.startsWith('provenance')),
          this.fmt,
        );
      }
      case 'search': {
        const q = p as Params<'search'>;
        return this.search.run(log, this.lists.list(q.order, q.filter), q, progress);
      }
      case 'cancelSearch':
        return { cancelled: this.search.cancel((p as Params<'cancelSearch'>).searchId) };
      case 'searchMatches': {
        const q = p as Params<'searchMatches'>;
        const out = this.search.matches(q.searchId, q.start, q.count);
        if (!out) throw new RequestError('unknownSearch', `search ${q.searchId} is no longer kept`);
        return out;
      }
      case 'searchStep': {
        const q = p as Params<'searchStep'>;
        const out = this.search.step(q.searchId, q.fromRow, q.direction);
        if (!out) throw new RequestError('unknownSearch', `search ${q.searchId} is no longer kept`);
        return out;
      }
      case 'surfaceAsOf': {
        const q = p as Params<'surfaceAsOf'>;
        this.checkSeq(q.seq);
        return surfaceAsOf(log, this.index, this.fmt, q.seq, q.start, q.count);
      }
      case 'diffAsOf': {
        const q = p as Params<'diffAsOf'>;
        this.checkSeq(q.fromSeq);
        this.checkSeq(q.toSeq);
        return diffAsOf(log, this.index, this.fmt, q.fromSeq, q.toSeq);
      }
      case 'overview':
        return overview(log, this.index, (p as Params<'overview'>).buckets, this.lastDiagnosticState().worstBySeq);
      case 'timeSpans': {
        const q = p as Params<'timeSpans'>;
        return this.spanIndex().window(q.from, q.to, q.maxSpans);
      }
      case 'usage': {
        const q = p as Params<'usage'>;
        return this.spanIndex().usage(q.level, q.start, q.count);
      }
      case 'shadowBrackets':
        return { brackets: shadowBrackets(log, this.fmt) };
      case 'revealInTextEditor': {
        const q = p as Params<'revealInTextEditor'>;
        let line = q.line;
        if (q.seq !== undefined) {
          this.checkSeq(q.seq);
          line = log.place(q.seq)?.line;
        }
        return { opened: line !== undefined && (await this.host.reveal(line)) };
      }
      case 'reload':
        this.host.reload();
        return { reloading: true };
      case 'crashReview':
        return this.crashReview();
      case 'repairAction': {
        const action = (p as Params<'repairAction'>).action;
        return { started: this.host.runRepairAction ? await this.host.runRepairAction(action) : false };
      }
      case 'lineage':
        return { children: this.host.childSessions ? await this.host.childSessions() : 0 };
      case 'openLineage': {
        const to = (p as Params<'openLineage'>).to;
        return { opened: this.host.openLineage ? await this.host.openLineage(to) : false };
      }
    }
  }

  dispose(): void {
    this.search.cancelAll();
  }
}
