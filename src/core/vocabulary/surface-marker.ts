// A replace marker's endpoints in either spelling dsh has written: `{op, start, end}` (v0–v2) and
// `{op, startSeq, endSeq}` (v3 and on). Whether the spelling is the log's own is the fold's business;
// views and checks that only need the span ask here.

/** The two endpoint values a marker object holds, whatever they are (a refused marker's included). */
export function markerEndpoints(op: object): { start: unknown; end: unknown } {
  const r = op as Record<string, unknown>;
  return { start: 'startSeq' in r ? r.startSeq : r.start, end: 'endSeq' in r ? r.endSeq : r.end };
}

/** The span a replace marker names, or undefined when `op` is not a replace with two numeric endpoints. */
export function replaceRangeOf(op: unknown): { start: number; end: number } | undefined {
  if (typeof op !== 'object' || op === null || (op as { op?: unknown }).op !== 'replace') return undefined;
  const { start, end } = markerEndpoints(op);
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : undefined;
}
