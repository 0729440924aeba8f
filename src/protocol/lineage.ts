// Where an open session sits in its family: a child session (a fork or a subagent) names its parent
// and how many leading events it inherited from it (the seed); a parent is told how many children the
// sessions folder holds. The webview marks the seed and links both ways through `openLineage`.
import { count, literal, optional, shape, str, type Validator } from './validate';

export interface LineageSummary {
  /** The parent's session id as the header names it (bounded), when it names one. */
  parentSession?: string;
  /** How the child came to be (`subagent`, `fork`, …), bounded. */
  origin?: string;
  /** Leading events inherited from the parent: seqs 0 … seedLength − 1 (0 when none). */
  seedLength: number;
}
export const isLineageSummary: Validator<LineageSummary> = shape<LineageSummary>({
  parentSession: optional(str),
  origin: optional(str),
  seedLength: count,
});

/** Which way to follow the lineage: to the parent's log, or to a child's (a pick when several). */
export type LineageTarget = 'parent' | 'children';
export const isLineageTarget: Validator<LineageTarget> = literal('parent', 'children');
