// Generation 4 (dsh 0.1.7 / 0.2.x, what today's dsh writes): its migration from v3, its restore, and
// the closers its writer appends to an open turn. The codec is in codec.ts.
export { createV3ToV4Migration, v3ToV4Migration, V3_TO_V4_NAME } from './migration';
export { restoreV4, restoreV4Generation, v4Restore, v4GenerationRestore } from './restore';
export { v4Closers, V4OpenTurn, type CloseCause } from './closers';
export { assertV4Header } from './header';
export { childCatalogEvidence, type ChildCatalogEvidence } from './child-catalog';
export { assertV4RowAdmission } from './rules/row-admission';
export { RELEASED_V3_EVENT_TYPES, V4_EVENT_TYPES, V4_SURFACE_TYPES } from './vocabulary';
export { TOOL_NOT_STARTED_TEXT } from './rules/tool-calls';
export { liftToolResult } from './tool-role';
export { producerKind } from './message-sources';
export { v4Codec, v4RowAdmission, decodeV4Header, encodeV4Header, encodeV4Event } from './codec';
export { generationV4 } from './generation';
