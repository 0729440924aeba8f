// The conformance projection of a loaded log: the fields of the corpus's expected.json files.
// Used by `session-surface inspect --json` and by the conformance tests.
import { isSessionLog, type SessionLog } from '../read/session-log';
import { sha256HexOfJson } from '../sha256';

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

export function inspectLog(log: SessionLog): Record<string, unknown> {
  if (!isSessionLog(log)) return { ok: false, stage: 'header', rule: 'api.bad-input', error: 'inspectLog needs a loaded session log' };
  const verdict = log.verdict;
  const out: Record<string, unknown> = { ok: verdict.ok, stage: verdict.stage };
  if (!verdict.ok) {
    out.error = verdict.error;
    out.dshError = verdict.dshError;
    out.errorName = verdict.errorName;
    out.rule = verdict.rule;
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
