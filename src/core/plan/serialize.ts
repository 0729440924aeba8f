// Serializes events the way dsh's writer does (spec §2.1): JSON without spaces, envelope keys in the
// writer's order — type, seq, time, data, ignorable, sourceEventSeqs, surfaceOp. Values dsh's lossless
// JSON rule cannot write (Date, undefined, functions, symbols, BigInt, non-finite numbers, cycles) are
// refused before any text is made; deep nesting is written without recursion.
import type { SessionEvent, SessionHeader } from '../types';
import { jsonText, notJsonReason } from '../value-text';

/** Thrown by the serializers for a value that is not plain, lossless JSON: nothing is written. */
export class RefusedValueError extends TypeError {
  readonly rule = 'json.lossless-values';
}

function text(value: Record<string, unknown>, what: string): string {
  const why = notJsonReason(value);
  if (why !== undefined) throw new RefusedValueError(`${what} is not plain JSON (${why}): dsh writes only lossless JSON`);
  return jsonText(value);
}

export function serializeEvent(event: SessionEvent): string {
  const ordered: Record<string, unknown> = { type: event.type, seq: event.seq, time: event.time, data: event.data };
  if (event.ignorable !== undefined) ordered.ignorable = event.ignorable;
  if (event.sourceEventSeqs !== undefined) ordered.sourceEventSeqs = event.sourceEventSeqs;
  if (event.surfaceOp !== undefined) ordered.surfaceOp = event.surfaceOp;
  return text(ordered, 'the event');
}

/** Repair closers are written with surfaceOp before sourceEventSeqs (spec §2.1). */
export function serializeCloser(event: SessionEvent): string {
  const ordered: Record<string, unknown> = { type: event.type, seq: event.seq, time: event.time, data: event.data };
  if (event.surfaceOp !== undefined) ordered.surfaceOp = event.surfaceOp;
  if (event.sourceEventSeqs !== undefined) ordered.sourceEventSeqs = event.sourceEventSeqs;
  return text(ordered, 'the closer');
}

/** The header line in the writer's key order. */
export function serializeHeader(header: SessionHeader): string {
  const line: Record<string, unknown> = { type: 'session', version: header.version, id: header.id, createdAt: header.createdAt };
  for (const key of ['cwd', 'parentSession', 'seedLength', 'origin'] as const) if (header[key] !== undefined) line[key] = header[key];
  line.delegationDepth = header.delegationDepth ?? 0;
  if (header.agentPreset !== undefined) line.agentPreset = header.agentPreset;
  return text(line, 'the header');
}
