// The core's second entry, for this project's own layers (the CLI, the host, the write layer and the
// presentation layer), never for library callers and never for the webview or the protocol. Lint allows
// code outside src/core to import the core only from its public index (src/core/index.ts) and from here.
//
// The index is the library API: every function in it takes whatever it is handed and answers with a
// result or a typed refusal, never an exception (public-guards*.ts). The app takes from the index
// everything the index offers unchanged, and the guarded functions whose guard changes nothing for the
// values the app hands in (a loaded log, numbers). It takes from here only:
//   - the unguarded functions whose guard would change what the app does: `jsonText` writes the CLI's
//     views of whole logs, past the bounds the guarded one checks; the crash reviews and repair plans
//     would turn a failure of the core into "nothing to repair" (the app wants it to surface) and copy
//     the bytes the host made into plain views;
//   - what the public API does not hold: the zstd container, the sessions folder (catalog), reading a
//     file through a source of ranges, a verdict's words, seq ranges as text.
export { jsonText } from './json-text';
export { formatSeqRanges } from './provenance/seq-ranges';
export { verdictError } from './read/verdict';
export { loadSessionFileFrom, type FileSource } from './read/load-file';
export { decodeZstdLog, encodeZstdFrame, isZstd, asNativeZstd } from './zstd';
export { buildLineage, listFolderLogs, listSessions, isTranscriptName, projectDirName, transcriptGeneration } from './catalog';
export type { CatalogFs, Lineage, SessionEntry, SessionState } from './catalog';
// Crash review and repair, unguarded (see above).
export { reviewOpenTurn } from './surface/crash-review';
export { reviewTornTail } from './surface/torn-tail';
export { sessionHealth } from './check/session-health';
export { planCrashRepairWrite } from './plan/crash-repair-write';
export { planTornTailRemoval } from './plan/torn-tail-removal';
