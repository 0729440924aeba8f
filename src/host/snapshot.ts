// Turns what the core read (a SessionLogView) into the plain data the webview shows. Pure: no vscode,
// no I/O, so the mapping can be unit-tested and the webview never sees core objects.
import type { SessionLogView } from '../core/api';
import type { Diagnostic } from '../core/types';
import type {
  CountsView, DiagnosticView, FileStatus, HeaderFields, LiveState, SessionSnapshot, VerdictView,
} from '../protocol/messages';

/** The webview lists at most this many diagnostics (all of them still reach the Problems panel). */
export const MAX_DIAGNOSTICS_SHOWN = 500;

export interface SnapshotContext {
  fileName: string;
  filePath: string;
  turns: number;
  file: FileStatus;
  restrictedMode: boolean;
  loadMs: number;
}

/**
 * The header fields as written, for a first line dsh refused as a header (an older writer's header
 * without delegationDepth, a foreign version): the user still sees which session the file is.
 */
export function headerAsWritten(line: unknown): HeaderFields | undefined {
  if (typeof line !== 'object' || line === null || (line as { type?: unknown }).type !== 'session') return undefined;
  const l = line as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    version: num(l.version) ?? NaN,
    id: str(l.id) ?? '',
    createdAt: num(l.createdAt) ?? NaN,
    cwd: str(l.cwd),
    parentSession: str(l.parentSession),
    seedLength: num(l.seedLength),
    origin: str(l.origin),
    delegationDepth: num(l.delegationDepth),
    agentPreset: str(l.agentPreset),
  };
}

export function buildSnapshot(view: SessionLogView, ctx: SnapshotContext): SessionSnapshot {
  const diagnostics = view.diagnostics;
  const counts: CountsView = {
    events: view.eventCount,
    turns: ctx.turns,
    fileBytes: view.scan.fileBytes,
    committedBytes: view.scan.committedBytes,
    packedRows: view.scan.packedRows,
    closers: view.closers.length,
    linesBeyondDamage: view.linesBeyondDamage.count,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    infos: diagnostics.filter((d) => d.severity === 'info').length,
  };
  return {
    fileName: ctx.fileName,
    filePath: ctx.filePath,
    header: view.header ? { ...view.header } : headerAsWritten(view.headerLine),
    headerAccepted: view.header !== undefined,
    verdict: verdictView(view),
    counts,
    lastTurnOpen: view.lastTurnOpen,
    live: liveState(view),
    file: ctx.file,
    diagnostics: diagnostics.slice(0, MAX_DIAGNOSTICS_SHOWN).map((d) => diagnosticView(view, d)),
    diagnosticsTruncated: diagnostics.length > MAX_DIAGNOSTICS_SHOWN,
    restrictedMode: ctx.restrictedMode,
    readOnly: true,
    loadMs: ctx.loadMs,
  };
}

function verdictView(view: SessionLogView): VerdictView {
  const v = view.verdict;
  return { ok: v.ok, stage: v.stage, rule: v.rule, line: v.line, seq: v.seq, message: v.error, errorName: v.errorName };
}

/**
 * An open last turn is what a log looks like while an agent is writing it; it only means a crash
 * once nobody will ever write again, which a viewer cannot know. So it is shown as live.
 */
function liveState(view: SessionLogView): LiveState {
  if (!view.header && view.eventCount === 0) return 'unknown';
  return view.lastTurnOpen ? 'live' : 'closed';
}

/** The file line of a diagnostic, from the line it names or from the place of the event it names. */
export function diagnosticLine(view: SessionLogView, d: { line?: number; seq?: number }): number | undefined {
  if (d.line !== undefined) return d.line;
  if (d.seq !== undefined) return view.place(d.seq)?.line;
  return undefined;
}

function diagnosticView(view: SessionLogView, d: Diagnostic): DiagnosticView {
  return {
    severity: d.severity,
    rule: d.rule,
    message: d.message,
    line: diagnosticLine(view, d),
    seq: d.seq,
    refusing: d.refusing === true,
    related: (d.related ?? []).map((r) => ({ message: r.message, seq: r.seq, line: diagnosticLine(view, r) })),
  };
}

/** Number of `turn/start` events among seqs [from, to). */
export function countTurns(view: SessionLogView, from: number, to: number): number {
  let turns = 0;
  for (let seq = from; seq < to; seq++) if (view.eventType(seq) === 'turn/start') turns++;
  return turns;
}
