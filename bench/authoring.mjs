#!/usr/bin/env node
// Authoring a compaction in the session editor, on the 300k-event log: what the editor does when the
// user runs Compact Range, looks at the preview, applies it and saves. Two ways, each step timed, and
// the peak memory of the whole sequence:
//
//   plain     how the editor did it before the document owned its edits: every list of nodes, preview,
//             refresh and save of several edits read the file again and parsed it into a fresh
//             SessionLog (a copy to plan on), and the save layer did the same for a second edit
//   document  the session document's own edits (src/host/authoring/document-edits.ts, run with a
//             stand-in for the vscode module): planning folds the pending events into a fork of the
//             loaded log (nothing read or parsed again); Save reads only what was appended since the load
//
// Two scenarios: `one` (a compaction on a clean document) and `second` (a compaction while one is
// already pending, the case where the plain way parsed the whole log four times before Save). Steps:
//   prepare   the log as the user sees it (loaded log plus pending events), for the quick picks
//   preview   the plan and its preview text (derived messages and tokens before and after)
//   apply     the edit becomes pending: every pending edit is planned again for the pending rows
//   save      the pending edits appended to a copy of the log (identity check, plan, write, read back)
//
// Every run is a fresh process (no JIT or heap carried over), started with --expose-gc. Time: wall ms
// per step, and the CPU ms of the whole sequence (all threads, the garbage collector's too; a busy
// machine disturbs it less). Memory: the peak RSS of the process during the sequence (Linux: the
// high-water mark is reset once the log is loaded), and that peak above the RSS of the loaded document.
//
//   node bench/authoring.mjs [--file bench/out/scale-300k.jsonl] [--runs 3] [--json bench/out/authoring.json]
//                            [--modes plain,document] [--scenarios one,second]
//
// Without the file, it runs `node bench/generate.mjs --sizes 300k --no-zstd` first.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleModules, ensureGenerated, option, root } from './bench-setup.mjs';

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const MODES = option('--modes', 'plain,document').split(',');
const SCENARIOS = option('--scenarios', 'one,second').split(',');
const STEPS = ['prepare', 'preview', 'apply', 'save'];

if (argv[0] === '--worker') await worker(argv[1], argv[2], argv[3]);
else await main();

// ------------------------------------------------------------------------------------------- parent
async function main() {
  const file = option('--file', join(root, 'bench', 'out', 'scale-300k.jsonl'));
  const runs = Math.max(1, Number(option('--runs', '3')));
  const jsonOut = option('--json', join(root, 'bench', 'out', 'authoring.json'));
  ensureGenerated(file, ['--sizes', '300k', '--no-zstd']);
  await modules(); // bundled once here, loaded by every worker
  const copy = `${file}.authoring-copy`;
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const results = { file, runs, rows: [] };
  console.log(`${file}: ${runs} run(s) of each, median; each run a fresh process on a fresh copy of the log`);
  console.log(
    ['scenario', 'mode', ...STEPS.map((s) => `${s} ms`), 'total ms', 'CPU ms', 'peak RSS MiB', 'peak above loaded MiB'].join('\t'),
  );
  for (const scenario of SCENARIOS) {
    for (const mode of MODES) {
      const all = [];
      for (let i = 0; i < runs; i++) {
        copyFileSync(file, copy);
        const r = spawnSync(process.execPath, ['--expose-gc', self, '--worker', mode, scenario, copy], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`${mode} ${scenario} failed (${r.status}): ${r.stderr}`);
        all.push(JSON.parse(r.stdout.trim().split('\n').pop()));
      }
      rmSync(copy, { force: true });
      const row = { scenario, mode, events: all[0].events, appended: all[0].appended };
      for (const key of [...STEPS, 'total', 'cpuMs', 'peakRss', 'peakAboveLoaded', 'loadedRss']) row[key] = median(all.map((r) => r[key]));
      results.rows.push(row);
      const mib = (b) => (b / 2 ** 20).toFixed(0);
      console.log(
        [
          scenario,
          mode,
          ...STEPS.map((s) => row[s].toFixed(0)),
          row.total.toFixed(0),
          row.cpuMs.toFixed(0),
          mib(row.peakRss),
          mib(row.peakAboveLoaded),
        ].join('\t'),
      );
    }
  }
  writeFileSync(jsonOut, JSON.stringify(results, null, 1) + '\n');
  console.log(`wrote ${jsonOut}`);
}

function modules() {
  return bundleModules(
    'authoring',
    [
      "export * from './src/core/index.ts';",
      "export { saveEdits } from './src/save/append-save.ts';",
      "export { identityOf } from './src/files/file-identity.ts';",
      "export { previewEdit, editTitle } from './src/present/edit-preview.ts';",
      "export { Formatter } from './src/present/index.ts';",
      "export { bufferUtf8Slicer } from './src/node/buffer-utf8.ts';",
      "export { zlibZstd } from './src/node/zlib-zstd.ts';",
      "export { DocumentEdits } from './src/host/authoring/document-edits.ts';",
      "export { Uri } from 'vscode';",
    ],
    { vscode: 'bench/vscode-stand-in.mjs' },
  );
}

// ------------------------------------------------------------------------------------------- worker
async function worker(mode, scenario, path) {
  const m = await modules();
  const fmt = new m.Formatter({ locale: 'en' });
  // Loaded as the session document loads it.
  const bytes = new Uint8Array(await readFile(path));
  const loaded = m.loadSessionFile(bytes, { fileName: path, utf8Slicer: m.bufferUtf8Slicer(), zstdCodec: m.zlibZstd() });
  const target = { loaded, identity: m.identityOf(bytes, (await stat(path)).mtimeMs) };
  const log = loaded.log;
  if (!log.verdict.ok) throw new Error(`the log is refused: ${log.verdict.error}`);
  const events = log.eventCount;
  const editor = mode === 'plain' ? plainEditor(m, path, target, fmt) : documentEditor(m, path, target);

  let n = 0;
  /** A compaction of a balanced span of `on`'s surface: the first cuts, or the last ones. */
  const compaction = (on, where) => {
    const nodes = on.surface();
    const cuts = on.balancedCuts(nodes).cuts;
    const [a, b] = where === 'first' ? [cuts[1], cuts[6]] : [cuts[cuts.length - 7], cuts[cuts.length - 2]];
    n += 1;
    return m.compactionEdit(on, {
      start: nodes[a],
      end: nodes[b - 1],
      summaryText: `Benchmark summary ${n}: what the hidden span said.`,
      compactionId: `bench-${n}`,
      messageId: `bench-checkpoint-${n}`,
      time: 1_790_000_000_000 + n,
    });
  };
  if (scenario === 'second') await editor.apply(compaction(log, 'first'));

  global.gc();
  const loadedRss = process.memoryUsage().rss;
  const resetPeak = resetHighWaterMark();
  const times = {};
  const cpuBefore = process.cpuUsage();
  let started = performance.now();
  const lap = (step) => {
    const now = performance.now();
    times[step] = now - started;
    started = now;
  };
  const seen = await editor.logWithPending();
  const edit = compaction(seen, scenario === 'second' ? 'last' : 'first');
  lap('prepare');
  const preview = await editor.preview(edit);
  if (!preview.ok) throw new Error(`the preview refuses the edit: ${preview.text}`);
  lap('preview');
  await editor.apply(edit);
  lap('apply');
  const before = log.eventCount;
  await editor.save();
  lap('save');
  const cpu = process.cpuUsage(cpuBefore);
  const peakRss = resetPeak ? highWaterMark() : process.resourceUsage().maxRSS * 1024;
  const appended = log.eventCount - before;
  if (appended !== (scenario === 'second' ? 8 : 4)) throw new Error(`the save appended ${appended} events`);
  const total = STEPS.reduce((sum, s) => sum + times[s], 0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(JSON.stringify({ ...times, total, cpuMs, events, appended, loadedRss, peakRss, peakAboveLoaded: peakRss - loadedRss }));
}

/** Resets the process's peak RSS to its current RSS (Linux); false where that cannot be done. */
function resetHighWaterMark() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return highWaterMark() > 0;
  } catch {
    return false;
  }
}

function highWaterMark() {
  const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return kib ? Number(kib[1]) * 1024 : 0;
}

/** The plain way's answer when the save finds that the file grew (it does not here: nothing else writes the copy). */
function confirmReplan() {
  return true;
}

// --------------------------------------------------------------------------------- the plain way
/**
 * The editor's authoring before the document owned its edits, call for call: a fork was a fresh
 * SessionLog parsed from the file read again; planning a second edit parsed such a fork; the save
 * layer read the file and parsed it once more when more than one edit was pending.
 */
function plainEditor(m, path, target, fmt) {
  const edits = [];
  const log = target.loaded.log;
  const forkFactory = async () => {
    const bytes = new Uint8Array(await readFile(path)).subarray(0, target.identity.size);
    return () => m.loadSessionFile(bytes).log;
  };
  /** Every pending edit planned in order; each after the first on a parsed copy with the ones before it. */
  const planAll = (list, fork) => {
    let on = log;
    const steps = [];
    for (const [index, edit] of list.entries()) {
      const plan = m.planCompaction(on, edit.input);
      if (!plan.ok) return { ok: false, index, edit, reasons: plan.reasons, steps };
      steps.push({ edit, plan });
      if (index < list.length - 1) {
        if (on === log) on = fork();
        on.append(plan.events);
      }
    }
    const planned = steps.flatMap((s) => s.plan.events);
    return { ok: true, steps, events: planned, lines: steps.flatMap((s) => s.plan.lines), firstSeq: log.eventCount };
  };
  const logWithPending = async () => {
    if (edits.length === 0) return log;
    const fork = await forkFactory();
    const plan = planAll(edits, fork);
    const copy = fork();
    if (plan.ok) copy.append(plan.events);
    return copy;
  };
  return {
    logWithPending,
    async preview(edit) {
      const before = await logWithPending();
      const single = m.planCompaction(before, edit.input);
      const plan = single.ok
        ? { ok: true, steps: [{ edit, plan: single }], events: single.events, lines: single.lines, firstSeq: before.eventCount }
        : { ok: false, index: 0, edit, reasons: single.reasons, steps: [] };
      let after;
      if (plan.ok) {
        after = before === log ? (await forkFactory())() : await logWithPending();
        after.append(plan.events);
      }
      return m.previewEdit(before, edit, plan, after, fmt);
    },
    async apply(edit) {
      edits.push(edit);
      const plan = planAll(edits, edits.length > 1 ? await forkFactory() : undefined);
      return plan.steps.flatMap((s) => s.plan.events.map((e) => ({ seq: e.seq, type: e.type, edit: m.editTitle(s.edit, fmt) })));
    },
    async save() {
      // The save layer's own copy for a second edit: the file read again and parsed.
      if (edits.length > 1) (await forkFactory())();
      const pending = new m.PendingEdits(log.eventCount);
      for (const edit of edits) pending.push(edit);
      const outcome = await m.saveEdits(path, target, pending, { confirmReplan });
      if (!outcome.ok) throw new Error(`the save was refused: ${outcome.message}`);
    },
  };
}

// ------------------------------------------------------------------------------ the document's way
/** The session document's edits over the loaded log, appending as SessionDocument.appendWith does. */
function documentEditor(m, path, target) {
  const document = {
    uri: m.Uri.file(path),
    fileName: path,
    editable: target,
    whenLoaded: Promise.resolve(),
    async appendWith(save) {
      const saving = { ...target };
      try {
        return await save(saving);
      } finally {
        target.identity = saving.identity;
      }
    },
  };
  const edits = new m.DocumentEdits(document);
  return {
    logWithPending: () => edits.logWithPending(),
    preview: (edit) => edits.preview(edit),
    apply: (edit) => edits.apply(edit),
    save: () => edits.save(),
  };
}
