#!/usr/bin/env node
// Throughput of `session-surface check DIR` over many logs as the worker count grows.
//
//   node bench/check-many.mjs [--logs 1000] [--events 600] [--runs 3] [--jobs 1,2] [--out bench/out/many]
//
// Writes --logs realistic logs of about --events events each (the shared generator's ScaleLogGenerator,
// one seed per log) under --out, then runs the built CLI (dist/cli.js, built first when missing) over the
// folder once per job count per round, alternating job counts so that machine noise hits them alike.
// Prints the median wall time per job count, logs per second and the speed-up over one job.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { scaleLogText } from '../test/support/log-generator.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    logs: { type: 'string', default: '1000' },
    events: { type: 'string', default: '600' },
    runs: { type: 'string', default: '3' },
    jobs: { type: 'string', default: [...new Set([1, 2, availableParallelism()])].join(',') },
    out: { type: 'string', default: join(root, 'bench', 'out', 'many') },
  },
});
const logs = Number(values.logs);
const events = Number(values.events);
const runs = Number(values.runs);
const jobCounts = values.jobs.split(',').map(Number);
const cli = join(root, 'bin', 'session-surface.js');

function generate() {
  const marker = join(values.out, `.generated-${logs}x${events}`);
  if (existsSync(marker)) return;
  rmSync(values.out, { recursive: true, force: true });
  let bytes = 0;
  for (let i = 0; i < logs; i++) {
    // Ten logs per folder, so the walk sees a tree rather than one flat folder.
    const folder = join(values.out, `batch-${String(Math.floor(i / 10)).padStart(3, '0')}`);
    mkdirSync(folder, { recursive: true });
    const { text } = scaleLogText({
      params: { targetEvents: events, compactEvery: 5, keepTurns: 2, pruneEvery: 3 },
      seed: i + 1,
      name: `many-${i}`,
    });
    writeFileSync(join(folder, `session-${String(i).padStart(4, '0')}.jsonl`), text);
    bytes += text.length;
  }
  writeFileSync(marker, `${bytes}\n`);
  console.log(`wrote ${logs} logs of about ${events} events (${(bytes / 1048576).toFixed(1)} MiB) under ${values.out}`);
}

function timeCheck(jobs) {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [cli, 'check', '--json', '--jobs', String(jobs), values.out], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`check --jobs ${jobs} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  const summary = JSON.parse(run.stdout.trimEnd().split('\n').pop()).summary;
  if (summary.files !== logs || summary.loads !== logs) throw new Error(`check --jobs ${jobs} saw ${JSON.stringify(summary)}`);
  return { ms, cpuMs: summary.cpuSeconds * 1000 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!existsSync(join(root, 'dist', 'cli.js')))
  spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: root });
generate();
const found = readdirSync(values.out, { recursive: true }).filter((name) => String(name).endsWith('.jsonl')).length;
if (found !== logs) throw new Error(`expected ${logs} logs under ${values.out}, found ${found}`);

const times = new Map(jobCounts.map((jobs) => [jobs, []]));
for (let round = 0; round < runs; round++) for (const jobs of jobCounts) times.get(jobs).push(timeCheck(jobs));
const wall = (jobs) => median(times.get(jobs).map((t) => t.ms));
const cpu = (jobs) => median(times.get(jobs).map((t) => t.cpuMs));

// Worker threads only help when cores are idle: the load average says how busy the machine was.
const load = loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');
console.log(`check of ${logs} logs, ${availableParallelism()} cores (load average ${load}), Node ${process.version}, median of ${runs}:`);
// CPU time (all threads of the check process) shows the work the workers add: starting each worker and
// warming its JIT. Wall time is what a user waits; it shrinks only when the machine has idle cores.
const base = wall(jobCounts[0]);
for (const jobs of jobCounts) {
  const ms = wall(jobs);
  console.log(
    `  --jobs ${String(jobs).padEnd(3)} ${(ms / 1000).toFixed(2)} s wall  ${Math.round((logs * 1000) / ms)} logs/s  ×${(base / ms).toFixed(2)} vs --jobs ${jobCounts[0]}` +
      `  (CPU ${(cpu(jobs) / 1000).toFixed(2)} s)`,
  );
}
