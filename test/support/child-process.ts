// Runs the built CLI, or a script against the bundled core, in a child process and reports its exit
// code, output, wall time and peak resident memory: what a user running the command would see.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from './paths';

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident set size of the child, MiB. */
  maxRssMiB: number;
}

const REPORT_RSS = "process.on('exit',()=>process.stderr.write('\\n@maxrss '+process.resourceUsage().maxRSS+'\\n'));";

function run(args: string[], timeoutMs: number): ChildRun {
  const started = Date.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  const ms = Date.now() - started;
  const match = /\n@maxrss (\d+)\n$/.exec(r.stderr ?? '');
  return {
    code: r.status,
    stdout: r.stdout ?? '',
    stderr: (r.stderr ?? '').replace(/\n@maxrss \d+\n$/, ''),
    ms,
    maxRssMiB: match ? Number(match[1]) / 1024 : NaN,
  };
}

/** `bin/session-surface.js ARGS…` as a child process (the CLI bundle must be built). */
export function runCliChild(args: string[], timeoutMs = 120_000): ChildRun {
  const bin = join(repoRoot(), 'bin', 'session-surface.js');
  const code = `${REPORT_RSS}process.argv=[process.argv[0],${JSON.stringify(bin)},...${JSON.stringify(args)}];require(${JSON.stringify(bin)});`;
  return run(['-e', code], timeoutMs);
}

let coreBundle: string | undefined;

/** The core bundled to one CommonJS file (once per test run), for child scripts to require. */
export function bundledCore(): string {
  if (coreBundle && existsSync(coreBundle)) return coreBundle;
  const dir = mkdtempSync(join(tmpdir(), 'core-bundle-'));
  const entry = join(dir, 'entry.ts');
  const root = repoRoot();
  writeFileSync(
    entry,
    `export * from ${JSON.stringify(resolve(root, 'src/core/index.ts'))};\nexport * from ${JSON.stringify(resolve(root, 'src/core/zstd/index.ts'))};\n`,
  );
  const out = join(dir, 'core.cjs');
  // esbuild's CLI: the test bundle keeps esbuild itself out of the build.
  const r = spawnSync(
    join(root, 'node_modules', '.bin', 'esbuild'),
    [entry, '--bundle', '--platform=node', '--format=cjs', `--outfile=${out}`, '--log-level=error'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`bundling the core failed: ${r.stderr}`);
  coreBundle = out;
  return out;
}

/** Runs `body` (JavaScript with `core` in scope; it prints its result as JSON) in a child process. */
export function runCoreChild(body: string, timeoutMs = 120_000): ChildRun & { result: any } {
  const code = `${REPORT_RSS}const core=require(${JSON.stringify(bundledCore())});const fs=require('node:fs');${body}`;
  const r = run(['-e', code], timeoutMs);
  let result: unknown;
  try {
    result = JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
  } catch {
    result = undefined;
  }
  return { ...r, result };
}
