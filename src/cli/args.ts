// Command-line arguments through node:util's parseArgs: every command declares its options, anything
// else is a usage error (exit 2) with one clear sentence instead of a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './registry';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  /** Every option given, as `--name` (for views that test flags by name). */
  flags: Set<string>;
  operands: string[];
}

/** Parses a command's arguments; `--help`/`-h` is known to every command. */
export function parseCommandArgs(args: string[], options: OptionSpec, { operands = 'FILE' } = {}): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS')) throw error;
    throw new UsageError(firstSentence((error as Error).message));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) throw new HelpRequested();
  const flags = new Set(
    Object.keys(values)
      .filter((name) => values[name] !== undefined && values[name] !== false)
      .map((name) => `--${name}`),
  );
  if (parsed.positionals.length === 0) throw new UsageError(`no ${operands} given`);
  return { values, flags, operands: parsed.positionals };
}

/** A whole number of at least 1 from an option's text, or a usage error naming the option. */
export function positiveInteger(name: string, text: string | boolean | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`--${name} takes a whole number of at least 1, not "${String(text)}"`);
  return value;
}

/** Thrown for `--help`: the command's usage goes to stdout and the exit code is 0. */
export class HelpRequested extends Error {}

function firstSentence(message: string): string {
  const end = message.indexOf('. ');
  return end > 0 ? message.slice(0, end) : message;
}
