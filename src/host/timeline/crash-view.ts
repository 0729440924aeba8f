// The timeline's crash-repair view of a loaded log, from the core's session health: the open final
// turn (pending calls, ghost rows for the closers dsh would append, whether it looks live or
// crashed), the torn tail, repairs dsh already wrote and every health entry with where it leads.
// All words come from the presentation layer, so the editor says what `repair --dry-run` says.
import {
  openTurnActivity,
  type CloserReview,
  type HealthEntry,
  type OpenTurnReview,
  type SessionLog,
  type TornTail,
  type ZstdSummary,
} from '../../core';
import { sessionHealth, planCrashRepairWrite } from '../../core/internal';
import { coreText, oneLine, tailWhy, typeIcon, typeLabel, type Formatter } from '../../present';
import {
  activityWords,
  closerCodeMeaning,
  closerRowText,
  closerLinkWords,
  keptPrefixWords,
  linesBeyondWords,
  pendingCallLine,
  repairMadeLine,
  tornTailHeading,
} from '../../present/repair-words';
import type { CrashReviewView, GhostRow, HealthEntryView, HealthTarget, OpenTurnView, TornTailView } from '../../protocol';

export interface CrashViewInput {
  log: SessionLog;
  zstd?: ZstdSummary;
  /** The file's bytes as loaded; needed only when the log has a torn tail (for its preview). */
  fileBytes?: Uint8Array;
  /** Milliseconds since the file last changed (decides live agent versus crash). */
  msSinceChange: number;
  /** The first event on a 1-based file line, for entries that name only a line. */
  seqOfLine(line: number): number | undefined;
  /** The display language's words. */
  fmt: Formatter;
}

/** Health entries sent at most (per kind the core keeps 200; the view lists a summary). */
const MAX_ENTRIES = 500;

/** True when some bytes of the file are not part of the session (the preview then needs the bytes). */
export function hasTornTail(log: SessionLog, zstd: ZstdSummary | undefined): boolean {
  return log.scan.committedBytes < log.scan.fileBytes || zstd?.tornFrameStart !== undefined;
}

export function crashReviewView(input: CrashViewInput): CrashReviewView {
  const { log, zstd, fmt } = input;
  const source = { fileBytes: input.fileBytes ?? new Uint8Array(0), ...(zstd ? { zstd } : {}) };
  const health = sessionHealth(log, source);
  const view: CrashReviewView = {
    repairs: health.repairs.map((r) => ({
      text: oneLine(repairMadeLine(r, fmt), 400),
      firstSeq: r.closerSeqs[0] ?? r.turnEndSeq,
      turnEndSeq: r.turnEndSeq,
      ...(r.endSeedSeq !== undefined ? { endSeedSeq: r.endSeedSeq } : {}),
    })),
    health: health.entries.slice(0, MAX_ENTRIES).map((e) => entryView(e, input)),
    healthOmitted: Object.values(health.omitted).reduce((a, b) => a + (b ?? 0), 0) + Math.max(0, health.entries.length - MAX_ENTRIES),
  };
  if (health.openTurn) view.openTurn = openTurnView(health.openTurn, input);
  if (health.tornTail && input.fileBytes) view.tornTail = tornTailView(health.tornTail, log.eventCount, fmt);
  return view;
}

function openTurnView(review: OpenTurnReview, input: CrashViewInput): OpenTurnView {
  const activity = openTurnActivity(input.msSinceChange);
  const write = planCrashRepairWrite(input.log, input.zstd);
  const fmt = input.fmt;
  const view: OpenTurnView = {
    activity,
    activityText: oneLine(activityWords(activity, input.msSinceChange, fmt), 300),
    pendingCalls: review.pendingCalls.map((call) => {
      const jumpSeq = call.callSeq ?? call.messageSeq;
      return {
        callId: oneLine(call.callId, 200),
        code: call.code,
        text: oneLine(pendingCallLine(call, fmt), 400),
        closerSeq: call.closerSeq,
        ...(jumpSeq !== undefined ? { jumpSeq } : {}),
      };
    }),
    ghosts: review.closers.map((closer) => ghostRow(closer, review, fmt)),
  };
  if (review.turn !== undefined) view.turn = review.turn;
  if (review.turnStartSeq !== undefined) view.turnStartSeq = review.turnStartSeq;
  if (!write.ok) view.blockedText = oneLine(write.reasons.map((r) => coreText(r, fmt)).join('; '), 600);
  return view;
}

function ghostRow(closer: CloserReview, review: OpenTurnReview, fmt: Formatter): GhostRow {
  const row: GhostRow = {
    seq: closer.seq,
    type: closer.type,
    label: typeLabel(closer.type, fmt),
    icon: typeIcon(closer.type),
    summary: oneLine(closerRowText(closer, review, fmt), 300),
    onSurface: closer.type === 'tool/result',
  };
  if (closer.code) {
    row.code = closer.code;
    row.meaning = oneLine(closerCodeMeaning(closer.code, fmt), 400);
  }
  const linkSeq = closer.callSeq ?? closer.messageSeq ?? (closer.type === 'step/end' ? review.stepStartSeq : review.turnStartSeq);
  if (linkSeq !== undefined) {
    row.linkSeq = linkSeq;
    row.linkText =
      closerLinkWords(closer, fmt) ??
      (closer.type === 'step/end'
        ? fmt.t('closes the step opened at seq {0}', linkSeq)
        : fmt.t('ends the turn opened at seq {0}', linkSeq));
  }
  return row;
}

function tornTailView(tail: TornTail, events: number, fmt: Formatter): TornTailView {
  return {
    kind: tail.kind,
    heading: oneLine(tornTailHeading(tail, fmt), 300),
    why: oneLine(tailWhy(tail, fmt), 400),
    droppedBytes: tail.droppedBytes,
    line: tail.line,
    keptText: keptPrefixWords(tail, events, fmt),
    preview: tail.preview,
    previewTruncated: tail.previewTruncated,
    previewIsHex: tail.kind === 'torn-frame',
    beyond: linesBeyondWords(tail, fmt).map((l) => oneLine(l, 300)),
    refusesLog: tail.refusesLog,
  };
}

function entryView(e: HealthEntry, input: CrashViewInput): HealthEntryView {
  const view: HealthEntryView = { kind: e.kind, severity: e.severity, message: oneLine(coreText(e, input.fmt), 400) };
  const target = targetOf(e, input);
  if (target) view.target = target;
  return view;
}

function targetOf(e: HealthEntry, input: CrashViewInput): HealthTarget | undefined {
  if (e.kind === 'torn-tail' || e.kind === 'damaged-line') return { kind: 'tornTail' };
  const events = input.log.eventCount;
  if (e.seq !== undefined) return e.seq < events ? { kind: 'event', seq: e.seq } : { kind: 'ghost', seq: e.seq };
  if (e.line !== undefined) {
    const seq = input.seqOfLine(e.line);
    return seq !== undefined ? { kind: 'event', seq } : { kind: 'line', line: e.line };
  }
  return undefined;
}
