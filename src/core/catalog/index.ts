// Finding sessions on disk: dsh's folder layout, what a listing reads from a log's ends, lineage.
export { cwdSlug, projectDirName, sessionDirName, isTranscriptName, transcriptGeneration } from './project-dir';
export { readSessionEnds, sessionState, LIVE_WINDOW_MS, HEAD_BYTES, TAIL_BYTES } from './session-ends';
export type { SessionEnds, SessionState, EndsRefusal, EndsInput } from './session-ends';
export { listFolderLogs, listSessions, readEnds, sortNewestFirst, WHOLE_ZSTD_BYTES } from './list';
export type { CatalogFs, SessionEntry, ListOptions } from './list';
export { buildLineage } from './lineage';
export type { Lineage, LineageNode } from './lineage';
