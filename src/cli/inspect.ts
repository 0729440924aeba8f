// `session-surface inspect --json FILE…`: one JSON object per file per line, with the fields of the
// conformance corpus's expected.json files.
import type { CliCommand } from './registry';
import { UsageError } from './registry';
import { parseCommandArgs } from './args';
import { LIMIT_OPTIONS, readLimits } from './limit-options';
import { forEachLog } from './each-log';
import { inspectLog } from '../core';
import { jsonText } from '../core/internal';

export const inspectCommand: CliCommand = {
  name: 'inspect',
  usage: 'inspect --json [--forms] FILE…',
  summary:
    "print dsh's verdict, the log's format and today's dsh's upgrade verdict, and the surface projections as JSON lines (--forms: also the verdict of migrating to each generation between the file's and today's)",
  readsLogs: true,
  run(args, io) {
    const { values, operands: files } = parseCommandArgs(args, { json: { type: 'boolean' }, forms: { type: 'boolean' }, ...LIMIT_OPTIONS });
    if (!values.json) throw new UsageError('inspect prints JSON only: pass --json');
    return forEachLog(files, readLimits(values), io, (file, { log, zstd }) => {
      io.out(jsonText({ file, ...(zstd ? { zstd } : {}), ...inspectLog(log, { forms: values.forms === true }) }));
    });
  },
};
