// A replacing tool/result (a pruner's rewrite) changes only the result's content (the installed
// session's surface rule; v0 spec §3 and its v4 row in §8.1: "tool/result replacement may change only
// message.content"). It shadows exactly one current tool/result and keeps every other field — turn,
// step, error, the message's id, source, toolCallId, isError and extensions.
import type { Artifact, FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject, jsonEqual } from '../../json';

import { SurfaceFold } from './surface-fold';

/** The data with the message's content set aside, for comparing everything else. */
function withoutContent(data: unknown): unknown {
  if (!isJsonObject(data) || !isJsonObject(data.message)) return data;
  return { ...data, message: { ...data.message, content: null } };
}

export function assertToolResultRewrites(artifact: Artifact, knownTypes: ReadonlySet<string>): void {
  const fold = new SurfaceFold();
  const events: readonly FormatEvent[] = artifact.events;
  for (const event of events) {
    if (!knownTypes.has(event.type)) continue;
    const shadowed = fold.apply(event);
    if (event.type !== 'tool/result' || event.surfaceOp === 'append') continue;
    if (shadowed.length !== 1) throw new SessionFormatError('tool/result surface replacement must rewrite exactly one current node');
    const original = events[shadowed[0]];
    if (original?.type !== 'tool/result') throw new SessionFormatError('tool/result surface replacement must target a current tool/result');
    if (!jsonEqual(withoutContent(original.data), withoutContent(event.data))) {
      throw new SessionFormatError('tool/result surface replacement may change only content');
    }
  }
}
