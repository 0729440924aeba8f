// Plans a manual (between-turns) summarizing compaction the way dsh's compaction plugin writes one
// (spec §6.2): compaction/start, compaction/summary, the replacing checkpoint user/message, and
// compaction/end, seqs continuing the log. Ids, time and the token count are inputs: the planner
// invents nothing, so the same inputs give the same bytes. Data keys follow the order dsh writes
// (fixture v0-compaction-replace-recovery.jsonl); envelopes follow eventLine.
import type { Diagnostic, SessionEvent } from '../types';
import type { SessionLog } from '../read/session-log';
import { eventLine } from './serialize';
import type { PlanResult } from './types';
import { appendProblems, compactionInProgress, notOnSurface, reason, unbalancedCuts } from './checks';
import { isSeq } from '../read/json-values';
import { say, type Said } from '../words';

/**
 * Our preamble for the checkpoint message (dsh writes its own wording; any text is valid). It tells the
 * model what the framed summary is, like dsh's does.
 */
export const COMPACTION_PREAMBLE =
  'Checkpoint written by Session Surface Studio: it stands in for an earlier span of this ' +
  'conversation, condensed to free up context. Take what it records as settled background, build on it without repeating it, ' +
  'and carry on from the messages after it without mentioning this checkpoint.';

export interface CompactionInput {
  /** First and last shadowed surface node (seqs; the span is taken by surface position). */
  start: number;
  end: number;
  /** The summary's content blocks (framed by the checkpoint, recorded verbatim in compaction/summary). */
  summary: unknown[];
  compactionId: string;
  /** Id of the checkpoint user/message. */
  messageId: string;
  /** Epoch ms for all four events. */
  time: number;
  /** The shadowed nodes' token price (what the summarizer measured). */
  shadowedTokenCount: number;
  /** The summarizing route. */
  provider: string;
  model: string;
  /** Replaces COMPACTION_PREAMBLE. */
  preamble?: string;
}

function inputProblems(input: CompactionInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  const bad = (why: Said) => out.push(reason('plan.input', why));
  for (const field of ['compactionId', 'messageId', 'provider', 'model'] as const) {
    if (typeof input[field] !== 'string' || input[field] === '') bad(say('{0} must be a non-empty string', field));
  }
  if (!Array.isArray(input.summary) || input.summary.length === 0) bad(say('{0} must be a non-empty array of content blocks', 'summary'));
  else if (input.summary.some((b) => b === null || typeof b !== 'object' || typeof (b as { type?: unknown }).type !== 'string'))
    bad(say('{0} blocks must be objects with a string type', 'summary'));
  if (!isSeq(input.shadowedTokenCount)) bad(say('{0} must be a non-negative safe integer', 'shadowedTokenCount'));
  if (!Number.isSafeInteger(input.time)) bad(say('{0} must be a safe integer (epoch ms)', 'time'));
  if (input.preamble !== undefined && typeof input.preamble !== 'string') bad(say('{0} must be a string', 'preamble'));
  return out;
}

/** Where start and end sit on the surface, or why they cannot be used. */
function spanProblems(log: SessionLog, input: CompactionInput): { reasons: Diagnostic[]; shadowed?: number[] } {
  const nodes = log.surface();
  const startIdx = isSeq(input.start) ? nodes.indexOf(input.start) : -1;
  const endIdx = isSeq(input.end) ? nodes.indexOf(input.end) : -1;
  const reasons: Diagnostic[] = [];
  if (startIdx === -1) reasons.push(notOnSurface(log, input.start, 'start'));
  if (endIdx === -1) reasons.push(notOnSurface(log, input.end, 'end'));
  if (startIdx === -1 || endIdx === -1) return { reasons };
  if (startIdx > endIdx) {
    reasons.push(
      reason(
        'replace.endpoint-order',
        say('start seq {0} (surface index {1}) comes after end seq {2} (surface index {3})', input.start, startIdx, input.end, endIdx),
        log,
        input.start,
      ),
    );
    return { reasons };
  }
  reasons.push(...unbalancedCuts(log, startIdx, endIdx));
  return { reasons, shadowed: nodes.slice(startIdx, endIdx + 1) };
}

/** The four events, seqs from `first` (key order as dsh's compaction plugin writes them). */
function compactionEvents(first: number, input: CompactionInput, shadowed: number[]): SessionEvent[] {
  const { compactionId, time } = input;
  const range = { start: input.start, end: input.end };
  const start: SessionEvent = { type: 'compaction/start', seq: first, time, data: { compactionId, turn: null } };
  const summary: SessionEvent = {
    type: 'compaction/summary',
    seq: first + 1,
    time,
    data: {
      compactionId,
      summary: input.summary,
      shadowedRange: range,
      shadowedSeqs: shadowed,
      shadowedTokenCount: input.shadowedTokenCount,
      provider: input.provider,
      model: input.model,
    },
  };
  const checkpoint: SessionEvent = {
    type: 'user/message',
    seq: first + 2,
    time,
    data: {
      content: [
        { type: 'text', text: `${input.preamble ?? COMPACTION_PREAMBLE}\n\n<compacted-summary>` },
        ...input.summary,
        { type: 'text', text: '</compacted-summary>' },
      ],
      source: { kind: 'plugin', plugin: 'compact', compactionId },
      role: 'user',
      id: input.messageId,
    },
    sourceEventSeqs: [first, first + 1, ...shadowed],
    surfaceOp: { op: 'replace', start: input.start, end: input.end },
  };
  const end: SessionEvent = { type: 'compaction/end', seq: first + 3, time, data: { compactionId, turn: null } };
  return [start, summary, checkpoint, end];
}

/**
 * Plans a manual compaction of the surface span [start..end]. Refused, with every reason, when the
 * span is not on the surface, reversed or cuts a tool call from its result, when a compaction is in
 * progress or a turn is open, or when dsh refuses the log or the append.
 */
export function planCompaction(log: SessionLog, input: CompactionInput): PlanResult {
  const reasons = inputProblems(input);
  const span = spanProblems(log, input);
  reasons.push(...span.reasons);
  const lock = compactionInProgress(log);
  if (lock) reasons.push(lock);
  if (log.lastTurnOpen) {
    reasons.push(
      reason(
        'compaction.turn-open',
        say('a manual compaction runs between turns, but the last turn is open (a live writer or a crash; repair it first)'),
      ),
    );
  }
  const events = compactionEvents(log.eventCount, input, span.shadowed ?? []);
  // Ill-typed inputs cannot be serialized meaningfully; everything else also goes through planAppend.
  if (!reasons.some((r) => r.rule === 'plan.input')) reasons.push(...appendProblems(log, events, reasons));
  if (reasons.length > 0) return { ok: false, reasons };
  return { ok: true, events, lines: events.map(eventLine), notes: [] };
}
