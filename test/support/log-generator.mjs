// The project's one generator of dsh session logs, for the unit tests, the end-to-end tests, the sample
// sessions and the benchmarks. Plain ESM JavaScript with no dependencies, so node scripts run it as is
// and the unit tests bundle it (types in log-generator.d.mts). Everything is deterministic: the same
// arguments give the same bytes.
//
// One writer (log-generator/event-writer.mjs) decides how every line is spelled, and one set of shapes
// (log-generator/shapes.mjs) what the events hold; the builders differ only in what they write:
//   LogBuilder, richLog      hand-shaped v0 logs event by event, with the builder's own account of what
//                            the log means (surface, replacements, derived messages): the unit tests
//   TurnLogBuilder           uniform turns line by line: the committed samples, live and large e2e logs
//   writeGeneratedLog        uniform turns streamed to a file up to an event count or a size
//   ScaleLogGenerator        realistic v0 logs of any size from a seeded PRNG, checked as they are written
//   scaleLogText             one as text; the benchmarks' logs are scaleLogText({ size }) (SCALE_PARAMS)
//   V4ScaleLogGenerator,     the same in dsh's format generation 4 (a forked session)
//   scaleV4LogText
export { EventWriter, expandRow, headerLine, rangeEncoded, verifyWritten } from './log-generator/event-writer.mjs';
export { LogBuilder, MODEL, PROVIDER, richLog } from './log-generator/log-builder.mjs';
export { deriveMessage } from './log-generator/log-model.mjs';
export { prng } from './log-generator/prose.mjs';
export { SCALE_PARAMS, ScaleLogGenerator, scaleLogText } from './log-generator/scale-v0.mjs';
export { V4ScaleLogGenerator, scaleV4LogText } from './log-generator/scale-v4.mjs';
export { SAMPLE_HEADER, TurnLogBuilder, writeGeneratedLog } from './log-generator/turn-builder.mjs';
// For scripts that write events of their own (e2e/timeline-samples.mjs): the shapes and the routes.
export * as shape from './log-generator/shapes.mjs';
export { CHECKPOINT_OPENING, DSH_ROUTE, TEST_ROUTE } from './log-generator/dsh-material.mjs';
