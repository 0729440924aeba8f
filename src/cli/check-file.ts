// One file's `check` result as plain data, so a worker thread can hand it back to the main thread:
// whether dsh loads the log, every problem (the presentation layer's list of a log's diagnostics, the
// same the session editor and the Problems panel show) and, when the file cannot be read, why.
import type { ReadLimits } from '../core/api';
import type { Diagnostic } from '../core/types';
import { diagnosticLine, logDiagnostics } from '../present';
import { countOf, english } from './english';
import { FileReadError, openLog } from './open-log';
import type { FsPath } from './find-logs';

export interface ProblemLine {
  line: number;
  rule: string;
  severity: Diagnostic['severity'];
  message: string;
}

export type FileVerdict =
  | { file: string; status: 'loads'; events: number; lastTurnOpen: boolean; problems: ProblemLine[] }
  | {
      file: string;
      status: 'refused';
      events: number;
      stage: string;
      rule?: string;
      line?: number;
      error?: string;
      problems: ProblemLine[];
    }
  /** The file could not be read at all (missing, unreadable, not a regular file). */
  | { file: string; status: 'unreadable'; error: string; problems: [] }
  /** Reading it failed in a way the core should have reported as a diagnostic. */
  | { file: string; status: 'failed'; error: string; problems: [] };

/** Checks one file; `fsPath` is what is read when it differs from the shown name `file` (see LogTarget). */
export function checkFile(file: string, limits: Partial<ReadLimits> = {}, fsPath: FsPath = file): FileVerdict {
  try {
    // A check reports problems only: provenance need not build the edge index behind its views.
    const { log } = openLog(file, { limits, provenanceEdges: false, fsPath });
    const problems = logDiagnostics(log, english).map((d) => ({
      line: d.line ?? 0,
      rule: d.rule,
      severity: d.severity,
      message: d.message,
    }));
    const verdict = log.verdict;
    if (verdict.ok) return { file, status: 'loads', events: log.eventCount, lastTurnOpen: log.lastTurnOpen, problems };
    return {
      file,
      status: 'refused',
      events: log.eventCount,
      stage: verdict.stage,
      rule: verdict.rule,
      line: verdict.line,
      error: verdict.error,
      problems,
    };
  } catch (error) {
    if (error instanceof FileReadError) return { file, status: 'unreadable', error: withoutFile(file, error.message), problems: [] };
    // One bad file must not end a run over many: its verdict says what went wrong, in one line.
    return { file, status: 'failed', error: `internal error: ${oneLine(error)}`, problems: [] };
  }
}

/** The text lines of one verdict: problems for stdout, the verdict itself for stderr. */
export function verdictText(verdict: FileVerdict): { problems: string[]; verdict: string } {
  const problems = verdict.problems.map((p) => diagnosticLine(verdict.file, p));
  switch (verdict.status) {
    case 'loads':
      return {
        problems,
        verdict: `${verdict.file}: loads (${countOf(verdict.events, 'event', 'events')}${verdict.lastTurnOpen ? ', last turn open' : ''})`,
      };
    case 'refused':
      return {
        problems,
        verdict: `${verdict.file}: refused by dsh at stage ${verdict.stage} (${verdict.rule}, line ${verdict.line ?? '?'})`,
      };
    case 'unreadable':
      return { problems, verdict: `${verdict.file}: cannot read: ${verdict.error}` };
    case 'failed':
      return { problems, verdict: `${verdict.file}: ${verdict.error}` };
  }
}

function withoutFile(file: string, message: string): string {
  const prefix = `${file}: cannot read: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

function oneLine(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = 'an unprintable value was thrown';
  }
  return text.split('\n', 1)[0].slice(0, 500);
}
