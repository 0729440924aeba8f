// Serializes events the way dsh's writer does (spec §2.1): JSON.stringify without spaces, envelope
// keys in the writer's order — type, seq, time, data, ignorable, sourceEventSeqs, surfaceOp.
import type { SessionEvent, SessionHeader } from '../types';

export function serializeEvent(event: SessionEvent): string {
  const ordered: Record<string, unknown> = { type: event.type, seq: event.seq, time: event.time, data: event.data };
  if (event.ignorable !== undefined) ordered.ignorable = event.ignorable;
  if (event.sourceEventSeqs !== undefined) ordered.sourceEventSeqs = event.sourceEventSeqs;
  if (event.surfaceOp !== undefined) ordered.surfaceOp = event.surfaceOp;
  return JSON.stringify(ordered);
}

/** Repair closers are written with surfaceOp before sourceEventSeqs (spec §2.1). */
export function serializeCloser(event: SessionEvent): string {
  const ordered: Record<string, unknown> = { type: event.type, seq: event.seq, time: event.time, data: event.data };
  if (event.surfaceOp !== undefined) ordered.surfaceOp = event.surfaceOp;
  if (event.sourceEventSeqs !== undefined) ordered.sourceEventSeqs = event.sourceEventSeqs;
  return JSON.stringify(ordered);
}

/** The header line in the writer's key order. */
export function serializeHeader(header: SessionHeader): string {
  const line: Record<string, unknown> = { type: 'session', version: header.version, id: header.id, createdAt: header.createdAt };
  for (const key of ['cwd', 'parentSession', 'seedLength', 'origin'] as const) if (header[key] !== undefined) line[key] = header[key];
  line.delegationDepth = header.delegationDepth ?? 0;
  if (header.agentPreset !== undefined) line.agentPreset = header.agentPreset;
  return JSON.stringify(line);
}
