// `session-surface inspect --json FILE…`: one JSON object per file per line, with the fields of the
// conformance corpus's expected.json files.
import type { CliCommand } from './registry';
import { UsageError } from './registry';
import { parseCommandArgs } from './args';
import { FileReadError, openLog } from './open-log';
import { LIMIT_OPTIONS, readLimits } from './limit-options';
import { inspectLog } from '../core';
import { jsonText } from '../core/value-text';

export const inspectCommand: CliCommand = {
  name: 'inspect',
  usage: 'inspect --json FILE…',
  summary: "print dsh's verdict and the surface projections as JSON lines",
  readsLogs: true,
  run(args, io) {
    const { values, operands: files } = parseCommandArgs(args, { json: { type: 'boolean' }, ...LIMIT_OPTIONS });
    const limits = readLimits(values);
    if (!values.json) throw new UsageError('inspect prints JSON only: pass --json');
    let refused = false;
    let unreadable = false;
    for (const file of files) {
      let loaded;
      try {
        loaded = openLog(file, { limits });
      } catch (error) {
        // One file that cannot be read does not end the run: it gets its own line (on stderr).
        if (!(error instanceof FileReadError)) throw error;
        unreadable = true;
        io.err(error.message);
        continue;
      }
      const { log, zstd } = loaded;
      const projection = inspectLog(log);
      if (!log.verdict.ok) refused = true;
      io.out(jsonText({ file, ...(zstd ? { zstd } : {}), ...projection }));
    }
    return unreadable ? 2 : refused ? 1 : 0;
  },
};
