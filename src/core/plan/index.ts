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
