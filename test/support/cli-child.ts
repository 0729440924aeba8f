// The built CLI (dist/cli.js) as a child process that runs while the test goes on: for races with a
// writer in the test process, for a kill at a chosen moment, and under a resource limit (prlimit).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths';

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  exited: Promise<CliExit>;
}

/** True when `name` runs here (a tool the test needs, such as prlimit or zstd). */
export function hasTool(name: string, args = ['--version']): boolean {
  const r = spawnSync(name, args, { stdio: 'ignore' });
  return !r.error;
}

/** `session-surface ARGS…` started now; `prefix` runs it under another command (e.g. prlimit). */
export function startCli(args: string[], options: { prefix?: string[]; env?: NodeJS.ProcessEnv } = {}): RunningCli {
  const cli = join(repoRoot(), 'dist', 'cli.js');
  const command = [...(options.prefix ?? []), process.execPath, cli, ...args];
  const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<CliExit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, exited };
}

export function runCliAsync(args: string[], options: { prefix?: string[] } = {}): Promise<CliExit> {
  return startCli(args, options).exited;
}
