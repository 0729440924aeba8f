// The unit tests' log builder under its first address: LogBuilder and richLog are part of the project's
// one log generator (log-generator.mjs, types in log-generator.d.mts), which also writes the samples and
// the benchmarks' logs through the same event writer.
export { deriveMessage, headerLine, LogBuilder, MODEL, PROVIDER, richLog } from './log-generator.mjs';
export type { HeaderFields, Json, Rec, ReplacementModel, ToolCallSpec } from './log-generator.mjs';
