// Cross-event relationships a session must satisfy to be constructed: turn and step nesting, tool
// lifecycles, retries, compactions, titles, commands, delivery markers.
import type { Artifact } from '../../types';

/** Event roles a later generation adds, interpreted by the generation that owns them. */
export interface RelationshipExtensions {
  /** Event types that must sit inside an open turn and step (v2's `assistant/attempt`). */
  readonly stepEvents?: ReadonlySet<string>;
  /** Title requests whose framed text is kept from the source, not recomputed (v2+). */
  readonly preservedSourceTitleRequestText?: boolean;
  /** Accept the legacy restart (next-turn splice, then turn/start without turn/end). */
  readonly legacyInterruptedTurnRestart?: boolean;
}

export function assertArtifactRelationships(artifact: Artifact, extensions: RelationshipExtensions = {}): void {
  void artifact;
  void extensions;
  throw new Error('not implemented');
}
