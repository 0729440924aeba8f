// The bytes a crash repair appends to the file, as dsh's writer would put them there: the closers'
// lines at the end of a plain log, or one new zstd frame holding them. Refused while a torn tail or
// damage follows the last kept line — appending after it would join it — so that the tail is removed
// first, explicitly and with a backup (torn-tail-removal.ts).
import type { Diagnostic } from '../types';
import type { SessionLog } from '../read/session-log';
import type { ZstdSummary } from '../read/load-file';
import { encodeZstdFrame, concatBytes, type ZstdEncodeOptions } from '../zstd/encode';
import { planRepair } from './repair';
import { appendBytes } from './types';
import type { AcceptedPlan } from './types';
import { say } from '../words';

export interface CrashRepairWrite extends AcceptedPlan {
  /** The bytes to append (empty when the last turn is closed). */
  bytes: Uint8Array;
  /** How they are framed. */
  container: 'plain' | 'zstd';
}

export type CrashRepairWritePlan = CrashRepairWrite | { ok: false; reasons: Diagnostic[] };

export function planCrashRepairWrite(
  log: SessionLog,
  zstd: ZstdSummary | undefined,
  options: ZstdEncodeOptions = {},
): CrashRepairWritePlan {
  const plan = planRepair(log);
  if (!plan.ok) return plan;
  const torn = tornTailFirst(log, zstd);
  if (torn) return { ok: false, reasons: [torn] };
  const container = zstd ? 'zstd' : 'plain';
  const text = appendBytes(plan.lines);
  const bytes = plan.lines.length === 0 ? new Uint8Array(0) : container === 'zstd' ? encodeZstdFrame(text, options) : text;
  return { ok: true, events: plan.events, lines: plan.lines, notes: plan.notes, bytes, container };
}

/**
 * Why closers cannot be appended yet: bytes after the last complete line (a torn line, damage, a torn
 * zstd frame) would join them. Undefined when the file ends at a line boundary.
 */
export function tornTailFirst(log: SessionLog, zstd: ZstdSummary | undefined): Diagnostic | undefined {
  const scan = log.scan;
  if (scan.committedBytes >= scan.fileBytes && zstd?.tornFrameStart === undefined) return undefined;
  const size = zstd?.tornFrameStart !== undefined ? zstd.compressedBytes - zstd.tornFrameStart : scan.fileBytes - scan.committedBytes;
  const what =
    zstd?.tornFrameStart !== undefined
      ? say('a torn final zstd frame')
      : scan.stoppedAt === 'torn-tail'
        ? say('a torn last line')
        : say('a damaged line and what follows it');
  return {
    severity: 'error',
    rule: 'repair.torn-tail-first',
    ...say(
      'the file ends with {0} ({1} bytes that are not part of the session); closers appended after it would join it. Remove the torn tail first (it is backed up), then repair',
      what,
      size,
    ),
  };
}

/** The file a write plan leaves: the loaded bytes followed by the appended ones. */
export function bytesAfterWrite(fileBytes: Uint8Array, plan: CrashRepairWrite): Uint8Array {
  return concatBytes([fileBytes, plan.bytes]);
}
