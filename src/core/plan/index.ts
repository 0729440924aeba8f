// The append planners in one place: each returns the exact lines dsh's writer would append, or every
// reason the append is refused. Nothing here writes a file.
export { planCompaction, COMPACTION_PREAMBLE } from './compaction';
export type { CompactionInput } from './compaction';
export { planToolResultPrune } from './prune';
export type { PruneOptions } from './prune';
export { planRepair } from './repair';
export { appendBytes } from './types';
export type { AcceptedPlan, RefusedPlan, PlanResult, RepairPlan } from './types';
export { openCompactionStart } from './checks';
export { PendingEdits, rebaseEdit } from './pending-edits';
export type { PendingEdit, CompactionEdit, PruneEdit, PlannedEdit, PendingPlan, PlanBase, PendingEditsBackup } from './pending-edits';
export { compactionEdit, pruneEdit, defaultPrunedContent, summaryBlocks, estimateTokensOfSeqs, estimateTokensOfText, formatSize, MANUAL_SUMMARY_ROUTE } from './edit-inputs';
export type { CompactionRequest, PruneRequest } from './edit-inputs';
