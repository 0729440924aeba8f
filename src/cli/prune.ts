// `session-surface prune FILE --seq SEQ [--content TEXT] [--dry-run]`: rewrite a tool result's content
// (default `[pruned: <size>]`), every other field kept, preceded by its prune record as dsh's pruner
// writes them, appended through the safe save path.
import { pruneEdit } from '../core';
import type { CliCommand } from './registry';
import { parseCommandArgs } from './args';
import { oneFile, runEdit, seqOption, stringOption, timeOption } from './authoring-common';
import { LIMIT_OPTIONS, readLimits } from './limit-options';

export const pruneCommand: CliCommand = {
  name: 'prune',
  usage: 'prune FILE --seq SEQ [--content TEXT] [--dry-run] [--allow-replan] [--force]',
  summary: 'append a prune of the tool/result at SEQ (default content "[pruned: SIZE]"); exit 1 with every reason when refused',
  readsLogs: true,
  run(args, io) {
    const { values, operands } = parseCommandArgs(args, {
      seq: { type: 'string' },
      content: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'allow-replan': { type: 'boolean' },
      force: { type: 'boolean' },
      time: { type: 'string' },
      ...LIMIT_OPTIONS,
    });
    const file = oneFile(operands);
    const seq = seqOption('seq', values.seq);
    const time = timeOption(values.time);
    return runEdit(
      {
        file,
        limits: readLimits(values),
        what: 'prune',
        dryRun: values['dry-run'] === true,
        allowReplan: values['allow-replan'] === true,
        force: values.force === true,
        edit: (log) => pruneEdit(log, { seq, text: stringOption(values.content), time }),
      },
      io,
    );
  },
};
