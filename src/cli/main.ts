// `session-surface`: the command-line face of the session core (runs on the system Node 20).
import type { CliCommand, CliContext, CliIo } from './registry';
import { UsageError } from './registry';
import { HelpRequested } from './args';
import { FileReadError } from './open-log';
import { WriteRefused } from '../files/write-refusal';
import { checkCommand } from './check';
import { isCheckWorker, serveCheckWorker } from './check-pool';
import { inspectCommand } from './inspect';
import { viewCommands } from './views';
import { compactCommand } from './compact';
import { pruneCommand } from './prune';
import { LIMITS_HELP } from './limit-options';
import { terminalSafe } from '../present/text';
// Only the version is bundled from package.json (esbuild keeps the JSON fields that are imported).
import { version } from '../../package.json';

const commands: CliCommand[] = [checkCommand, inspectCommand, ...viewCommands, compactCommand, pruneCommand];

function usage(): string {
  return [
    'usage: session-surface COMMAND [options] FILE…',
    '',
    ...commands.map((c) => `  ${c.usage.padEnd(38)} ${c.summary}`),
    '',
    `Every command takes ${LIMITS_HELP}.`,
    'session-surface COMMAND --help describes one command; session-surface --version prints the version.',
  ].join('\n');
}

/**
 * Every line a command prints goes through `terminalSafe`: log text, file names and the user's own
 * arguments reach the terminal with their control characters made visible (JSON lines stay valid JSON).
 * Our own multi-line texts are printed a line at a time (`lines`), so no newline is ever printed raw.
 */
function terminalIo(io: CliIo): CliIo {
  return { out: (line) => io.out(terminalSafe(line)), err: (line) => io.err(terminalSafe(line)) };
}

function lines(write: (line: string) => void, ...texts: string[]): void {
  for (const text of texts) for (const line of text.split('\n')) write(line);
}

export async function runCli(argv: string[], outerIo: CliIo, context: CliContext = {}): Promise<number> {
  const io = terminalIo(outerIo);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    lines(name === undefined ? io.err : io.out, usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    io.out(`session-surface ${version}`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`session-surface: unknown command "${name}"`);
    lines(io.err, usage());
    return 2;
  }
  try {
    return await command.run(rest, io, context);
  } catch (error) {
    if (error instanceof HelpRequested) {
      lines(io.out, `usage: session-surface ${command.usage}`, `  ${command.summary}`, ...(command.readsLogs ? [`  ${LIMITS_HELP}`] : []));
      return 0;
    }
    if (error instanceof UsageError) {
      io.err(`session-surface ${name}: ${error.message}`);
      io.err(`usage: session-surface ${command.usage}`);
      return 2;
    }
    if (error instanceof FileReadError) {
      io.err(`session-surface: ${error.message}`);
      return 2;
    }
    if (error instanceof WriteRefused) {
      io.err(`session-surface ${name}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/** The program: runs the command line, or serves as a `check` worker thread when started as one. */
export function main(): void {
  if (isCheckWorker()) return serveCheckWorker();
  const io: CliIo = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n') };
  // A reader that stops early (`| head`) closes the pipe: that ends the output, it is no error of ours.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  runCli(process.argv.slice(2), io, { workerScript: __filename })
    .then((code) => {
      process.exitCode = code;
    })
    .catch((error) => {
      // One line, never a stack trace: the name and message say what went wrong.
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      process.stderr.write(`session-surface: internal error: ${terminalSafe(text.split('\n', 1)[0])}\n`);
      process.exitCode = 3;
    });
}

// `node dist/cli.js …` and worker threads load the bundle directly; bin/session-surface.js calls main().
if (require.main === module || isCheckWorker()) main();
