// `session-surface`: the command-line face of the session core (runs on the system Node 20).
import type { CliCommand, CliIo } from './registry';
import { UsageError } from './registry';
import { FileReadError } from './open-log';
import { checkCommand } from './check';
import { inspectCommand } from './inspect';
import { viewCommands } from './views';
import { compactCommand } from './compact';
import { pruneCommand } from './prune';

const commands: CliCommand[] = [checkCommand, inspectCommand, ...viewCommands, compactCommand, pruneCommand];

function usage(): string {
  return ['usage: session-surface COMMAND [options] FILE…', '', ...commands.map((c) => `  ${c.usage.padEnd(34)} ${c.summary}`)].join('\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    (name === undefined ? io.err : io.out)(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`session-surface: unknown command "${name}"\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`session-surface ${name}: ${error.message}\nusage: session-surface ${command.usage}`);
      return 2;
    }
    if (error instanceof FileReadError) {
      io.err(`session-surface: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

if (require.main === module || process.argv[1]?.endsWith('session-surface.js')) {
  runCli(process.argv.slice(2), { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n') })
    .then((code) => { process.exitCode = code; })
    .catch((error) => { process.stderr.write(`session-surface: internal error: ${error?.stack ?? error}\n`); process.exitCode = 3; });
}
