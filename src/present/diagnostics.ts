// The one definition of a log's diagnostics: what `session-surface check` prints is what the session
// editor lists and the Problems panel shows. It is the reader's diagnostics plus, for a log dsh
// opens, the relational-invariant and provenance warnings (their notes — failed, retried or
// interrupted attempts — describe a healthy log and are left out). Every diagnostic comes out with a
// 1-based file line when it has a place, in file order. The core words its diagnostics in English and
// keeps their words; every diagnostic comes out in the formatter's language.
import { checkInvariants, provenanceIndex, type Diagnostic, type SessionLog } from '../core';
import type { Formatter } from './format';
import { quoteDsh } from './verdict';
import { coreText } from './core-words';

/** Problems whose line starts an unreadable stretch because a seq broke the order, not because the line is damaged. */
const ORDER_RULES = new Set(['seq.contiguity', 'rows.decode']);

/** Every diagnostic of a log, in file-line order (a diagnostic with no line first). */
export function logDiagnostics(log: SessionLog, fmt: Formatter): Diagnostic[] {
  const relational = log.verdict.ok
    ? [...checkInvariants(log), ...provenanceIndex(log).diagnostics].filter((d) => d.severity !== 'info')
    : [];
  return presentDiagnostics(log, [...log.diagnostics, ...relational], fmt);
}

/** Places and words diagnostics as `logDiagnostics` does, for a list gathered elsewhere. */
export function presentDiagnostics(
  log: Pick<SessionLog, 'place' | 'verdict'>,
  diagnostics: readonly Diagnostic[],
  fmt: Formatter,
): Diagnostic[] {
  const lineOf = (d: { line?: number; seq?: number }) => d.line ?? (d.seq !== undefined ? log.place(d.seq)?.line : undefined);
  const orderBreaks = new Map<number, string>();
  for (const d of diagnostics) if (ORDER_RULES.has(d.rule) && d.line !== undefined) orderBreaks.set(d.line, d.rule);
  const out = diagnostics.map((d) => {
    const line = lineOf(d);
    const related = d.related?.map((r) => ({ ...r, line: lineOf(r) }));
    const placed: Diagnostic = { ...d, line, related };
    if (line === undefined) delete placed.line;
    if (!related) delete placed.related;
    return reword(placed, log.verdict.dshError, orderBreaks, fmt);
  });
  // Stable sort: the reader's order is kept within a line.
  return out
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (a.d.line ?? 0) - (b.d.line ?? 0) || a.i - b.i)
    .map(({ d }) => d);
}

/** The reader's two sentences about a damaged line (src/core/read), reworded when a seq broke the order. */
const DAMAGED_BUT_CLOSED = /^line (\d+) is damaged but line (\d+) closes a turn after it: the damage is inside committed history$/;
const KEEPS_BEFORE =
  /^dsh keeps only the events before line (\d+)(?: \((\d+\+?) readable line\(s\) after it are dropped\))?; a writable open would truncate the file at byte (\d+)$/;

/**
 * Our sentences are in file lines. Two cases need words changed:
 *  - the refusal when only dsh's message describes it: quoted, saying whose line numbers it uses;
 *  - a stretch cut off by a seq out of order, which the reader words as damage.
 * Every other message (and every related place's) is the core's, in the formatter's language; the
 * words it was made from are left out, as the message is final.
 */
function reword(d: Diagnostic, dshError: string | undefined, orderBreaks: ReadonlyMap<number, string>, fmt: Formatter): Diagnostic {
  const { words: _words, ...out }: Diagnostic = d;
  if (d.related)
    out.related = d.related.map((r) => {
      const { words: _relatedWords, ...place } = r;
      return { ...place, message: coreText(r, fmt) };
    });
  if (d.refusing && dshError !== undefined && d.message === dshError) {
    out.message = fmt.t('dsh refuses the log. {0}', quoteDsh(dshError, fmt));
  } else if (d.rule === 'jsonl.damaged-line' && d.line !== undefined && orderBreaks.has(d.line)) {
    out.rule = orderBreaks.get(d.line)!;
    out.message = orderBreakMessage(d.message, fmt);
  } else out.message = coreText(d, fmt);
  return out;
}

function orderBreakMessage(message: string, fmt: Formatter): string {
  const closed = DAMAGED_BUT_CLOSED.exec(message);
  if (closed)
    return fmt.t(
      'line {0} breaks the seq order, but line {1} closes a turn after it: the damage is inside committed history',
      closed[1],
      closed[2],
    );
  const kept = KEEPS_BEFORE.exec(message);
  if (kept)
    return kept[2] === undefined
      ? fmt.t(
          'dsh keeps only the events before line {0}, where the seq order breaks; a writable open would truncate the file at byte {1}',
          kept[1],
          kept[3],
        )
      : fmt.t(
          'dsh keeps only the events before line {0}, where the seq order breaks ({1} readable line(s) after it are dropped); a writable open would truncate the file at byte {2}',
          kept[1],
          kept[2],
          kept[3],
        );
  // A sentence the reader words differently: its own words, the damage named as an order break.
  return message
    .replace(/^line (\d+) is damaged but/, 'line $1 breaks the seq order, but')
    .replace(/^dsh keeps only the events before line (\d+)/, 'dsh keeps only the events before line $1, where the seq order breaks');
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
