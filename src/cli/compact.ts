// `session-surface compact FILE --start SEQ --end SEQ --summary-file F [--dry-run]`: a manual compaction
// of the surface span [start..end] with a hand-written summary, planned as dsh's compaction plugin
// writes one and appended through the safe save path.
import { randomUUID } from 'node:crypto';
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { DEFAULT_READ_LIMITS, compactionEdit } from '../core';
import type { CliCommand } from './registry';
import { UsageError } from './registry';
import { parseCommandArgs } from './args';
import { oneFile, runEdit, seqOption, stringOption, timeOption } from './authoring-common';
import { LIMIT_OPTIONS, readLimits } from './limit-options';

/**
 * The summary text: only a regular file is read (a FIFO would wait for a writer, a device such as
 * /dev/zero never ends), and only one that fits in a log line as dsh's reader takes it by default
 * (DEFAULT_READ_LIMITS.maxLineBytes), since the summary is written into one.
 */
function readSummary(path: string | undefined): string {
  if (path === undefined) throw new UsageError('--summary-file F is required');
  const maxBytes = DEFAULT_READ_LIMITS.maxLineBytes;
  let text: string;
  let fd: number | undefined;
  try {
    // O_NONBLOCK: opening a FIFO with no writer must not hang before the type check.
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`the summary file ${path} is not a regular file; write the summary to a file`);
    if (stat.size > maxBytes)
      throw new UsageError(
        `the summary file ${path} has ${stat.size} bytes, more than a log line may hold (${maxBytes} bytes, maxLineBytes)`,
      );
    const bytes = Buffer.alloc(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, null);
      if (n === 0) break;
      filled += n;
    }
    text = bytes.toString('utf8', 0, filled);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the summary file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
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
    const limits = readLimits(values);
    const summaryText = readSummary(stringOption(values['summary-file']));
    const time = timeOption(values.time);
    const compactionId = stringOption(values['compaction-id']) ?? `manual-${randomUUID()}`;
    const messageId = stringOption(values['message-id']) ?? randomUUID();
    return runEdit(
      {
        file,
        limits,
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
