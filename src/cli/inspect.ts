// `session-surface inspect --json FILE…`: one JSON object per file per line, with the fields of the
// conformance corpus's expected.json files.
import type { CliCommand } from './registry';
import { UsageError } from './registry';
import { parseCommandArgs } from './args';
import { openLog } from './open-log';
import { inspectLog } from '../core';

export const inspectCommand: CliCommand = {
  name: 'inspect',
  usage: 'inspect --json FILE…',
  summary: "print dsh's verdict and the surface projections as JSON lines",
  run(args, io) {
    const { values, operands: files } = parseCommandArgs(args, { json: { type: 'boolean' } });
    if (!values.json) throw new UsageError('inspect prints JSON only: pass --json');
    let refused = false;
    for (const file of files) {
      const { log, zstd } = openLog(file);
      const projection = inspectLog(log);
      if (!log.verdict.ok) refused = true;
      io.out(JSON.stringify({ file, ...(zstd ? { zstd } : {}), ...projection }));
    }
    return refused ? 1 : 0;
  },
};
