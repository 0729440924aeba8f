// The v4 generator's first address, kept for the tests that import it from here; it lives in the
// project's one log generator (log-generator.mjs).
export { V4ScaleLogGenerator, scaleV4LogText } from './log-generator.mjs';
