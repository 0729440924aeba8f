// Two shapes older harnesses wrote that v2 no longer admits, repaired by the v1→v2 migration:
// - the legacy restart: a non-empty `next-turn` inbox splice, then the next `turn/start` without the
//   open turn's `turn/end` (no step open). The open turn is closed with an inserted interrupted end.
// - the round-zero goal mutation: a `user/message` whose goal source carries the `change` itself. It
//   becomes a `goal/change` event and the original message with ordinary plugin attribution.
import type { FormatEvent } from '../types';
import type { JsonObject } from '../json';

/** The turn and step the migration has seen open, and the event before the current one. */
export class LegacyTurnTracker {
  openTurn: unknown = null;
  openStep: unknown = null;
  previous: FormatEvent | undefined;

  /** The `turn/end` to insert before `event` when it restarts the open turn the legacy way. */
  interruptedEndBefore(event: FormatEvent): FormatEvent | undefined {
    if (event.type !== 'turn/start' || this.openTurn === null || this.openStep !== null) return undefined;
    if ((event.data as JsonObject).turn !== (this.openTurn as number) + 1 || this.previous?.type !== 'agent/inbox/spliced')
      return undefined;
    const splice = this.previous.data as JsonObject;
    if (splice.target !== 'next-turn' || !Array.isArray(splice.inserted) || splice.inserted.length === 0) return undefined;
    return { type: 'turn/end', seq: event.seq, time: event.time, data: { turn: this.openTurn, reason: { kind: 'interrupted' } } };
  }

  observe(event: FormatEvent): void {
    const data = event.data as JsonObject;
    if (event.type === 'turn/start') {
      this.openTurn = data.turn;
      this.openStep = null;
    } else if (event.type === 'turn/end') {
      this.openTurn = null;
      this.openStep = null;
    } else if (event.type === 'step/start') this.openStep = data.step;
    else if (event.type === 'step/end') this.openStep = null;
    this.previous = event;
  }
}

/** The `goal/change` and the re-attributed message a legacy goal-mutation message splits into. */
export function splitLegacyGoalMessage(event: FormatEvent): { change: FormatEvent; message: FormatEvent } | undefined {
  if (event.type !== 'user/message') return undefined;
  const data = event.data as JsonObject;
  const source = data.source as JsonObject;
  if (source.kind !== 'goal' || source.change === undefined) return undefined;
  return {
    change: { type: 'goal/change', seq: event.seq, time: event.time, data: source.change },
    message: { ...event, data: { ...data, source: { kind: 'plugin', plugin: 'goal' } } },
  };
}
