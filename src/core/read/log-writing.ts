// How events are written into a log of a given generation: the replace marker's spelling, the source a
// compaction's checkpoint message carries, a tool result's shape and the line itself (from v2 on, runs
// of three or more cited seqs are written as ranges). Planners ask the log for these rules and so write
// each generation's own syntax without knowing which generation it is.
import type { SessionEvent, SurfaceOp } from '../types';
import { findGeneration } from '../format/generations';
import type { FormatEvent } from '../format/types';
import { RefusedValueError, closerLine, eventLine } from '../plan/serialize';
import { jsonText, notJsonReason } from '../value-text';

export interface LogWriting {
  /** The replace marker covering surface nodes start..end: `{op, start, end}` (v0–v2), `{op, startSeq, endSeq}` (v3+). */
  replaceMarker(start: number, end: number): SurfaceOp;
  /** The source of a compaction's checkpoint user/message: dsh's compact plugin (v0–v3), the producer kind (v4). */
  checkpointSource(compactionId: string): Record<string, unknown>;
  /** The line dsh's writer of this generation writes for a new event; throws RefusedValueError for one it would refuse. */
  line(event: SessionEvent): string;
  /** The line of a crash-repair closer (its surfaceOp before its sourceEventSeqs, as dsh writes closers). */
  closerLine(event: SessionEvent): string;
}

const V0_WRITING: LogWriting = {
  replaceMarker: (start, end) => ({ op: 'replace', start, end }),
  checkpointSource: (compactionId) => ({ kind: 'plugin', plugin: 'compact', compactionId }),
  line: eventLine,
  closerLine,
};

/** The writing rules of generation `version` (0 for a v0 log). */
export function writingOf(version: number): LogWriting {
  const codec = version > 0 ? findGeneration(version)?.codec : undefined;
  if (!codec) return V0_WRITING;
  // The codec writes the row (and refuses what its reader would); the envelope's key order is the event's.
  const encode = (ordered: SessionEvent): string => {
    let row: Record<string, unknown>;
    try {
      row = codec.encodeEvent(ordered as unknown as FormatEvent);
    } catch (error) {
      throw new RefusedValueError(`the event is refused by the format v${version} writer: ${(error as Error).message}`);
    }
    const why = notJsonReason(row);
    if (why !== undefined) throw new RefusedValueError(`the event is not plain JSON (${why}): dsh writes only lossless JSON`);
    return jsonText(row);
  };
  return {
    replaceMarker: (start, end) => (version >= 3 ? { op: 'replace', startSeq: start, endSeq: end } : { op: 'replace', start, end }),
    checkpointSource: (compactionId) =>
      version >= 4 ? { kind: 'compact-checkpoint', compactionId } : { kind: 'plugin', plugin: 'compact', compactionId },
    line: (event) => encode(envelope(event, false)),
    closerLine: (event) => encode(envelope(event, true)),
  };
}

/** The envelope in the writer's key order: type, seq, time, data, ignorable, then the surface fields. */
function envelope(event: SessionEvent, closer: boolean): SessionEvent {
  const ordered: Record<string, unknown> = { type: event.type, seq: event.seq, time: event.time, data: event.data };
  if (event.ignorable !== undefined) ordered.ignorable = event.ignorable;
  const surface = closer ? (['surfaceOp', 'sourceEventSeqs'] as const) : (['sourceEventSeqs', 'surfaceOp'] as const);
  for (const key of surface) if (event[key] !== undefined) ordered[key] = event[key];
  return ordered as unknown as SessionEvent;
}
