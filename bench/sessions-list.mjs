#!/usr/bin/env node
// Lists a generated dsh sessions folder the way the Sessions view does (folders walked, each log's two
// ends read, 16 at a time) and prints how long it took. Target: 1,000 sessions in under 2 s.
//
//   node bench/sessions-list.mjs [--count 1000] [--runs 3] [--dir bench/out/sessions-list]
//
// The folder is generated once per count (20 project folders; every 4th log zstd, every 10th with an
// open final turn, every 25th a subagent child) and kept. Runs follow each other in one process, so
// after the first the page cache is warm (as for a user who opens the view a second time).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { join } from 'node:path';
import { catalogCore, writeMany } from '../e2e/sessions-folder-generator.mjs';
import { option, root } from './bench-setup.mjs';

const COUNT = Number(option('--count', '1000'));
const RUNS = Number(option('--runs', '3'));
const DIR = option('--dir', join(root, 'bench', 'out', 'sessions-list'));
const SESSIONS = join(DIR, `sessions-${COUNT}`);

const nodeFs = {
  async list(dir) {
    try {
      return (await fsp.readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
    } catch {
      return [];
    }
  },
  async stat(file) {
    try {
      const s = await fsp.stat(file);
      return { size: s.size, mtimeMs: s.mtimeMs };
    } catch {
      return undefined;
    }
  },
  async read(file, start, end) {
    const handle = await fsp.open(file, 'r');
    try {
      const buf = new Uint8Array(Math.max(0, end - start));
      const { bytesRead } = await handle.read(buf, 0, buf.length, start);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  },
  child: (dir, name) => join(dir, name),
};

const core = await catalogCore(DIR);
const countLogs = () => readdirSync(SESSIONS).reduce((n, p) => n + readdirSync(join(SESSIONS, p)).length, 0);
if (!existsSync(SESSIONS) || countLogs() !== COUNT) {
  rmSync(SESSIONS, { recursive: true, force: true });
  const started = Date.now();
  await writeMany(SESSIONS, COUNT, DIR);
  console.log(`generated ${COUNT} sessions in ${SESSIONS} (${Date.now() - started} ms)`);
}

const times = [];
let entries = [];
for (let run = 0; run < RUNS; run++) {
  let firstBatchMs;
  const started = performance.now();
  entries = await core.listSessions(nodeFs, SESSIONS, {
    onBatch: () => {
      firstBatchMs ??= performance.now() - started;
    },
  });
  const ms = performance.now() - started;
  times.push(ms);
  console.log(
    `run ${run + 1}: listed ${entries.length} sessions in ${ms.toFixed(0)} ms (first batch after ${firstBatchMs?.toFixed(0)} ms)`,
  );
}
const states = entries.reduce((acc, e) => ({ ...acc, [e.state]: (acc[e.state] ?? 0) + 1 }), {});
const children = core.buildLineage(entries.map((e) => ({ id: e.id, parentSession: e.header?.parentSession }))).children;
const sorted = [...times].sort((a, b) => a - b);
console.log(`states: ${JSON.stringify(states)}; ${[...children.values()].flat().length} child sessions under their parents`);
console.log(
  `sessions-list: ${COUNT} sessions, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms over ${RUNS} runs (target < 2000 ms)`,
);
