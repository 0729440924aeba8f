// The end-to-end tests' log generator: the project's one generator (test/support/log-generator.mjs),
// with the sample sessions' header fields as the defaults.
import { headerLine as writerHeaderLine, SAMPLE_HEADER } from '../test/support/log-generator.mjs';

export { TurnLogBuilder as SessionLogBuilder, writeGeneratedLog } from '../test/support/log-generator.mjs';

/** A session header line as dsh's writer emits it, with the sample sessions' defaults. */
export function headerLine(fields = {}) {
  return writerHeaderLine({ ...SAMPLE_HEADER, ...fields });
}

/** Realistic dsh v4 sessions (format generation 4), for the editor's v4 tests. */
export { scaleV4LogText, V4ScaleLogGenerator } from '../test/support/log-generator-v4.mjs';
