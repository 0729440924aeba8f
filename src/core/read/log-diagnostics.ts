// What reading a log found, as diagnostics: the findings the stages reported, lossy numbers, a torn
// tail, the damaged line dsh stops at (and how many readable lines it drops after it), and the refusal
// itself marked `refusing`. A later generation's read brings its own findings; only the fold's
// disagreements and the torn tail are added to them. Whole-log facts (provenance, invariants) are not
// reading's and are asked for apart (SessionLog.facts).
import type { Diagnostic, ScanSummary, Verdict } from '../types';
import { say } from '../words';
import type { LogParts } from './log-parts';

/** Bytes after the last newline of a later generation's text (a torn tail dsh does not read). */
export function tornTailBytes(parts: LogParts): number {
  const bytes = parts.scanner.bytes;
  const last = bytes.length > 0 ? bytes.view().lastIndexOf(0x0a) : -1;
  return bytes.length - (last + 1);
}

/** What the line scanner read: the bytes, those committed, and where and why it stopped. */
export function scanSummaryOf(parts: LogParts): ScanSummary {
  const { scanner } = parts;
  const bytes = scanner.bytes;
  const fileBytes = bytes.length;
  const committed = scanner.committed;
  const summary: ScanSummary = {
    fileBytes,
    committedBytes: committed,
    endsWithNewline: fileBytes > 0 && bytes.at(fileBytes - 1) === 0x0a,
    packedRows: scanner.packedRows,
  };
  if (committed < fileBytes) summary.stoppedAt = scanner.damage?.message ?? 'torn-tail';
  return summary;
}

/** The reading's diagnostics (see the header); `verdictOf` gives the log's verdict (a v0 log's is asked for). */
export function readingDiagnostics(parts: LogParts, verdictOf: () => Verdict): Diagnostic[] {
  if (parts.generation) return [...parts.generation.diagnostics, ...parts.foldProblems, ...tornTailNotes(parts)];
  const { scanner, verdicts } = parts;
  const out = [...verdicts.diagnostics, ...verdicts.lossyWarnings(parts.index)];
  const verdict = verdictOf();
  const scan = scanSummaryOf(parts);
  const damage = scanner.damage;
  if (scanner.stoppedByLimit) {
    // The limit's own diagnostic says where reading stopped.
  } else if (scan.stoppedAt === 'torn-tail') {
    const line = scanner.linesRead + 2;
    out.push({
      severity: 'info',
      rule: 'jsonl.torn-tail',
      ...say(
        'the final {0} bytes (line {1}) have no newline yet: a torn tail dsh ignores, or a line still being written',
        scan.fileBytes - scan.committedBytes,
        line,
      ),
      line,
      offset: scan.committedBytes,
    });
  } else if (scan.stoppedAt && verdict.ok) {
    const beyond = scanner.linesBeyondDamage;
    // Only the first 10,000 lines after the damage are read in full: past them, "at least".
    const count = beyond.more ? `${beyond.count}+` : beyond.count;
    out.push({
      severity: 'warning',
      rule: 'jsonl.damaged-line',
      ...(count !== 0
        ? say(
            'dsh keeps only the events before line {0} ({1} readable line(s) after it are dropped); a writable open would truncate the file at byte {2}',
            String(damage?.line),
            count,
            scan.committedBytes,
          )
        : say(
            'dsh keeps only the events before line {0}; a writable open would truncate the file at byte {1}',
            String(damage?.line),
            scan.committedBytes,
          )),
      line: damage?.line,
      offset: damage?.offset,
    });
  }
  if (!verdict.ok) {
    const refusing = out.find((d) => d.severity === 'error' && d.line === verdict.line && d.rule === verdict.rule);
    if (refusing)
      out[out.indexOf(refusing)] = { ...refusing, refusing: true }; // copy: never mark the stored diagnostic, the verdict can move when the log grows
    else
      out.unshift({
        severity: 'error',
        rule: verdict.rule ?? 'refused',
        message: verdict.dshError ?? 'refused',
        line: verdict.line,
        seq: verdict.seq,
        refusing: true,
      });
  }
  return out;
}

/** A later generation's torn tail: the bytes after the last newline, which dsh does not read. */
function tornTailNotes(parts: LogParts): Diagnostic[] {
  const torn = tornTailBytes(parts);
  if (torn === 0) return [];
  const offset = parts.scanner.bytes.length - torn;
  return [
    {
      severity: 'info',
      rule: 'jsonl.torn-tail',
      ...say('the final {0} bytes have no newline yet: a torn tail dsh ignores, or a line still being written', torn),
      offset,
    },
  ];
}
