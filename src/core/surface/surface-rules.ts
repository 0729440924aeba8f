// What the surface fold needs to know of a log's generation: which event types join the surface,
// how a replace marker names its endpoints, and the rules that only some generations have. The fold
// asks these rules; it never looks at a version number.
import { isSeq } from '../read/json-values';
import { SURFACE_TYPES } from '../read/known-types';

export class SurfaceError extends Error {
  constructor(
    message: string,
    readonly rule: string,
  ) {
    super(message);
  }
}

export interface SurfaceRules {
  /** The event types that carry a surfaceOp and may join the surface. */
  readonly surfaceTypes: ReadonlySet<string>;
  /** The two endpoint keys of a replace marker: `start`/`end` (v0–v2), `startSeq`/`endSeq` (v3+). */
  readonly replaceKeys: readonly [start: string, end: string];
  /** v0: a replacing tool/result may differ from the result it replaces only in its result content. */
  readonly toolResultContentOnly: boolean;
  /**
   * v3+: the first surface node, when it is a `system/message`, is the protected system head: only a
   * system message covering exactly that node may replace it.
   */
  readonly protectedSystemHead: boolean;
}

/** dsh 0.1.x (v0) and the v1/v2 generations that kept its surface vocabulary and marker spelling. */
export const V0_SURFACE_RULES: SurfaceRules = Object.freeze({
  surfaceTypes: SURFACE_TYPES,
  replaceKeys: ['start', 'end'] as const,
  toolResultContentOnly: true,
  protectedSystemHead: false,
});

/**
 * The endpoints of a replace marker, or a SurfaceError: the marker is exactly `{op:'replace'}` and
 * the two endpoint keys of its generation, each a non-negative safe integer.
 */
export function replaceEndpoints(op: unknown, type: string, rules: SurfaceRules): { start: number; end: number } {
  if (op === null || typeof op !== 'object' || Array.isArray(op)) {
    throw new SurfaceError(`session event "${type}" carries an invalid surfaceOp`, 'surface.marker-shape');
  }
  const [startKey, endKey] = rules.replaceKeys;
  const r = op as Record<string, unknown>;
  const exact = Object.keys(r).length === 3 && 'op' in r && startKey in r && endKey in r;
  const start = r[startKey];
  const end = r[endKey];
  if (!exact || r.op !== 'replace' || !isSeq(start) || !isSeq(end)) {
    throw new SurfaceError(`session event "${type}" carries an invalid replace surfaceOp`, 'surface.marker-shape');
  }
  return { start, end };
}

const V3_SURFACE_TYPES: ReadonlySet<string> = new Set([...SURFACE_TYPES, 'system/message']);
const V4_SURFACE_TYPES: ReadonlySet<string> = new Set([...V3_SURFACE_TYPES, 'developer/message']);

/**
 * The surface rules of the generation a log's header names. dsh's format layer gives a later
 * generation's verdict; these rules only let the fold compute the same surface, so they leave out the
 * v0-only tool-result rule that later generations replaced with their own relationship checks.
 */
export function surfaceRulesOf(version: number): SurfaceRules {
  if (version <= 0) return V0_SURFACE_RULES;
  if (version <= 2) return { ...V0_SURFACE_RULES, toolResultContentOnly: false };
  return {
    surfaceTypes: version === 3 ? V3_SURFACE_TYPES : V4_SURFACE_TYPES,
    replaceKeys: ['startSeq', 'endSeq'] as const,
    toolResultContentOnly: false,
    protectedSystemHead: true,
  };
}
