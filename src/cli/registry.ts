// The CLI's commands: each lives in its own file and registers a name, usage line and handler.

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** What the running program knows about itself. */
export interface CliContext {
  /** The CLI bundle's own file, started again as a worker thread by `check --jobs N`; absent when embedded. */
  workerScript?: string;
}

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  /** Reads logs, so it takes the read-limit options (listed in its --help). */
  readsLogs?: boolean;
  /** Returns the exit code: 0 ok, 1 dsh would refuse a file, 2 usage or I/O error. */
  run(args: string[], io: CliIo, context: CliContext): number | Promise<number>;
}

export class UsageError extends Error {}
