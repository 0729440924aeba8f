// The one definition of a log's diagnostics: what `session-surface check` prints is what the session
// editor lists and the Problems panel shows. It is the reader's diagnostics plus, for a log dsh
// opens, the relational-invariant and provenance warnings (their notes — failed, retried or
// interrupted attempts — describe a healthy log and are left out). Every diagnostic comes out with a
// 1-based file line when it has a place, in file order, worded by `diagnosticMessage`.
import { checkInvariants, provenanceIndex, type Diagnostic } from '../core';
import type { SessionLog } from '../core/read/session-log';
import { quoteDsh } from './verdict';

/** Problems whose line starts an unreadable stretch because a seq broke the order, not because the line is damaged. */
const ORDER_RULES = new Set(['seq.contiguity', 'rows.decode']);

/** Every diagnostic of a log, in file-line order (a diagnostic with no line first). */
export function logDiagnostics(log: SessionLog): Diagnostic[] {
  const relational = log.verdict.ok
    ? [...checkInvariants(log), ...provenanceIndex(log).diagnostics].filter((d) => d.severity !== 'info')
    : [];
  return presentDiagnostics(log, [...log.diagnostics, ...relational]);
}

/** Places and words diagnostics as `logDiagnostics` does, for a list gathered elsewhere. */
export function presentDiagnostics(log: Pick<SessionLog, 'place' | 'verdict'>, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const lineOf = (d: { line?: number; seq?: number }) => d.line ?? (d.seq !== undefined ? log.place(d.seq)?.line : undefined);
  const orderBreaks = new Map<number, string>();
  for (const d of diagnostics) if (ORDER_RULES.has(d.rule) && d.line !== undefined) orderBreaks.set(d.line, d.rule);
  const out = diagnostics.map((d) => {
    const line = lineOf(d);
    const related = d.related?.map((r) => ({ ...r, line: lineOf(r) }));
    const placed: Diagnostic = { ...d, line, related };
    if (line === undefined) delete placed.line;
    if (!related) delete placed.related;
    return reword(placed, log.verdict.dshError, orderBreaks);
  });
  // Stable sort: the reader's order is kept within a line.
  return out
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (a.d.line ?? 0) - (b.d.line ?? 0) || a.i - b.i)
    .map(({ d }) => d);
}

/**
 * Our sentences are in file lines. Two cases need words changed:
 *  - the refusal when only dsh's message describes it: quoted, saying whose line numbers it uses;
 *  - a stretch cut off by a seq out of order, which the reader words as damage.
 */
function reword(d: Diagnostic, dshError: string | undefined, orderBreaks: ReadonlyMap<number, string>): Diagnostic {
  if (d.refusing && dshError !== undefined && d.message === dshError) {
    return { ...d, message: `dsh refuses the log. ${quoteDsh(dshError)}` };
  }
  if (d.rule === 'jsonl.damaged-line' && d.line !== undefined && orderBreaks.has(d.line)) {
    const message = d.message
      .replace(new RegExp(`^line ${d.line} is damaged but`), `line ${d.line} breaks the seq order, but`)
      .replace(/^dsh keeps only the events before line (\d+)/, 'dsh keeps only the events before line $1, where the seq order breaks');
    return { ...d, rule: orderBreaks.get(d.line)!, message };
  }
  return d;
}

/** One diagnostic as `check` prints it: `file:line: rule: severity: message` (line 0 when it has none). */
export function diagnosticLine(file: string, d: Diagnostic): string {
  const severity = d.severity === 'error' ? '' : `${d.severity}: `;
  return `${file}:${d.line ?? 0}: ${d.rule}: ${severity}${d.message}`;
}

export interface DiagnosticCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export function countDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticCounts {
  const counts = { errors: 0, warnings: 0, infos: 0 };
  for (const d of diagnostics) {
    if (d.severity === 'error') counts.errors += 1;
    else if (d.severity === 'warning') counts.warnings += 1;
    else counts.infos += 1;
  }
  return counts;
}
