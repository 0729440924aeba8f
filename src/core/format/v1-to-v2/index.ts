// Released v2: its codec (one event per row, `isSeeded`, range-encoded `sourceEventSeqs`), the v1 → v2
// edge (assistant chunks folded into streams, dense renumbering, legacy repairs), its restore.
export { v2Codec, V2RowDecoder, encodeV2Event } from './v2-codec';
export { assertV2Header, decodeV2Header, encodeV2Header, orderedHeader } from './v2-header';
export { readSourceSpans, expandSourceSpans, encodeSourceSeqs, type SourceSpans } from './source-ranges';
export { AttemptStreamBuilder, type StreamRecord } from './attempt-stream';
export { v1ToV2Migration } from './v1-to-v2-migration';
export { restoreV2Artifact, V2_RELATIONSHIP_EXTENSIONS } from './v2-restore';
export { V2_EVENT_DISPOSITIONS, V2_SURFACE_TYPES, isV2EventType } from './v2-vocabulary';
export { objectAt, requireExactFields } from './v2-checks';
export { generationV2 } from './generation';
