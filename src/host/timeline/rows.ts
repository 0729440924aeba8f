// Rows of a window: one event (or a collapsed chunk run) each, worded by the presentation layer.
// Only the events of the window are parsed.
import type { SessionEvent, SessionLog } from '../../core';
import { eventSummary, eventUsage, typeIcon, typeLabel, type Formatter } from '../../present';
import type { RowFilter, RowOrder, RowWindow, SeverityMark, TimelineRow } from '../../protocol';
import type { RowLists } from './row-lists';
import type { TimelineIndex } from './timeline-index';

export interface RowContext {
  log: SessionLog;
  index: TimelineIndex;
  lists: RowLists;
  fmt: Formatter;
  /** Most severe diagnostic per seq. */
  severityOf(seq: number): SeverityMark | undefined;
  /** Whether a crash repair wrote the event (a closer, or the seed written on reopening). */
  repairOf(seq: number): 'closer' | 'seed' | undefined;
  /** A child session's seed: seqs below it were inherited from the parent session (0 when none). */
  seedLength: number;
  /** The protected system head's seq (v3 and on), when the surface has one. */
  systemHead?: number;
  times: TimeBounds;
}

/** The time an event records, when it is a number. */
export function eventTime(event: SessionEvent | undefined): number | undefined {
  const t = event?.time;
  return typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

/** What tells a real time from one that cannot be: the session's creation and its inherited seed. */
export interface TimeBounds {
  /** The header's `createdAt`, when it is a positive number. */
  createdAt?: number;
  /** Events below this seq were inherited from the parent session and may predate the child's creation. */
  seedLength: number;
}

export function timeBounds(log: Pick<SessionLog, 'header' | 'inheritedEventCount'>): TimeBounds {
  const createdAt = log.header?.createdAt;
  return {
    ...(typeof createdAt === 'number' && createdAt > 0 ? { createdAt } : {}),
    seedLength: log.inheritedEventCount ?? 0,
  };
}

/**
 * Whether a recorded time can be real. dsh's test snapshots (and some writers) record 0, and an
 * event the session wrote itself cannot be older than the session: such times are shown as not
 * real and left out of the Time view, where they would stretch the span back to 1970.
 */
export function isRealTime(time: number, seq: number, bounds: TimeBounds): boolean {
  if (!(time > 0)) return false;
  return bounds.createdAt === undefined || seq < bounds.seedLength || time >= bounds.createdAt;
}

/** Tokens an event records, as one short phrase ("812 tokens out"). */
export function tokensText(fmt: Formatter, type: string, data: unknown): string | undefined {
  const usage = eventUsage(type, data);
  if (!usage) return undefined;
  if (usage.output !== undefined) return fmt.t('{0} out', fmt.tokens(usage.output));
  if (usage.total !== undefined) return fmt.tokens(usage.total);
  return undefined;
}

/** Seq of the replacement event's shadow count (a replacement shadows its recorded nodes). */
function replacesCount(log: SessionLog, seq: number): number | undefined {
  if (log.surfaceRole(seq) !== 2) return undefined;
  return log.replacements().find((r) => r.seq === seq)?.shadowedSeqs.length;
}

export function buildRow(ctx: RowContext, index: number, seq: number, runEnd: number | undefined, messageIndex?: number): TimelineRow {
  const { log, fmt } = ctx;
  const type = log.eventType(seq) ?? '';
  const event = log.event(seq);
  const time = eventTime(event);
  const place = log.place(seq);
  const row: TimelineRow = {
    kind: runEnd === undefined ? 'event' : 'chunkRun',
    index,
    seq,
    type,
    label: typeLabel(type, fmt),
    icon: typeIcon(type),
    line: place?.line ?? 1,
    summary:
      runEnd === undefined
        ? eventSummary(event ?? { type }, fmt)
        : fmt.counted(runEnd - seq + 1, '{0} chunk streamed', '{0} chunks streamed'),
    surface: ctx.index.surfaceMark(seq),
  };
  if (runEnd !== undefined) {
    row.lastSeq = runEnd;
    row.runLength = runEnd - seq + 1;
  }
  if (time !== undefined) {
    row.time = time;
    // A time that cannot be real (0, before the session was created) is left out of the time column.
    if (isRealTime(time, seq, ctx.times)) row.timeText = fmt.timeOfDay(time);
  }
  const turn = ctx.index.turnAt(seq);
  const step = ctx.index.stepAt(seq);
  if (turn !== undefined) row.turn = turn;
  if (step !== undefined) row.step = step;
  const surfaceIndex = ctx.index.surfaceIndexOf(seq);
  if (surfaceIndex !== undefined) row.surfaceIndex = surfaceIndex;
  if (messageIndex !== undefined) row.messageIndex = messageIndex;
  const shadowedBy = ctx.index.shadowingReplacement(seq);
  if (shadowedBy !== undefined) row.shadowedBy = shadowedBy;
  if (seq === ctx.systemHead) row.systemHead = true;
  const replaces = replacesCount(log, seq);
  if (replaces !== undefined) row.replacesCount = replaces;
  const tokens = tokensText(fmt, type, event?.data);
  if (tokens) row.tokensText = tokens;
  const severity = ctx.severityOf(seq);
  if (severity) row.severity = severity;
  const repair = ctx.repairOf(seq);
  if (repair) row.repair = repair;
  if (seq < ctx.seedLength) row.inherited = true;
  return row;
}

export function rowWindow(ctx: RowContext, order: RowOrder, start: number, count: number, filter?: RowFilter): RowWindow {
  const list = ctx.lists.list(order, filter);
  const total = list.length;
  const end = Math.min(total, start + count);
  const rows: TimelineRow[] = [];
  for (let i = start; i < end; i++) {
    rows.push(buildRow(ctx, i, list.seqAt(i), list.runEndAt(i), order === 'surface' && !filter?.types?.length ? i : undefined));
  }
  return { order, start, total, rows };
}
