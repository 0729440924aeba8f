// One event of a loaded log by its seq: its type, turn, step, surface role, place in the file, the event
// itself and its line. Kept events come from the event index; the closers dsh would append (in memory
// only) follow them. SessionLog answers its public lookups from here, and the reading stages use the
// same lookups to point a refusal at the events it concerns. A seq that is not a seq answers nothing.
import type { EventPlace, SessionEvent } from '../types';
import { asSeq } from '../api-guard';
import { eventMessageId } from './legacy';
import { SurfaceRole, type EventIndex } from './event-index';

/** Where the lookups read: the event index and the closers (a log's parts, see log-parts.ts). */
export interface EventSource {
  readonly index: EventIndex;
  readonly state: { readonly closers: SessionEvent[] };
}

export function eventTypeAt(parts: EventSource, seq: number): string | undefined {
  if (asSeq(seq) === undefined) return undefined;
  const { index } = parts;
  if (seq < index.count) return seq >= 0 ? index.type(seq) : undefined;
  return parts.state.closers[seq - index.count]?.type;
}

export function turnAt(parts: EventSource, seq: number): number | undefined {
  if (asSeq(seq) === undefined) return undefined;
  const { index } = parts;
  const t = seq < index.count ? (seq >= 0 ? index.turn(seq) : undefined) : parts.state.closers[seq - index.count]?.data?.turn;
  return typeof t === 'number' && !Number.isNaN(t) ? t : undefined;
}

export function stepAt(parts: EventSource, seq: number): number | undefined {
  if (asSeq(seq) === undefined) return undefined;
  const { index } = parts;
  const s = seq < index.count ? (seq >= 0 ? index.step(seq) : undefined) : parts.state.closers[seq - index.count]?.data?.step;
  return typeof s === 'number' && !Number.isNaN(s) ? s : undefined;
}

/** Closers: only the tool/result ones join the surface (as appends). */
export function surfaceRoleAt(parts: EventSource, seq: number): SurfaceRole {
  if (asSeq(seq) === undefined) return SurfaceRole.None;
  const { index } = parts;
  if (seq < index.count) return seq >= 0 ? index.role(seq) : SurfaceRole.None;
  return parts.state.closers[seq - index.count]?.surfaceOp === 'append' ? SurfaceRole.Append : SurfaceRole.None;
}

export function placeAt(parts: EventSource, seq: number): EventPlace | undefined {
  return asSeq(seq) === undefined ? undefined : parts.index.place(seq);
}

/**
 * One event, parsed again from its line: each call returns a fresh object, so a caller can never
 * change what the core holds. Upgraded events and closers are few and kept frozen.
 */
export function eventAt(parts: EventSource, seq: number): SessionEvent | undefined {
  if (asSeq(seq) === undefined) return undefined;
  const { index } = parts;
  if (seq >= index.count) return parts.state.closers[seq - index.count];
  return index.event(seq);
}

/** The raw text of the line an event came from. */
export function lineTextAt(parts: EventSource, seq: number): string | undefined {
  return asSeq(seq) === undefined ? undefined : parts.index.lineText(seq);
}

/** The message id an earlier event carries, read again from its line (rare: legacy replacements only). */
export function messageIdAt(parts: EventSource, seq: number): string | undefined {
  if (seq < 0 || seq >= parts.index.count) return undefined;
  const event = eventAt(parts, seq);
  return event ? eventMessageId(event) : undefined;
}
