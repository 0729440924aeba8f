// The "Session health" summary of a loaded log, worded by the presentation layer.
import type { Diagnostic, FormatVerdict, SessionLog, ZstdSummary } from '../../core';
import {
  advisesNewerHarness,
  countDiagnostics,
  formatLabel,
  formatValue,
  newerHarnessNote,
  upgradeLabel,
  upgradeWords,
  field,
  type FollowWord,
  Formatter,
  headerFields,
  liveState,
  liveText,
  sessionTitle,
  stillReadable,
  verdictWords,
} from '../../present';
import type {
  FieldView,
  FileStatus,
  Generation,
  LineageSummary,
  SessionSummary,
  SeverityMark,
  SummaryCounts,
  UpgradeSummary,
} from '../../protocol';

export interface SummaryContext {
  fileName: string;
  filePath: string;
  turns: number;
  file: FileStatus;
  /** The `sessionSurface.followLiveLogs` setting: off, the file is not watched for appends. */
  followLiveLogs: boolean;
  /** Bytes of the file on disk (compressed, for zstd). */
  fileBytes: number;
  zstd?: ZstdSummary;
  restrictedMode: boolean;
  loadMs: number;
  generation: Generation;
  diagnostics: readonly Diagnostic[];
  /** Today's dsh's verdict, once it was read. */
  upgrade?: FormatVerdict;
  /** The newer generation beside this file that dsh reads (when this file is an older one). */
  newerGeneration?: string;
}

/** Today's dsh's verdict as the health header shows it. */
export function upgradeSummary(verdict: FormatVerdict, storedVersion: number | null, fmt: Formatter): UpgradeSummary {
  const words = upgradeWords(verdict, storedVersion, fmt);
  const out: UpgradeSummary = { ok: verdict.ok, label: upgradeLabel(verdict, storedVersion, fmt), text: words.text, stage: verdict.stage };
  if (words.dshText) out.dshText = words.dshText;
  if (verdict.edge) out.edge = verdict.edge;
  if (!verdict.ok && verdict.line !== undefined && verdict.line >= 1) out.line = verdict.line;
  if (storedVersion === verdict.targetVersion) out.current = true;
  return out;
}

export function worstSeverity(diagnostics: readonly Diagnostic[]): SeverityMark | undefined {
  let worst: SeverityMark | undefined;
  for (const d of diagnostics) {
    if (d.severity === 'error') return 'error';
    if (d.severity === 'warning') worst = 'warning';
    else worst ??= 'info';
  }
  return worst;
}

export function summaryCounts(log: SessionLog, turns: number, diagnostics: readonly Diagnostic[]): SummaryCounts {
  const counts: SummaryCounts = {
    events: log.eventCount,
    turns,
    packedRows: log.scan.packedRows,
    ...countDiagnostics(diagnostics),
    linesBeyondDamage: log.linesBeyondDamage.count,
  };
  // Closers are what dsh would add when it resumes a log it opens; for a refused log there are none.
  if (log.verdict.ok && log.lastTurnOpen) counts.closers = log.closers.length;
  return counts;
}

/**
 * A child session's place in its family, from its header and its seed (undefined for a session of its
 * own). A v0 header counts the seed (`seedLength`); a later one says `isSeeded` and the log's
 * inherited end-seed marker closes the seed.
 */
export function lineageOf(log: Pick<SessionLog, 'header' | 'inheritedEventCount'>): LineageSummary | undefined {
  const h = log.header;
  const seed = log.inheritedEventCount ?? 0;
  if (!h || (h.parentSession === undefined && !seed)) return undefined;
  const lineage: LineageSummary = { seedLength: seed };
  if (h.parentSession !== undefined) lineage.parentSession = field('parentSession', 'Parent session', h.parentSession).value;
  if (h.origin !== undefined) lineage.origin = field('origin', 'Origin', h.origin, 40).value;
  return lineage;
}

/** Whether appends are folded in: only while the file is followable and following is turned on. */
export function followWord(file: FileStatus, followLiveLogs: boolean): FollowWord {
  if (file.state !== 'following') return 'stopped';
  return followLiveLogs ? 'following' : 'off';
}

/**
 * Counts, sizes and timings worded for display, in display order: the summary's facts, and the facts an
 * `appended` note carries (worded here, so the webview never words them itself).
 */
export function summaryFacts(
  log: SessionLog,
  ctx: Pick<SummaryContext, 'fileBytes' | 'zstd' | 'loadMs' | 'file'>,
  counts: SummaryCounts,
  fmt: Formatter,
): FieldView[] {
  const textBytes = log.scan.fileBytes;
  const facts: FieldView[] = [
    field('format', fmt.t('Format'), formatValue(log.format.version, fmt)),
    field('events', fmt.t('Events'), fmt.count(counts.events)),
    field('turns', fmt.t('Turns'), fmt.count(counts.turns)),
    field('packedRows', fmt.t('Packed chunk rows'), fmt.count(counts.packedRows)),
  ];
  if (counts.closers !== undefined) facts.push(field('closers', fmt.t('Closers dsh would add'), fmt.count(counts.closers)));
  facts.push(field('fileBytes', ctx.zstd ? fmt.t('File size (zstd)') : fmt.t('File size'), fmt.bytes(ctx.fileBytes)));
  if (ctx.zstd) {
    facts.push(field('textBytes', fmt.t('Text size (decompressed)'), fmt.bytes(textBytes)));
    facts.push(field('zstdFrames', fmt.t('zstd frames'), fmt.count(ctx.zstd.frames)));
  }
  if (log.scan.committedBytes !== textBytes)
    facts.push(field('committedBytes', fmt.t('Committed text'), fmt.bytes(log.scan.committedBytes)));
  facts.push(field('loadMs', fmt.t('Read in'), fmt.duration(ctx.loadMs)));
  if (ctx.file.lastAppendAt) facts.push(field('lastAppendAt', fmt.t('Last append folded'), fmt.date(ctx.file.lastAppendAt)));
  return facts;
}

export function buildSummary(log: SessionLog, ctx: SummaryContext, fmt: Formatter): SessionSummary {
  const counts = summaryCounts(log, ctx.turns, ctx.diagnostics);
  const live = liveState(log, ctx.turns);
  const verdict = log.verdict;
  const words = verdictWords(verdict, fmt);
  const textBytes = log.scan.fileBytes;
  const facts = summaryFacts(log, ctx, counts, fmt);

  const summary: SessionSummary = {
    fileName: field('fileName', 'File', ctx.fileName, 200).value,
    filePath: field('filePath', 'Path', ctx.filePath, 400).value,
    title: sessionTitle(log.headerLine, fmt),
    headerAccepted: log.header !== undefined,
    verdict: {
      ok: verdict.ok,
      stage: verdict.stage,
      text: words.text,
    },
    live,
    liveText: liveText(live, followWord(ctx.file, ctx.followLiveLogs), fmt),
    counts,
    sizes: { fileBytes: ctx.fileBytes, textBytes, committedBytes: log.scan.committedBytes },
    facts,
    file: ctx.file,
    restrictedMode: ctx.restrictedMode,
    loadMs: ctx.loadMs,
    locale: fmt.locale,
    generation: ctx.generation,
  };
  const lineage = lineageOf(log);
  if (lineage) summary.lineage = lineage;
  const header = headerFields(log.headerLine, fmt);
  if (header) summary.headerFields = header;
  summary.verdict.format = formatLabel(log.format.version, fmt);
  if (ctx.upgrade) {
    summary.upgrade = upgradeSummary(ctx.upgrade, log.format.version, fmt);
    const note = !verdict.ok && advisesNewerHarness(verdict.dshError) ? newerHarnessNote(ctx.upgrade, log.format.version, fmt) : undefined;
    if (note) summary.verdict.note = note;
  }
  if (ctx.newerGeneration !== undefined)
    summary.olderGeneration = {
      current: field('current', 'Current generation', ctx.newerGeneration, 200).value,
      text: fmt.t(
        'This file is an older generation of its session: dsh reads and appends to {0} beside it and leaves this one as it is. The editor shows it read-only; open {0} to see the session as dsh does.',
        ctx.newerGeneration,
      ),
    };
  if (verdict.rule) summary.verdict.rule = verdict.rule;
  if (verdict.line !== undefined && verdict.line >= 1) summary.verdict.line = verdict.line;
  if (verdict.seq !== undefined) summary.verdict.seq = verdict.seq;
  if (verdict.errorName) summary.verdict.errorName = verdict.errorName;
  if (words.dshText) summary.verdict.dshText = words.dshText;
  if (!verdict.ok) summary.stillReadable = stillReadable(log, fmt, textBytes);
  if (ctx.zstd) summary.sizes.zstdFrames = ctx.zstd.frames;
  const worst = worstSeverity(ctx.diagnostics);
  if (worst) summary.worstSeverity = worst;
  return summary;
}
