// Types of log-generator-v4.mjs (the v4 names of the one log generator, log-generator.d.mts).
export { V4ScaleLogGenerator, scaleV4LogText, type V4ScaleStats } from './log-generator.mjs';
