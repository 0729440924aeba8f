// Released v0 and v1: their codecs, the v0 → v1 edge, and the validation later edges reuse: the
// disposition table of the 51 released event types, payload rules by version, surface metadata, and
// relationships with extension hooks.
export {
  RELEASED_EVENT_DISPOSITIONS,
  RELEASED_EVENT_TYPES,
  payloadDisposition,
  releasedDisposition,
  type PayloadDisposition,
} from './dispositions';
export { releasedV0Codec, releasedV1Codec, isAssistantChunkRun, type AssistantChunkRun, type ChunkStreamRecord } from './codec';
export {
  assertReleasedHeader,
  assertArtifactCoordinates,
  assertSurfaceMetadata,
  assertEventPayload,
  isAbsoluteCwd,
  type CoordinatePolicy,
} from './validation';
export { assertPayloadSemantics, contentBlocks, contentBlock, messageValue, streamChunk, type MessageSlot } from './payload';
export { assertArtifactRelationships, type RelationshipExtensions } from './relationships';
export { migrationV0ToV1 } from './migration';
export { restoreV1Artifact, restoreV0Artifact, V1_KNOWN_EVENT_TYPES } from './restore';
export { generationV0, generationV1 } from './generations';
