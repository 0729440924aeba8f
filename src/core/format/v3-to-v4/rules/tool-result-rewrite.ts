// A replacing tool/result (a pruner's rewrite) changes only the result's content (the installed
// session's surface rule; v0 spec §3 and its v4 row in §8.1: "tool/result replacement may change only
// message.content"). It shadows exactly one current tool/result and keeps every other field — turn,
// step, error, the message's id, source, toolCallId, isError and extensions.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject, jsonEqual } from '../../json';

import { SurfaceFold } from './surface-fold';

/** The data with the message's content set aside, for comparing everything else. */
function withoutContent(data: unknown): unknown {
  if (!isJsonObject(data) || !isJsonObject(data.message)) return data;
  return { ...data, message: { ...data.message, content: null } };
}

/**
 * Checks the rewrites of a v4 artifact's events in order, on the surface as the v4 relationships fold
 * it (its own fold by default; or one a caller already applies to every known event, which hands in
 * what each event shadowed). Of the tool/results it keeps only those on the current surface, without
 * their content: a rewrite can only target one of them.
 */
export class ToolResultRewrites {
  private readonly fold: SurfaceFold | undefined;
  /** The tool/results on the current surface, by seq: their data with the content set aside. */
  private readonly current = new Map<number, unknown>();

  constructor(
    private readonly knownTypes: ReadonlySet<string>,
    ownFold = true,
  ) {
    if (ownFold) this.fold = new SurfaceFold();
  }

  /** The next event (and, without a fold of its own, the nodes it shadowed); throws the first rule it breaks. */
  accept(event: FormatEvent, shadowedByCaller?: readonly number[]): void {
    if (!this.knownTypes.has(event.type)) return;
    const shadowed = this.fold ? this.fold.apply(event) : shadowedByCaller!;
    if (event.type === 'tool/result' && event.surfaceOp !== 'append') {
      if (shadowed.length !== 1) throw new SessionFormatError('tool/result surface replacement must rewrite exactly one current node');
      if (!this.current.has(shadowed[0])) throw new SessionFormatError('tool/result surface replacement must target a current tool/result');
      if (!jsonEqual(this.current.get(shadowed[0]), withoutContent(event.data))) {
        throw new SessionFormatError('tool/result surface replacement may change only content');
      }
    }
    // What left the surface can never be rewritten: only the current nodes are kept.
    for (const seq of shadowed) this.current.delete(seq);
    if (event.type === 'tool/result') this.current.set(event.seq, withoutContent(event.data));
  }
}
