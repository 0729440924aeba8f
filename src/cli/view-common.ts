// What every view command shares: open each FILE, say whether dsh loads it, print the view as text
// or (with --json) as one JSON object per file per line. A view is shown even for a log dsh refuses,
// as far as it could be read; the exit code is 1 when dsh would refuse any file.
import type { CliCommand, CliIo } from './registry';
import { parseCommandArgs, type OptionSpec } from './args';
import { LIMIT_OPTIONS, readLimits } from './limit-options';
import { forEachLog } from './each-log';
import type { SessionLog, LoadedFile } from '../core';
import { jsonText } from '../core/internal';
import { countOf } from './english';

export interface ViewContext {
  file: string;
  log: SessionLog;
  /** The file as loaded (a zstd container's facts besides the log). */
  loaded: LoadedFile;
  flags: Set<string>;
}

export interface ViewSpec {
  name: string;
  usage: string;
  summary: string;
  /** Boolean flags besides --json, by name without the dashes. */
  flags?: string[];
  text(context: ViewContext, out: (line: string) => void): void;
  json(context: ViewContext): Record<string, unknown>;
}

/** The one-line verdict heading a text view. */
export function verdictLine(file: string, log: SessionLog): string {
  const verdict = log.verdict;
  if (verdict.ok) return `${file}: loads (${countOf(log.eventCount, 'event', 'events')}${log.lastTurnOpen ? ', last turn open' : ''})`;
  return `${file}: REFUSED by dsh at stage ${verdict.stage}: ${verdict.error ?? verdict.dshError} — shown as far as it can be read`;
}

export function defineView(spec: ViewSpec): CliCommand {
  return {
    name: spec.name,
    usage: spec.usage,
    summary: spec.summary,
    readsLogs: true,
    run(args: string[], io: CliIo): number {
      const options: OptionSpec = { json: { type: 'boolean' }, ...LIMIT_OPTIONS };
      for (const flag of spec.flags ?? []) options[flag] = { type: 'boolean' };
      const { values, flags, operands: files } = parseCommandArgs(args, options);
      return forEachLog(files, readLimits(values), io, (file, loaded) => {
        const { log } = loaded;
        const context = { file, log, loaded, flags };
        if (flags.has('--json')) {
          io.out(jsonLine(file, log, () => spec.json(context)));
        } else {
          io.out(verdictLine(file, log));
          spec.text(context, io.out);
        }
      });
    },
  };
}

/**
 * The view as one JSON line. Log values are printed as the log holds them; one nested deeper than the
 * engine can serialise becomes an error field for this file instead of ending the run.
 */
function jsonLine(file: string, log: SessionLog, view: () => Record<string, unknown>): string {
  try {
    return jsonText({ file, verdict: log.verdict, ...view() });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return JSON.stringify({ file, verdict: log.verdict, error: 'a value in this log is nested too deeply to print as JSON' });
  }
}
