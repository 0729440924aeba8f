// Checks the append planners share: the open-compaction lock, surface membership of a seq, the
// tool-pairing balance of a cut (with the call that makes it unbalanced), and the final
// `planAppend` pass that validates a batch exactly as dsh's append would.
import type { Diagnostic, SessionEvent } from '../types';
import type { SessionLog } from '../read/session-log';
import type { NewEvent } from './append-types';
import { stringText, valueText } from '../value-text';
import { say, said, type Said } from '../words';

export function reason(rule: string, message: string | Said, log?: SessionLog, seq?: number): Diagnostic {
  const d: Diagnostic = { severity: 'error', rule, ...said(message) };
  if (seq !== undefined) {
    d.seq = seq;
    const line = log?.place(seq)?.line;
    if (line !== undefined) d.line = line;
  }
  return d;
}

/**
 * The compaction lock (spec §6.2 step 3): the most recent compaction/start with no later
 * compaction/end, unless a session/end-seed follows it. Walks back over the type column only.
 */
export function openCompactionStart(log: SessionLog): number | undefined {
  for (let seq = log.eventCount - 1; seq >= 0; seq--) {
    const type = log.eventType(seq);
    if (type === 'compaction/end' || type === 'session/end-seed') return undefined;
    if (type === 'compaction/start') return seq;
  }
  return undefined;
}

export function compactionInProgress(log: SessionLog): Diagnostic | undefined {
  const start = openCompactionStart(log);
  if (start === undefined) return undefined;
  return reason(
    'compaction.in-progress',
    say('compaction already in progress: compaction/start at seq {0} has no compaction/end (and no session/end-seed after it)', start),
    log,
    start,
  );
}

/** Why `seq` is not a current surface node: no such event, not a surface type, or shadowed by a replace. */
export function notOnSurface(log: SessionLog, seq: number, what: string): Diagnostic {
  const rule = 'replace.endpoints-on-current-surface';
  if (!Number.isSafeInteger(seq) || seq < 0 || seq >= log.eventCount) {
    return reason(rule, say('{0} seq {1} is not an event of this log (it has seqs 0–{2})', what, stringText(seq), log.eventCount - 1));
  }
  const shadower = log.replacements().find((r) => r.shadowedSeqs.includes(seq));
  if (shadower)
    return reason(
      rule,
      say('{0} seq {1} is no longer on the surface: the replace at seq {2} shadowed it', what, seq, shadower.seq),
      log,
      seq,
    );
  return reason(rule, say('{0} seq {1} ({2}) is not a surface node', what, seq, String(log.eventType(seq))), log, seq);
}

/** Tool-call ids of an assistant/message, or the call id a tool/result answers. */
function callsOf(event: SessionEvent | undefined): { opens: string[]; answers?: string } {
  if (event?.type === 'assistant/message') {
    const content = event.data?.message?.content;
    const opens = Array.isArray(content) ? content.filter((b) => b?.type === 'tool-call').map((b) => stringText(b.id)) : [];
    return { opens };
  }
  if (event?.type === 'tool/result') return { opens: [], answers: stringText(event.data?.message?.source?.callId) };
  return { opens: [] };
}

/**
 * Explains an unbalanced cut (spec §6.3) by call id: the nearest tool call opened before the cut
 * and still unanswered there, and the result after the cut that answers it.
 */
function explainCut(log: SessionLog, nodes: readonly number[], cut: number): Said {
  const open = new Map<string, number>();
  for (let k = 0; k < cut; k++) {
    const { opens, answers } = callsOf(log.event(nodes[k]));
    for (const id of opens) open.set(id, nodes[k]);
    if (answers !== undefined) open.delete(answers);
  }
  const pending = [...open];
  if (pending.length === 0) return say('the tool-call/result counts before it do not balance');
  const [id, callSeq] = pending[pending.length - 1];
  let resultSeq: number | undefined;
  for (let k = cut; k < nodes.length && resultSeq === undefined; k++) {
    if (callsOf(log.event(nodes[k])).answers === id) resultSeq = nodes[k];
  }
  const answered =
    resultSeq !== undefined ? say('its tool/result is seq {0}, after the cut', resultSeq) : say('no tool/result on the surface answers it');
  const unanswered = say('tool call {0} of assistant/message seq {1} is unanswered there; {2}', valueText(id), callSeq, answered);
  if (pending.length === 1) return unanswered;
  return pending.length > 2
    ? say('{0} ({1} more calls also open)', unanswered, pending.length - 1)
    : say('{0} ({1} more call also open)', unanswered, pending.length - 1);
}

/**
 * The balance of the cut before surface index `startIdx` and after surface index `endIdx`, with
 * one reason per unbalanced cut, named by the node next to it.
 */
export function unbalancedCuts(log: SessionLog, startIdx: number, endIdx: number): Diagnostic[] {
  const nodes = log.surface();
  const balance = log.balancedCuts(nodes);
  const rule = 'compaction.balanced-cut';
  if ('error' in balance) return [reason(rule, say('the surface cannot be cut: {0}', balance.error))];
  const balanced = new Set(balance.cuts);
  const out: Diagnostic[] = [];
  if (!balanced.has(startIdx)) {
    out.push(
      reason(
        rule,
        say('the cut before seq {0} (start) is not balanced: {1}', nodes[startIdx], explainCut(log, nodes, startIdx)),
        log,
        nodes[startIdx],
      ),
    );
  }
  if (!balanced.has(endIdx + 1)) {
    out.push(
      reason(
        rule,
        say('the cut after seq {0} (end) is not balanced: {1}', nodes[endIdx], explainCut(log, nodes, endIdx + 1)),
        log,
        nodes[endIdx],
      ),
    );
  }
  return out;
}

/**
 * `log.planAppend` over the planned events (the same validation as dsh's append), minus problems
 * whose rule a planner has already explained in its own words.
 */
export function appendProblems(log: SessionLog, events: readonly SessionEvent[], explained: readonly Diagnostic[]): Diagnostic[] {
  const known = new Set(explained.map((d) => d.rule));
  return log.planAppend(events as unknown as NewEvent[]).filter((d) => !known.has(d.rule));
}

/** The time dsh gives events it writes without a clock of their own: the last event's time. */
export function lastTime(log: SessionLog): number {
  const last = log.event(log.eventCount - 1);
  return typeof last?.time === 'number' ? last.time : 0;
}
