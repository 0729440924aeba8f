// The append planners in one place: each returns the exact lines dsh's writer would append, or every
// reason the append is refused. Nothing here writes a file. Each planner refuses what is not a loaded
// log or not plain input with a reason, instead of throwing.
import { isSessionLog } from '../read/session-log';
import { badInput } from '../api-guard';
import { notJsonReason } from '../value-text';
import { planCompaction as compaction } from './compaction';
import { planToolResultPrune as prune } from './prune';
import { planRepair as repair } from './repair';
import type { RefusedPlan } from './types';
import { say } from '../words';

export { COMPACTION_PREAMBLE } from './compaction';
export type { CompactionInput } from './compaction';
export type { PruneOptions } from './prune';
export { appendBytes } from './types';
export type { AcceptedPlan, RefusedPlan, PlanResult, RepairPlan } from './types';
export { openCompactionStart } from './checks';

function refused(what: string, value: unknown): RefusedPlan {
  return { ok: false, reasons: [badInput(what, value)] };
}

/** Runs a planner on checked input; a failure no rule anticipated is a refusal too, never an exception. */
function guarded<R>(name: string, run: () => R): R | RefusedPlan {
  try {
    return run();
  } catch (error) {
    return {
      ok: false,
      reasons: [
        {
          severity: 'error',
          rule: 'api.unexpected',
          ...say('{0} could not plan this input: {1}', name, error instanceof Error ? error.message : say('unknown failure')),
        },
      ],
    };
  }
}

export const planCompaction: typeof compaction = (log, input) => {
  if (!isSessionLog(log)) return refused('planCompaction needs a loaded session log', log);
  const why = typeof input === 'object' && input !== null ? notJsonReason(input) : 'not an object';
  if (why !== undefined) return refused(`planCompaction needs plain JSON input (${why})`, input);
  return guarded('planCompaction', () => compaction(log, input));
};

export const planToolResultPrune: typeof prune = (log, seq, newContent, options = {}) => {
  if (!isSessionLog(log)) return refused('planToolResultPrune needs a loaded session log', log);
  // The planner names a wrong seq or a content that is not an array itself; values JSON cannot hold stop here.
  const why = Array.isArray(newContent) ? notJsonReason(newContent) : undefined;
  if (why !== undefined) return refused(`planToolResultPrune needs the new content as plain JSON blocks (${why})`, newContent);
  const optionsWhy = typeof options === 'object' && options !== null ? notJsonReason(options) : undefined;
  if (optionsWhy !== undefined) return refused(`planToolResultPrune options must be plain JSON (${optionsWhy})`, options);
  return guarded('planToolResultPrune', () => prune(log, seq, newContent, options));
};

export const planRepair: typeof repair = (source) => guarded('planRepair', () => repair(source));
export { PendingEdits, rebaseEdit } from './pending-edits';
export type {
  PendingEdit,
  CompactionEdit,
  PruneEdit,
  CloseCompactionEdit,
  PlannedEdit,
  PendingPlan,
  PlanBase,
  PendingEditsBackup,
  EditReference,
  UndoOutcome,
} from './pending-edits';
export {
  compactionEdit,
  pruneEdit,
  defaultPrunedContent,
  summaryBlocks,
  estimateTokensOfSeqs,
  estimateTokensOfText,
  formatSize,
  MANUAL_SUMMARY_ROUTE,
} from './edit-inputs';
export type { CompactionRequest, PruneRequest } from './edit-inputs';
