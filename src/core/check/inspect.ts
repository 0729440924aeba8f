// The conformance projection of a loaded log: the fields of the corpus's expected.json files.
// Used by `session-surface inspect --json` and by the conformance tests.
import { isSessionLog, type SessionLog } from '../read/session-log';
import { sha256HexOfJson } from '../sha256';
import { CURRENT_FORMAT_VERSION } from '../format/generations';
import type { FormatVerdict } from '../format/verdict';

function surfaceProjection(log: SessionLog, nodes: readonly number[], replaceGeneration: number): Record<string, unknown> {
  const messages = log.deriveMessages(nodes);
  const balance = log.balancedCuts(nodes);
  return {
    ok: true,
    surface: [...nodes],
    replaceGeneration,
    derivedMessages: messages.length,
    derivedDigest: sha256HexOfJson(messages),
    ...('cuts' in balance ? { balancedCuts: balance.cuts } : { balancedCutsError: balance.error }),
  };
}

/** Options of `inspectLog`. */
export interface InspectOptions {
  /** Also the verdict of migrating to every generation between the file's and today's (`upgrade.forms`). */
  forms?: boolean;
}

/** A format-layer verdict in the inspect projection's field names (dsh's message as `dshError`). */
function formatVerdictFields(verdict: FormatVerdict): Record<string, unknown> {
  const out: Record<string, unknown> = { ok: verdict.ok, stage: verdict.stage };
  for (const key of ['edge', 'errorName', 'dshError', 'line', 'events', 'inheritedEventCount', 'sha256', 'bytes'] as const)
    if (verdict[key] !== undefined) out[key] = verdict[key];
  if (verdict.reason !== undefined && verdict.dshError === undefined) out.dshError = verdict.reason;
  return out;
}

/** What today's dsh does with the file (see SessionLog.upgradeRead), with the migration to each generation on the way when asked. */
function upgradeFields(log: SessionLog, options: InspectOptions): Record<string, unknown> {
  const upgrade = log.upgradeRead();
  const out: Record<string, unknown> = { to: upgrade.verdict.targetVersion, ...formatVerdictFields(upgrade.verdict) };
  if (options.forms) {
    const forms: Record<string, unknown> = {};
    const from = Math.max(log.format.version ?? 0, 0);
    for (let target = from + (from === 0 ? 1 : 0); target <= CURRENT_FORMAT_VERSION; target++)
      forms[`v${target}`] = formatVerdictFields(log.formRead(target).verdict);
    out.forms = forms;
  }
  return out;
}

export function inspectLog(log: SessionLog, options: InspectOptions = {}): Record<string, unknown> {
  if (!isSessionLog(log)) return { ok: false, stage: 'header', rule: 'api.bad-input', error: 'inspectLog needs a loaded session log' };
  const verdict = log.verdict;
  const out: Record<string, unknown> = { ok: verdict.ok, stage: verdict.stage };
  if (!verdict.ok) {
    out.error = verdict.error;
    out.dshError = verdict.dshError;
    out.errorName = verdict.errorName;
    out.rule = verdict.rule;
    if (verdict.edge !== undefined) out.edge = verdict.edge;
    if (verdict.line !== undefined && log.format.version !== 0) out.line = verdict.line;
  }
  out.format = log.format;
  out.upgrade = upgradeFields(log, options);
  if (log.format.version !== 0 && log.format.version !== null) {
    out.events = log.eventCount;
    const cut = log.inheritedEventCount;
    if (cut !== undefined) out.inheritedEventCount = cut;
  }
  if (verdict.stage === 'header' || verdict.stage === 'parse') return out;
  out.header = log.header;
  out.scan = log.scan;
  out.events = log.eventCount;
  if (verdict.stage !== 'adopt') out.upgradedSeqs = log.upgradedSeqs;
  if (verdict.stage === 'seed' || verdict.stage === 'done') {
    out.closers = log.closers;
    out.strictSeed = log.strictSeed;
  }
  if (!verdict.ok) return out;
  out.sessionEvents = log.sessionEventCount;
  const repaired = surfaceProjection(log, log.repairedSurface(), log.repairedReplaceGeneration());
  Object.assign(out, repaired);
  out.replacements = log.repairedReplacements();
  if (log.closers.length > 0) out.unrepaired = surfaceProjection(log, log.surface(), log.replaceGeneration());
  return out;
}
