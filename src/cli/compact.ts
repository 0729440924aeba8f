// `session-surface compact FILE --start SEQ --end SEQ --summary-file F [--dry-run]`: a manual compaction
// of the surface span [start..end] with a hand-written summary, planned as dsh's compaction plugin
// writes one and appended through the safe save path.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { compactionEdit } from '../core';
import type { CliCommand } from './registry';
import { UsageError } from './registry';
import { parseCommandArgs } from './args';
import { oneFile, runEdit, seqOption, stringOption, timeOption } from './authoring-common';
import { LIMIT_OPTIONS, readLimits } from './limit-options';

function readSummary(path: string | undefined): string {
  if (path === undefined) throw new UsageError('--summary-file F is required');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the summary file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // A file editor's final newline is not part of the summary.
  text = text.replace(/\r?\n$/, '');
  if (text.trim() === '') throw new UsageError(`the summary file ${path} is empty`);
  return text;
}

export const compactCommand: CliCommand = {
  name: 'compact',
  usage: 'compact FILE --start SEQ --end SEQ --summary-file F [--dry-run] [--allow-replan] [--force]',
  summary:
    'append a manual compaction of the surface span start..end (dry run: print the lines and the verdict); exit 1 with every reason when refused',
  readsLogs: true,
  run(args, io) {
    const { values, operands } = parseCommandArgs(args, {
      start: { type: 'string' },
      end: { type: 'string' },
      'summary-file': { type: 'string' },
      'dry-run': { type: 'boolean' },
      'allow-replan': { type: 'boolean' },
      force: { type: 'boolean' },
      time: { type: 'string' },
      'compaction-id': { type: 'string' },
      'message-id': { type: 'string' },
      ...LIMIT_OPTIONS,
    });
    const file = oneFile(operands);
    const start = seqOption('start', values.start);
    const end = seqOption('end', values.end);
    const summaryText = readSummary(stringOption(values['summary-file']));
    const time = timeOption(values.time);
    const compactionId = stringOption(values['compaction-id']) ?? `manual-${randomUUID()}`;
    const messageId = stringOption(values['message-id']) ?? randomUUID();
    return runEdit(
      {
        file,
        limits: readLimits(values),
        what: 'compaction',
        dryRun: values['dry-run'] === true,
        allowReplan: values['allow-replan'] === true,
        force: values.force === true,
        edit: (log) => compactionEdit(log, { start, end, summaryText, compactionId, messageId, time }),
      },
      io,
    );
  },
};
