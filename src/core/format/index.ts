// The generations layer: every dsh log format read through one codec per generation and adjacent
// migrations (v0 → v1 → v2 → v3 → v4), with dsh's verdict.
export * from './types';
export { SessionFormatError, SessionFormatUnsupportedMigrationError } from './errors';
export * from './json';
export * from './filename';
export { MigrationChain, migrationRefusal, refusingMigration, type MigrationStream } from './chain';
export { PhysicalRefusal, openPhysicalLog, type PhysicalLog, type PhysicalOptions } from './physical';
export { encodeArtifact, type EncodedGeneration, type EncodeOptions } from './encode';
export { holdingArtifact, restoreWhole } from './restore-visit';
export { CURRENT_FORMAT_VERSION, FORMAT_GENERATIONS, findGeneration, newestRegisteredVersion } from './generations';
export {
  readGeneration,
  readFormatHeader,
  type FormatHeaderReading,
  type FormatStage,
  type FormatVerdict,
  type FormatRead,
  type EventPlace,
  type DecodedEventCallback,
  type ReadGenerationOptions,
} from './catalog';
