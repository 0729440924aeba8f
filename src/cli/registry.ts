// The CLI's commands: each lives in its own file and registers a name, usage line and handler.

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  /** Returns the exit code: 0 ok, 1 dsh would refuse a file, 2 usage or I/O error. */
  run(args: string[], io: CliIo): number | Promise<number>;
}

export class UsageError extends Error {}

/** Splits `--flag` options from file arguments; unknown flags are usage errors. */
export function parseArgs(args: string[], flags: readonly string[]): { flags: Set<string>; files: string[] } {
  const set = new Set<string>();
  const files: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('--')) {
      if (!flags.includes(arg)) throw new UsageError(`unknown option ${arg}`);
      set.add(arg);
    } else files.push(arg);
  }
  if (files.length === 0) throw new UsageError('no FILE given');
  return { flags: set, files };
}
