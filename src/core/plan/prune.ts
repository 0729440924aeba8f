// Plans a tool-result prune the way dsh's compaction-tool-result-pruner writes one (spec §6.4):
// compaction/prune pricing the node, then a tool/result that rewrites only the inner result content
// of the original (same message id, turn, step, error, meta), replacing exactly that node.
import type { Diagnostic, SessionEvent } from '../types';
import type { SessionLog } from '../read/session-log';
import { eventLine } from './serialize';
import type { PlanResult } from './types';
import { appendProblems, compactionInProgress, lastTime, notOnSurface, reason } from './checks';
import { isSeq, jsonEqual } from '../read/json-values';
import { cloneJson, jsonText } from '../value-text';
import { say } from '../words';

export interface PruneOptions {
  /**
   * The original result's token price. dsh's pruner measures it with its token meter; without one we
   * estimate a token per 4 bytes of the JSON of the content being removed.
   */
  shadowedTokenCount?: number;
  /** Epoch ms for both events; defaults to the last event's time. */
  time?: number;
}

function estimateTokens(content: unknown): number {
  return Math.ceil(new TextEncoder().encode(content === undefined ? '' : jsonText(content)).length / 4);
}

/** The original with only message.content[0].content replaced; a JSON copy keeps every key's order. */
function rewrite(original: SessionEvent, newContent: unknown[]): unknown {
  const data = cloneJson(original.data);
  data.message.content[0].content = newContent;
  return data;
}

function targetProblems(log: SessionLog, seq: number, newContent: unknown): { reasons: Diagnostic[]; original?: SessionEvent } {
  const reasons: Diagnostic[] = [];
  if (!Array.isArray(newContent)) reasons.push(reason('plan.input', say('the new content must be an array of content blocks')));
  if (!isSeq(seq) || seq >= log.eventCount) {
    reasons.push(reason('prune.not-tool-result', say('seq {0} is not an event of this log (it has seqs 0–{1})', seq, log.eventCount - 1)));
    return { reasons };
  }
  const type = log.eventType(seq);
  if (type !== 'tool/result') {
    reasons.push(reason('prune.not-tool-result', say('seq {0} is a {1}, not a tool/result', seq, String(type)), log, seq));
    return { reasons };
  }
  if (!log.surface().includes(seq)) reasons.push(notOnSurface(log, seq, 'tool/result'));
  const original = log.event(seq);
  const block = original?.data?.message?.content?.[0];
  if (!block || !Array.isArray(block.content)) {
    reasons.push(reason('prune.not-tool-result', say('tool/result seq {0} has no tool-result block to rewrite', seq), log, seq));
    return { reasons };
  }
  if (Array.isArray(newContent) && jsonEqual(block.content, newContent)) {
    reasons.push(
      reason(
        'prune.unchanged',
        say('the new content of tool/result seq {0} equals its current content; the prune would change nothing', seq),
        log,
        seq,
      ),
    );
  }
  return { reasons, original };
}

/**
 * Plans pruning the tool/result at `seq` down to `newContent` (its inner tool-result content).
 * Refused, with every reason, when seq is not a tool/result on the current surface, the content is
 * not an array or unchanged, a compaction is in progress, or dsh refuses the log or the append.
 */
export function planToolResultPrune(log: SessionLog, seq: number, newContent: unknown[], options: PruneOptions = {}): PlanResult {
  const { reasons, original } = targetProblems(log, seq, newContent);
  const lock = compactionInProgress(log);
  if (lock) reasons.push(lock);
  const time = options.time ?? lastTime(log);
  const tokens = options.shadowedTokenCount ?? estimateTokens(original?.data?.message?.content?.[0]?.content);
  if (!Number.isSafeInteger(time)) reasons.push(reason('plan.input', say('{0} must be a safe integer (epoch ms)', 'time')));
  if (!isSeq(tokens)) reasons.push(reason('plan.input', say('{0} must be a non-negative safe integer', 'shadowedTokenCount')));
  if (!original || reasons.some((r) => r.rule === 'plan.input' || r.rule === 'prune.not-tool-result')) return { ok: false, reasons };
  const first = log.eventCount;
  const events: SessionEvent[] = [
    {
      type: 'compaction/prune',
      seq: first,
      time,
      data: { shadowedRange: { start: seq, end: seq }, shadowedSeqs: [seq], shadowedTokenCount: tokens },
    },
    {
      type: 'tool/result',
      seq: first + 1,
      time,
      data: rewrite(original, newContent),
      sourceEventSeqs: [seq],
      surfaceOp: { op: 'replace', start: seq, end: seq },
    },
  ];
  reasons.push(...appendProblems(log, events, reasons));
  if (reasons.length > 0) return { ok: false, reasons };
  const notes: Diagnostic[] = [];
  if (!log.lastTurnOpen) {
    notes.push({
      severity: 'warning',
      rule: 'invariant.turn-scope',
      ...say(
        "the prune lands between turns: dsh loads it, but dsh's pruner rewrites results inside a turn and its invariant companion flags a replacement tool/result outside one",
      ),
      seq: first + 1,
    });
  }
  return { ok: true, events, lines: events.map(eventLine), notes };
}
