// Removing a torn tail: the one change that shortens a log, done only when asked. The file is cut at
// the safe truncation point dsh's writable open uses — after the last kept line of a plain log; at the
// start of the torn (or damaged) frame of a zstd log, whose complete kept lines are then written again
// as one new frame, so every event the session holds stays. Nothing before the cut changes.
import type { Diagnostic } from '../types';
import type { SessionLog } from '../read/session-log';
import type { ZstdSummary } from '../read/load-file';
import { decodeZstdLog } from '../zstd/decode';
import { concatBytes, encodeZstdFrame, type ZstdEncodeOptions } from '../zstd/encode';
import { say, said, type Said } from '../words';
import { verdictError } from '../read/verdict';

export interface TornTailRemoval {
  ok: true;
  /** File size to cut the file back to. */
  cutAt: number;
  /** Bytes written after the cut: a zstd frame re-holding the kept lines of the cut frame (else empty). */
  reappend: Uint8Array;
  /** File bytes removed that held nothing the session keeps (compressed bytes for zstd). */
  removedBytes: number;
  /** Kept text re-written in `reappend` (zstd only). */
  rewrittenTextBytes: number;
  /** That text itself: the complete kept lines of the cut frame (a writer may frame it with a compressor of its own). */
  keptText: Uint8Array;
}

export type TornTailRemovalPlan = TornTailRemoval | { ok: false; reasons: Diagnostic[] };

const refuse = (rule: string, message: string | Said): TornTailRemovalPlan => ({
  ok: false,
  reasons: [{ severity: 'error', rule, ...said(message) }],
});

export function planTornTailRemoval(
  log: SessionLog,
  fileBytes: Uint8Array,
  zstd: ZstdSummary | undefined,
  options: ZstdEncodeOptions = {},
): TornTailRemovalPlan {
  const verdict = log.verdict;
  if (!verdict.ok)
    return refuse(
      'append.refused-log',
      say(
        'dsh refuses this log ({0}); cutting it would not make it load, so nothing is removed',
        verdictError(verdict) ?? String(verdict.error),
      ),
    );
  const scan = log.scan;
  if (!zstd) {
    if (scan.committedBytes >= scan.fileBytes)
      return refuse('repair.no-torn-tail', say('every byte of the file belongs to the session: there is no torn tail to remove'));
    return {
      ok: true,
      cutAt: scan.committedBytes,
      reappend: new Uint8Array(0),
      removedBytes: scan.fileBytes - scan.committedBytes,
      rewrittenTextBytes: 0,
      keptText: new Uint8Array(0),
    };
  }
  if (scan.committedBytes >= scan.fileBytes && zstd.tornFrameStart === undefined) {
    return refuse(
      'repair.no-torn-tail',
      say('every frame of the file is complete and every line belongs to the session: there is no torn tail to remove'),
    );
  }
  const decoded = decodeZstdLog(fileBytes);
  const kept = scan.committedBytes;
  // The first complete frame holding bytes the session does not keep, else the torn frame.
  let frame = decoded.frameEnds.findIndex((end) => end > kept);
  let cutAt: number;
  let textStart: number;
  if (frame >= 0) {
    cutAt = decoded.frameOffsets[frame];
    textStart = frame > 0 ? decoded.frameEnds[frame - 1] : 0;
  } else if (decoded.tornFrameStart !== undefined) {
    frame = decoded.frames;
    cutAt = decoded.tornFrameStart;
    textStart = decoded.frameEnds[decoded.frameEnds.length - 1] ?? 0;
  } else {
    return refuse('repair.no-torn-tail', say('no frame holds bytes outside the session'));
  }
  if (frame === 0) return refuse('repair.header-frame', say('the damage is in the header frame: cutting there would leave no session'));
  const text = decoded.text.subarray(textStart, kept);
  const reappend = text.length > 0 ? encodeZstdFrame(text, options) : new Uint8Array(0);
  return { ok: true, cutAt, reappend, removedBytes: fileBytes.length - cutAt, rewrittenTextBytes: text.length, keptText: text.slice() };
}

/** The file a removal leaves: the bytes before the cut, then the re-written frame. */
export function bytesAfterRemoval(fileBytes: Uint8Array, plan: TornTailRemoval): Uint8Array {
  return concatBytes([fileBytes.subarray(0, plan.cutAt), plan.reappend]);
}
