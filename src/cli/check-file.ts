// One file's `check` result as plain data, so a worker thread can hand it back to the main thread:
// whether dsh loads the log, every problem (the presentation layer's list of a log's diagnostics, the
// same the session editor and the Problems panel show) and, when the file cannot be read, why.
import type { ReadLimits, Diagnostic, FormatVerdict, SessionLog } from '../core';
import { diagnosticLine, formatLabel, logDiagnostics, upgradeWords } from '../present';
import { countOf, english } from './english';
import { FileReadError, openLog } from './open-log';
import type { FsPath } from './find-logs';

export interface ProblemLine {
  line: number;
  rule: string;
  severity: Diagnostic['severity'];
  message: string;
}

/** The log's format and what today's dsh does with it (migrates it, or refuses, where and why). */
export interface GenerationVerdict {
  format: number | null;
  upgrade: UpgradeVerdict;
}

/** Today's dsh's verdict, as much of it as a check reports (dsh's message as `dshError`). */
export type UpgradeVerdict = Pick<FormatVerdict, 'ok' | 'stage' | 'targetVersion' | 'edge' | 'line' | 'dshError'>;

export type FileVerdict =
  | ({ file: string; status: 'loads'; events: number; lastTurnOpen: boolean; problems: ProblemLine[] } & Partial<GenerationVerdict>)
  | ({
      file: string;
      status: 'refused';
      events: number;
      stage: string;
      rule?: string;
      line?: number;
      error?: string;
      problems: ProblemLine[];
    } & Partial<GenerationVerdict>)
  /** The file could not be read at all (missing, unreadable, not a regular file). */
  | { file: string; status: 'unreadable'; error: string; problems: [] }
  /** Reading it failed in a way the core should have reported as a diagnostic. */
  | { file: string; status: 'failed'; error: string; problems: [] };

export interface CheckOptions {
  /** Also today's dsh's verdict (it migrates the log; for an older log this reads it a second time). Default true. */
  upgrade?: boolean;
  /** What is read when it differs from the shown name `file` (see LogTarget). */
  fsPath?: FsPath;
}

/** Checks one file. */
export function checkFile(file: string, limits: Partial<ReadLimits> = {}, options: CheckOptions = {}): FileVerdict {
  const fsPath = options.fsPath ?? file;
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
    const generation = options.upgrade === false ? {} : generationVerdict(log);
    if (verdict.ok) return { file, status: 'loads', events: log.eventCount, lastTurnOpen: log.lastTurnOpen, problems, ...generation };
    return {
      file,
      status: 'refused',
      events: log.eventCount,
      stage: verdict.stage,
      rule: verdict.rule,
      line: verdict.line,
      error: verdict.error,
      problems,
      ...generation,
    };
  } catch (error) {
    if (error instanceof FileReadError) return { file, status: 'unreadable', error: withoutFile(file, error.message), problems: [] };
    // One bad file must not end a run over many: its verdict says what went wrong, in one line.
    return { file, status: 'failed', error: `internal error: ${oneLine(error)}`, problems: [] };
  }
}

function generationVerdict(log: SessionLog): GenerationVerdict {
  const upgrade = log.upgradeRead({ digest: false }).verdict;
  const out: UpgradeVerdict = { ok: upgrade.ok, stage: upgrade.stage, targetVersion: upgrade.targetVersion };
  if (upgrade.edge !== undefined) out.edge = upgrade.edge;
  if (upgrade.line !== undefined) out.line = upgrade.line;
  const error = upgrade.dshError ?? upgrade.reason;
  if (error !== undefined) out.dshError = error;
  return { format: log.format.version, upgrade: out };
}

/** Today's dsh's verdict as the line printed under the file's own verdict. */
function upgradeLine(verdict: FileVerdict): string | undefined {
  if (verdict.status !== 'loads' && verdict.status !== 'refused') return undefined;
  const upgrade = verdict.upgrade;
  if (!upgrade) return undefined;
  const words = upgradeWords(upgrade, verdict.format ?? null, english);
  return `${formatLabel(verdict.format, english)}. ${words.text}${words.dshText ? ` ${words.dshText}` : ''}`;
}

/** The text lines of one verdict: problems for stdout, the verdict itself for stderr. */
export function verdictText(verdict: FileVerdict): { problems: string[]; verdict: string } {
  const problems = verdict.problems.map((p) => diagnosticLine(verdict.file, p));
  switch (verdict.status) {
    case 'loads':
      return {
        problems,
        verdict: withUpgrade(
          `${verdict.file}: loads (${countOf(verdict.events, 'event', 'events')}${verdict.lastTurnOpen ? ', last turn open' : ''})`,
          verdict,
        ),
      };
    case 'refused':
      return {
        problems,
        verdict: withUpgrade(
          `${verdict.file}: refused by dsh at stage ${verdict.stage} (${verdict.rule}, line ${verdict.line ?? '?'})`,
          verdict,
        ),
      };
    case 'unreadable':
      return { problems, verdict: `${verdict.file}: cannot read: ${verdict.error}` };
    case 'failed':
      return { problems, verdict: `${verdict.file}: ${verdict.error}` };
  }
}

/**
 * One line per file: the file's own verdict first (as scripts read it), then its format and today's
 * dsh's verdict.
 */
function withUpgrade(line: string, verdict: FileVerdict): string {
  const upgrade = upgradeLine(verdict);
  return upgrade ? `${line} · ${upgrade}` : line;
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
