// Is an open final turn a live agent at work or a crash? The file tells only by whether it still
// changes: a host knows when it last changed and asks here, so the rule is the same everywhere.

/** An open turn whose file has not changed for this long looks like a crash rather than a live agent. */
export const STILL_AFTER_MS = 60_000;

export type OpenTurnActivity = 'growing' | 'still';

/**
 * `growing`: the file changed within `stillAfterMs` — an agent is probably still writing this turn,
 * so repairing it now would race the writer. `still`: nothing changed for a while — it looks like a
 * crash (or an agent waiting a long time for a tool).
 */
export function openTurnActivity(msSinceLastChange: number, stillAfterMs = STILL_AFTER_MS): OpenTurnActivity {
  return Number.isFinite(msSinceLastChange) && msSinceLastChange < stillAfterMs ? 'growing' : 'still';
}
