// The session core's entry point and public API: pure TypeScript, no vscode, no DOM. (This project's own
// layers also import src/core/internal.ts; see its header.)
import type { LoadOptions } from './api';
import { SessionLog } from './read/session-log';
import { asBytes, badInput, safeLoadOptions } from './api-guard';

export * from './types';
export type { LoadOptions, ReadLimits, SessionLogView, ExtendResult, DerivedMessage } from './api';
// What LoadOptions hands in: a UTF-8 decoder (Node's Buffer is faster than TextDecoder) and Node's zstd codec.
export type { Utf8Slicer } from './read/columns';
export type { NativeZstd } from './zstd/backend';
export { DEFAULT_READ_LIMITS } from './api';
export { SessionLog, SurfaceRole, isSessionLog } from './read/session-log';
export type { LineBeyondDamage, StrictSeedVerdict } from './read/session-log';

/** Loads a session log from its (decompressed) bytes, synchronously. Never throws on bad input. */
export function loadSession(bytes: Uint8Array, options: LoadOptions = {}): SessionLog {
  const safe = safeLoadOptions(options);
  const input = asBytes(bytes);
  const log = new SessionLog(input ?? new Uint8Array(0), safe);
  if (!input) log.refuseInput(badInput('loadSession needs the log bytes (a Uint8Array)', bytes));
  log.ingest(Infinity, safe.onProgress);
  return log;
}
export { inspectLog } from './check/inspect';
// Log generations: dsh's format layer (a codec per generation, adjacent migrations, restores).
export type { FormatRead, FormatVerdict, FormatStage } from './format/verdict';
export { CURRENT_FORMAT_VERSION } from './format/generations';
export { generationRelease, type GenerationRelease } from './format/releases';
export type { GenerationEntry, GenerationName } from './format/filename';
// What an event says, for every log generation: its message, content, tool result, derived message.
export { MESSAGE_EVENT_TYPES } from './vocabulary/messages';
// The generations layer's and the vocabulary's entry points, through their guards (public-guards-generations.ts).
export {
  readGeneration,
  currentGeneration,
  listGenerations,
  parseGenerationFileName,
  generationFileName,
  messageOf,
  contentOf,
  toolResultOf,
  toolCallIdsOf,
  derivedMessageOf,
  planCloseCompaction,
} from './public-guards-generations';
export type { ToolResultView } from './vocabulary/messages';
export { valueText, stringText } from './value-text';
// Functions that trust their arguments inside the core, exported through their guards (public-guards.ts).
export {
  jsonText,
  sha256Hex,
  provenanceIndex,
  checkInvariants,
  appendBytes,
  openCompactionStart,
  reviewOpenTurn,
  reviewTornTail,
  printable,
  findRepairsMade,
  repairSeqs,
  openTurnActivity,
  sessionHealth,
  planCrashRepairWrite,
  bytesAfterWrite,
  planTornTailRemoval,
  bytesAfterRemoval,
} from './public-guards';
export { say, type Said, type Words } from './words';
export type { NewEvent, NewSurfaceEvent, NewPlainEvent, PlainEventType, SurfaceEventType, WidenedEvent } from './plan/append-types';
export { serializeEvent, serializeCloser, serializeHeader } from './plan/serialize';
export type { RefusedLine } from './plan/serialize';
export { extendLoadedFile, loadSessionFile, loadSessionFileAsync } from './read/load-file';
export type { LoadedFile, ZstdFollowState, ZstdSummary } from './read/load-file';
// Provenance, relational invariants and append planners (issue 3 items 3–5).
export { ProvenanceIndex } from './provenance/provenance';
export type { AttemptInfo, ProvenanceSummary, Edge, EdgeKind, EdgeHow } from './provenance/provenance';
export { planCompaction, planToolResultPrune, planRepair, COMPACTION_PREAMBLE } from './plan';
export type { CompactionInput, PruneOptions, AcceptedPlan, RefusedPlan, PlanResult, RepairPlan } from './plan';
// A document's edits (planner inputs, each an undo/redo pair, planned again on a changed log, on a fork
// of the loaded log) and their input builders.
export {
  PendingEdits,
  rebaseEdit,
  compactionEdit,
  pruneEdit,
  defaultPrunedContent,
  summaryBlocks,
  estimateTokensOfSeqs,
  estimateTokensOfText,
  formatSize,
  MANUAL_SUMMARY_ROUTE,
} from './plan';
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
  CompactionRequest,
  PruneRequest,
} from './plan';
// Crash review: the open turn and its closers, torn tails, repairs already made, session health.

export type { OpenTurnReview, PendingCall, CloserReview, CloserCode } from './surface/crash-review';

export type { TornTail, TornTailKind, LoadedBytes } from './surface/torn-tail';

export type { RepairMade, RepairedCall } from './surface/repairs-made';
export { STILL_AFTER_MS } from './surface/liveness';
export type { OpenTurnActivity } from './surface/liveness';

export type { SessionHealth, HealthEntry, HealthKind } from './check/session-health';

export type { CrashRepairWrite, CrashRepairWritePlan } from './plan/crash-repair-write';
export { INTERRUPTED_COMPACTION_ERROR } from './plan/close-compaction';
export type { TornTailRemoval, TornTailRemovalPlan } from './plan/torn-tail-removal';
