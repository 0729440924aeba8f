// Time: each record's real start and duration (turns, steps, assistant spans split at the first
// token into time to first token and decoding, tool spans from call to result) and token usage per
// step and per turn. Built on first request in one pass that parses only the events it needs, then
// extended as the log grows. The first token is the first chunk event of the step (v0, v1) or the
// first piece of the stream inside the message (v2 and on: its records' time0). Times that cannot be
// real (0, or before the session was created) are left out and counted, so the view can say so.
import type { SessionLog } from '../../core';
import { readUsage, type Formatter, type TokenUsage } from '../../present';
import type { TimeSpan, TimeSpans, UsageRow, UsageTable, UsageView } from '../../protocol';
import { isRealTime, timeBounds, type TimeBounds } from './rows';
import { streamTimes } from './stream-view';

interface OpenStep {
  span: TimeSpan;
  assistant?: TimeSpan;
  firstChunkAt?: number;
  usage: UsageView;
}

const add = (into: UsageView, u: TokenUsage | undefined) => {
  if (!u) return;
  for (const key of ['input', 'cachedInput', 'output', 'reasoning', 'total'] as const) {
    const v = u[key];
    if (v !== undefined) into[key] = (into[key] ?? 0) + v;
  }
};

export class SpanIndex {
  private scanned = 0;
  readonly spans: TimeSpan[] = [];
  readonly turnUsage: UsageRow[] = [];
  readonly stepUsage: UsageRow[] = [];
  readonly sum: UsageView = {};
  first: number | undefined;
  last: number | undefined;
  private openTurn: { span: TimeSpan; usage: UsageRow } | undefined;
  private openStep: (OpenStep & { usageRow: UsageRow }) | undefined;
  private readonly openCalls = new Map<string, TimeSpan>();
  /** Events whose time could not be real, and the first of them. */
  ignored = 0;
  firstIgnored: number | undefined;
  private readonly bounds: TimeBounds;

  constructor(
    private readonly log: SessionLog,
    private readonly fmt: Formatter,
  ) {
    this.bounds = timeBounds(log);
  }

  /** Takes in events added since the last call. */
  extend(): this {
    const log = this.log;
    for (let seq = this.scanned; seq < log.eventCount; seq++) this.take(seq, log.eventType(seq) ?? '');
    this.scanned = log.eventCount;
    return this;
  }

  private time(seq: number): number | undefined {
    const t = this.log.event(seq)?.time;
    if (typeof t !== 'number' || !Number.isFinite(t)) return undefined;
    if (!isRealTime(t, seq, this.bounds)) {
      this.ignored += 1;
      this.firstIgnored ??= seq;
      return undefined;
    }
    this.first = this.first === undefined ? t : Math.min(this.first, t);
    this.last = this.last === undefined ? t : Math.max(this.last, t);
    return t;
  }

  private take(seq: number, type: string): void {
    switch (type) {
      case 'turn/start': {
        const t = this.time(seq);
        if (t === undefined) return;
        const turn = this.log.turn(seq) ?? 0;
        const span: TimeSpan = { kind: 'turn', seq, start: t, label: this.fmt.t('Turn {0}', turn), turn };
        const usage: UsageRow = { level: 'turn', seq, turn, usage: {} };
        this.spans.push(span);
        this.turnUsage.push(usage);
        this.openTurn = { span, usage };
        return;
      }
      case 'turn/end':
        return this.close(this.openTurn?.span, seq, () => {
          this.openTurn = undefined;
        });
      case 'step/start': {
        const t = this.time(seq);
        if (t === undefined) return;
        const turn = this.log.turn(seq) ?? 0;
        const step = this.log.step(seq) ?? 0;
        const span: TimeSpan = { kind: 'step', seq, start: t, label: this.fmt.t('Turn {0} step {1}', turn, step), turn, step };
        const usageRow: UsageRow = { level: 'step', seq, turn, step, usage: {} };
        this.spans.push(span);
        this.stepUsage.push(usageRow);
        this.openStep = { span, usage: usageRow.usage, usageRow };
        return;
      }
      case 'step/end':
        return this.close(this.openStep?.span, seq, () => {
          this.openStep = undefined;
        });
      case 'assistant/chunk': {
        const s = this.openStep;
        if (s && s.firstChunkAt === undefined) s.firstChunkAt = this.time(seq);
        return;
      }
      case 'assistant/message': {
        const t = this.time(seq);
        const s = this.openStep;
        const event = this.log.event(seq);
        const data = event?.data as { usage?: unknown; stream?: unknown } | undefined;
        const usage = readUsage(data?.usage);
        // v2 and on: the stream inside the message says when the first token came.
        const firstToken = streamTimes(data?.stream).firstToken;
        if (s && s.firstChunkAt === undefined && firstToken !== undefined && isRealTime(firstToken, seq, this.bounds))
          s.firstChunkAt = firstToken;
        if (s) add(s.usage, usage);
        if (this.openTurn) add(this.openTurn.usage.usage, usage);
        add(this.sum, usage);
        if (t === undefined || !s) return;
        const span: TimeSpan = {
          kind: 'assistant',
          seq: s.span.seq,
          endSeq: seq,
          start: s.span.start,
          duration: t - s.span.start,
          label: this.fmt.t('Model, turn {0} step {1}', s.span.turn ?? 0, s.span.step ?? 0),
          turn: s.span.turn,
          step: s.span.step,
        };
        if (s.firstChunkAt !== undefined && s.firstChunkAt >= s.span.start)
          span.firstTokenMs = Math.min(s.firstChunkAt - s.span.start, t - s.span.start);
        this.spans.push(span);
        return;
      }
      case 'tool/call': {
        const t = this.time(seq);
        const data = this.log.event(seq)?.data as { callId?: unknown; name?: unknown } | undefined;
        if (t === undefined || typeof data?.callId !== 'string') return;
        const span: TimeSpan = {
          kind: 'tool',
          seq,
          start: t,
          label: typeof data.name === 'string' ? data.name.slice(0, 80) : this.fmt.t('tool'),
        };
        const turn = this.log.turn(seq);
        const step = this.log.step(seq);
        if (turn !== undefined) span.turn = turn;
        if (step !== undefined) span.step = step;
        this.spans.push(span);
        this.openCalls.set(data.callId, span);
        return;
      }
      case 'tool/result': {
        if (this.log.surfaceRole(seq) === 2) return; // a rewrite of an older result, not an answer
        const t = this.time(seq);
        // The source names the call in every generation (a v4 tool-role result's toolCallId equals it).
        const callId = (this.log.event(seq)?.data as { message?: { source?: { callId?: unknown } } } | undefined)?.message?.source?.callId;
        const span = typeof callId === 'string' ? this.openCalls.get(callId) : undefined;
        if (!span || t === undefined) return;
        span.endSeq = seq;
        span.duration = t - span.start;
        this.openCalls.delete(callId as string);
        return;
      }
      default:
    }
  }

  private close(span: TimeSpan | undefined, seq: number, done: () => void): void {
    const t = this.time(seq);
    if (span && t !== undefined) {
      span.endSeq = seq;
      span.duration = t - span.start;
    }
    done();
  }

  /** Spans overlapping [from, to], at most `maxSpans` (the longest kept when cut). */
  window(from: number | undefined, to: number | undefined, maxSpans: number): TimeSpans {
    const lo = from ?? -Infinity;
    const hi = to ?? Infinity;
    const end = (s: TimeSpan) => s.start + (s.duration ?? Math.max(0, (this.last ?? s.start) - s.start));
    let hits = this.spans.filter((s) => s.start <= hi && end(s) >= lo);
    let truncated = false;
    if (hits.length > maxSpans) {
      truncated = true;
      hits = [...hits]
        .sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0))
        .slice(0, maxSpans)
        .sort((a, b) => a.start - b.start || a.seq - b.seq);
    }
    const out: TimeSpans = { spans: hits, truncated };
    if (this.first !== undefined) out.first = this.first;
    if (this.last !== undefined) out.last = this.last;
    if (this.ignored > 0) {
      out.ignoredTimes = this.ignored;
      out.ignoredNote = this.fmt.counted(
        this.ignored,
        '{0} event records a time that cannot be real (0, or before the session was created; the first at seq {1}): left out.',
        '{0} events record a time that cannot be real (0, or before the session was created; the first at seq {1}): left out.',
        this.firstIgnored ?? 0,
      );
    }
    out.rangeText = this.first !== undefined && this.last !== undefined ? this.fmt.duration(this.last - this.first) : undefined;
    if (out.rangeText === undefined) delete out.rangeText;
    return out;
  }

  usage(level: 'turn' | 'step', start: number, count: number): UsageTable {
    const rows = level === 'turn' ? this.turnUsage : this.stepUsage;
    return { level, start, total: rows.length, rows: rows.slice(start, start + count), sum: { ...this.sum } };
  }
}
