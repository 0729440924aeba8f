// The end-to-end tests' log generator: the project's one generator (test/support/log-generator.mjs),
// with the sample sessions' header fields as headerLine's defaults. SessionLogBuilder is its uniform
// turn builder under the name the end-to-end tests know.
import { headerLine as writerHeaderLine, SAMPLE_HEADER } from '../test/support/log-generator.mjs';

export * from '../test/support/log-generator.mjs';
export { TurnLogBuilder as SessionLogBuilder } from '../test/support/log-generator.mjs';

/** A session header line as dsh's writer emits it, with the sample sessions' defaults. */
export function headerLine(fields = {}) {
  return writerHeaderLine({ ...SAMPLE_HEADER, ...fields });
}
