// The append planners in one place: each returns the exact lines dsh's writer would append, or every
// reason the append is refused. Nothing here writes a file.
export { planCompaction, COMPACTION_PREAMBLE } from './plan-compaction';
export type { CompactionInput } from './plan-compaction';
export { planToolResultPrune } from './plan-prune';
export type { PruneOptions } from './plan-prune';
export { planRepair } from './plan-repair';
export { appendBytes } from './plan-types';
export type { AcceptedPlan, RefusedPlan, PlanResult, RepairPlan } from './plan-types';
export { openCompactionStart } from './plan-checks';
