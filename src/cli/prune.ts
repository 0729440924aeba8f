// `session-surface prune FILE --seq SEQ [--content TEXT] [--dry-run]`: rewrite a tool result's content
// (default `[pruned: <size>]`), every other field kept, preceded by its prune record as dsh's pruner
// writes them, appended through the safe save path.
import { parseArgs } from 'node:util';
import { pruneEdit } from '../core';
import type { CliCommand } from './registry';
import { UsageError } from './registry';
import { oneFile, runEdit, seqOption, timeOption } from './authoring-common';
import { LIMIT_OPTIONS, readLimits } from './limit-options';

export const pruneCommand: CliCommand = {
  name: 'prune',
  usage: 'prune FILE --seq SEQ [--content TEXT] [--dry-run] [--allow-replan]',
  summary: 'append a prune of the tool/result at SEQ (default content "[pruned: SIZE]"); exit 1 with every reason when refused',
  readsLogs: true,
  run(args, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        options: {
          seq: { type: 'string' },
          content: { type: 'string' },
          'dry-run': { type: 'boolean' },
          'allow-replan': { type: 'boolean' },
          time: { type: 'string' },
          ...LIMIT_OPTIONS,
        },
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const { values, positionals } = parsed;
    const file = oneFile(positionals);
    const seq = seqOption('seq', values.seq);
    const time = timeOption(values.time);
    return runEdit({
      file,
      limits: readLimits(values),
      what: 'prune',
      dryRun: values['dry-run'] === true,
      allowReplan: values['allow-replan'] === true,
      edit: (log) => pruneEdit(log, { seq, text: values.content, time }),
    }, io);
  },
};
