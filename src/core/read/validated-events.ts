// Events that reach the log already judged, so they skip v0's verdict stages (event-stages.ts) and are
// only indexed, folded and handed to the whole-log facts: the events of a later generation, which dsh's
// format layer decoded and gave the verdict for, and the members of a validated packed chunk row, which
// are well-formed assistant/chunk events by construction.
import type { SessionEvent } from '../types';
import { TypeId } from './known-types';
import { SurfaceRole } from './event-index';
import { SurfaceError } from '../surface/surface';
import { toolCallCount } from '../surface/projections';
import { valueText } from '../value-text';
import { say } from '../words';
import type { LogParts } from './log-parts';
import { internalProblem, numberOrUndefined } from './event-stages';

/**
 * One event a later generation's format read kept, with its place: indexed, folded into the surface
 * and handed to the whole-log facts like a v0 event, without v0's verdict stages (dsh's format layer
 * gave the verdict). Members of a v1 packed row arrive one by one with their index in the row.
 */
export function keepDecoded(parts: LogParts, event: SessionEvent, fileLine: number, offset: number, length: number, member: number): void {
  const { index } = parts;
  const seq = index.count;
  if (member > 0) return; // the row's first member indexed the whole row
  if (member === 0) return keepDecodedRow(parts, fileLine, offset, length);
  const typeId = index.typeIdOf(event.type);
  try {
    parts.state.closerScan.observe(event, typeId);
  } catch (error) {
    internalProblem(parts, error, fileLine, seq);
  }
  let role = SurfaceRole.None;
  const fold = parts.state.fold;
  try {
    const plan = fold.plan(event, seq, parts.lookup);
    fold.apply(plan);
    role = plan === undefined ? SurfaceRole.None : plan.kind === 'append' ? SurfaceRole.Append : SurfaceRole.Replace;
  } catch (error) {
    parts.foldProblems.push({
      severity: 'warning',
      rule: error instanceof SurfaceError ? error.rule : 'surface.marker-shape',
      ...say('the surface cannot take seq {0}: {1}', seq, error instanceof Error ? error.message : valueText(error)),
      line: fileLine,
      seq,
    });
  }
  const data = event.data as { turn?: unknown; step?: unknown } | null;
  const toolCalls = typeId === TypeId.AssistantMessage ? toolCallCount(event) : 0;
  index.pushEvent(typeId, data?.turn, data?.step, toolCalls, role, fileLine, offset, length);
  parts.gathered?.observeEvent(seq, event, typeId, numberOrUndefined(data?.turn), numberOrUndefined(data?.step), role);
}

/** A v1 packed chunk row, read again from its line (v1 keeps v0's physical rows). */
function keepDecodedRow(parts: LogParts, fileLine: number, offset: number, length: number): void {
  const row = JSON.parse(parts.scanner.bytes.text(offset, offset + length)) as Record<string, any>;
  const members = Array.isArray(row.data?.texts) ? row.data.texts.length : Array.isArray(row.data?.args) ? row.data.args.length : 0;
  if (members > 0) keepRow(parts, row, members, fileLine, offset, length);
}

/**
 * Members of a validated row are well-formed `assistant/chunk` events by construction: known type,
 * safe-integer seq and time, no surface metadata, nothing the repair scan reads. So they skip the
 * per-event pipeline (most events of a real log are chunks) and only get indexed.
 */
export function keepRow(
  parts: LogParts,
  row: Record<string, any>,
  members: number,
  fileLine: number,
  offset: number,
  length: number,
): void {
  const seq0 = parts.index.count;
  const data = row.data;
  let lastTime = row.time0 as number;
  const dt = data.dt as number[];
  for (let i = 0; i < dt.length; i++) lastTime += dt[i];
  parts.state.closerScan.observeTime(seq0 + members - 1, lastTime);
  parts.index.pushRow(data.turn, data.step, members, fileLine, offset, length);
  parts.verdicts.noteRow(row, seq0, seq0 + members);
  parts.gathered?.observeRow(seq0, row, members);
}
