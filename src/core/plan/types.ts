// What the append planners return. A plan is the exact events and lines dsh's writer would append;
// a refusal lists every reason at once, so a user can fix them all in one go.
import type { Diagnostic, SessionEvent } from '../types';

export interface AcceptedPlan {
  ok: true;
  events: SessionEvent[];
  /** One JSON line per event, without newlines, byte-compatible with dsh's writer. */
  lines: string[];
  /** Non-blocking remarks (e.g. an invariant the append would bend). */
  notes: Diagnostic[];
}

export interface RefusedPlan {
  ok: false;
  reasons: Diagnostic[];
}

export type PlanResult = AcceptedPlan | RefusedPlan;

/** A repair may first cut the file back to its last committed line, as dsh's writable open does. */
export type RepairPlan = (AcceptedPlan & { truncateAt?: number }) | RefusedPlan;

/** The bytes to append for a plan's lines: each line followed by a newline (one writer batch). */
export function appendBytes(lines: readonly string[]): Uint8Array {
  return new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
}
