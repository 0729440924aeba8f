// Plans the crash repair dsh performs on a writable open (spec §1.6, §5): cut the file back to its
// last committed line (a plain log) or to the start of its torn final frame (a zstd log, whose
// recovered lines are then appended again), then append the closers of the open final turn, written in
// the closer key order (surfaceOp before sourceEventSeqs).
import type { Diagnostic, SessionEvent } from '../types';
import { isSessionLog, type SessionLog } from '../read/session-log';
import { readField } from '../api-guard';
import type { LoadedFile } from '../read/load-file';
import type { RepairPlan } from './types';
import { RefusedValueError } from './serialize';
import { appendProblems, reason } from './checks';
import { cloneJson } from '../value-text';
import { say } from '../words';
import { verdictError } from '../read/verdict';

/** The repair of a loaded log; pass the loaded file (not only its log) so a zstd container is repaired too. */
export function planRepair(source: SessionLog | LoadedFile): RepairPlan {
  const log = isSessionLog(source) ? source : readField(source, 'log');
  if (!isSessionLog(log)) return { ok: false, reasons: [reason('api.bad-input', 'planRepair needs a loaded session log')] };
  const zstd = isSessionLog(source) ? undefined : asZstdSummary(readField(source, 'zstd'));
  const verdict = log.verdict;
  // The core applies the closers when it reaches its verdict, so an ok verdict means they validate.
  if (!verdict.ok)
    return {
      ok: false,
      reasons: [
        reason(
          'append.refused-log',
          say('dsh refuses this log ({0}); it does not repair a log it cannot open', verdictError(verdict) ?? String(verdict.error)),
        ),
      ],
    };
  // A copy: log.closers hands out the core's cached events, and a plan is the caller's to keep or edit.
  const closers: SessionEvent[] = cloneJson(log.closers as SessionEvent[]);
  const notes: Diagnostic[] = [];
  if (zstd?.tornFrameStart !== undefined)
    return tornFrameRepair(log, zstd.tornFrameStart, zstd.committedTextBytes, zstd.compressedBytes, closers, notes);
  const scan = log.scan;
  const truncateAt = scan.committedBytes < scan.fileBytes ? scan.committedBytes : undefined;
  if (truncateAt !== undefined) {
    notes.push({
      severity: 'info',
      rule: 'repair.truncate',
      ...say(
        'dsh first truncates the file to byte {0}, dropping {1} bytes after the last committed line',
        truncateAt,
        scan.fileBytes - truncateAt,
      ),
    });
  } else if (closers.length > 0) {
    // planAppend refuses any batch while uncommitted bytes remain, so it can only check the closers here.
    const problems = appendProblems(log, closers, []);
    if (problems.length > 0) return { ok: false, reasons: problems };
  }
  if (closers.length === 0)
    notes.push({ severity: 'info', rule: 'repair.nothing', ...say('the last turn is closed: dsh appends no closers') });
  const lines = closerLines(log, closers);
  if (!Array.isArray(lines)) return lines;
  const plan = { ok: true as const, events: closers, lines, notes };
  return truncateAt === undefined ? plan : { ...plan, truncateAt };
}

/** What a repair reads of a loaded file's zstd summary: its numbers, each read once (none when it has none). */
function asZstdSummary(value: unknown): { tornFrameStart?: number; committedTextBytes: number; compressedBytes: number } | undefined {
  const compressedBytes = readField(value, 'compressedBytes');
  if (typeof compressedBytes !== 'number') return undefined;
  const tornFrameStart = readField(value, 'tornFrameStart');
  const committedTextBytes = readField(value, 'committedTextBytes');
  return {
    tornFrameStart: typeof tornFrameStart === 'number' ? tornFrameStart : undefined,
    committedTextBytes: typeof committedTextBytes === 'number' ? committedTextBytes : 0,
    compressedBytes,
  };
}

/**
 * A zstd log whose final frame is torn: dsh truncates the file at that frame's start, then appends the
 * events recovered from it (their lines as they were) and the closers as one batch — one new frame.
 */
function tornFrameRepair(
  log: SessionLog,
  frameStart: number,
  committedText: number,
  fileBytes: number,
  closers: SessionEvent[],
  notes: Diagnostic[],
): RepairPlan {
  const recovered: SessionEvent[] = [];
  const lines: string[] = [];
  let lastOffset = -1;
  for (let seq = 0; seq < log.eventCount; seq++) {
    const place = log.place(seq);
    if (!place || place.offset < committedText) continue;
    const event = log.event(seq);
    if (event) recovered.push(cloneJson(event));
    if (place.offset !== lastOffset) lines.push(log.lineText(seq) ?? '');
    lastOffset = place.offset;
  }
  notes.push({
    severity: 'info',
    rule: 'repair.truncate',
    ...(closers.length > 0
      ? recovered.length === 1
        ? say(
            'dsh first truncates the file to byte {0}, the start of its torn final frame ({1} bytes), then appends the {2} event recovered from that frame and the closers as one frame',
            frameStart,
            fileBytes - frameStart,
            recovered.length,
          )
        : say(
            'dsh first truncates the file to byte {0}, the start of its torn final frame ({1} bytes), then appends the {2} events recovered from that frame and the closers as one frame',
            frameStart,
            fileBytes - frameStart,
            recovered.length,
          )
      : recovered.length === 1
        ? say(
            'dsh first truncates the file to byte {0}, the start of its torn final frame ({1} bytes), then appends the {2} event recovered from that frame as one frame',
            frameStart,
            fileBytes - frameStart,
            recovered.length,
          )
        : say(
            'dsh first truncates the file to byte {0}, the start of its torn final frame ({1} bytes), then appends the {2} events recovered from that frame as one frame',
            frameStart,
            fileBytes - frameStart,
            recovered.length,
          )),
  });
  if (closers.length === 0 && recovered.length === 0)
    notes.push({ severity: 'info', rule: 'repair.nothing', ...say('the last turn is closed: dsh appends no closers') });
  const written = closerLines(log, closers);
  if (!Array.isArray(written)) return written;
  return {
    ok: true,
    events: [...recovered, ...closers],
    lines: [...lines, ...written],
    notes,
    truncateAt: frameStart,
  };
}

/**
 * The closers' lines, or the refusal: a closer takes the last event's time and the open turn's values,
 * and one dsh's writer cannot write (a time of 1e400, which reads as Infinity) stops the repair.
 */
function closerLines(log: SessionLog, closers: readonly SessionEvent[]): string[] | RepairPlan {
  const lines: string[] = [];
  for (const closer of closers) {
    try {
      lines.push(log.writing.closerLine(closer));
    } catch (error) {
      if (!(error instanceof RefusedValueError)) throw error;
      return {
        ok: false,
        reasons: [
          {
            severity: 'error',
            rule: 'repair.closers-unwritable',
            ...say("closer seq {0} cannot be written: {1}; dsh's repair would fail the same way", closer.seq, error.message),
          },
        ],
      };
    }
  }
  return lines;
}
