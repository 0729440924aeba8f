#!/usr/bin/env node
// Measures the session core on the logs of bench/generate.mjs. Every measurement runs in a fresh child
// process (so no run warms the JIT or the heap of another):
//
//   load      loadSession / loadSessionFile (decode, validate, fold) + verdict, surface, deriveMessages
//             (wall ms, and CPU ms of the process, which a busy machine disturbs less)
//   baseline  JSON.parse of every line, nothing else (zstd: plus decodeZstdLog); load / baseline = ratio
//   empty     a Node that only loaded the core bundle: its peak RSS is subtracted from the others
//   append    the 300k session loaded, then 1,000 single-event in-memory appends: median and p99;
//             and 1,000 appended lines folded as a followed file grows (extend), each followed by
//             the questions a view asks (diagnostics, provenance, invariants, derived messages)
//   check     `node bin/session-surface.js check FILE` as users run it — a whole process, with
//             everything it reports — against the whole-process floor: a Node that reads the file,
//             splits it into lines and JSON.parses every line (for zstd: after the same decoder).
//             Alternated check/floor, median of --check-runs (5): the CPU time of each process (user +
//             system, which a busy machine disturbs far less than the wall clock) and its wall time,
//             each as a ratio to the floor's; for a v4 log also `check --own` (the file's own verdict
//             only: for a log of today's format the same read). Peak RSS of each process, and the
//             check's peak RSS above an empty Node per byte of decompressed text. The launcher keeps a
//             code cache (bin/session-surface.js), here in bench/out/.build/code-cache: the first check
//             after the cache is cleared writes it, and its time is printed apart ("first check")
//
// Both formats are measured when their logs are there: v0 (scale-N.jsonl, scale-N.2frames.jsonl.zstd,
// scale-N.frames.jsonl.zstd) and v4 (the same names with .v4 before .jsonl, from `bench/generate.mjs
// --format v4`); the check summary compares each v4 log's CPU ratio with its v0 counterpart's.
//
//   node bench/run.mjs [--dir bench/out] [--sizes 10k,100k,300k] [--formats v0,v4] [--runs 3] [--check-runs 5]
//                      [--node /path/to/node] [--json bench/out/results.json]
//
// --runs N repeats every measurement in N processes and reports the median. --node runs the children
// with another Node (e.g. Node >= 22.15, whose zlib has zstd). Generate the logs first:
// `node bench/generate.mjs` (use Node >= 22.15 there for compressed zstd frames).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option, root } from './bench-setup.mjs';

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const DIR = option('--dir', join(root, 'bench', 'out'));
const BUNDLE = join(DIR, '.build', 'core.cjs');
/** The formats measured, and the name each one's logs carry before `.jsonl` (bench/generate.mjs --format). */
const FORMATS = option('--formats', 'v0,v4').split(',').filter(Boolean);
const FORMAT_INFIX = { v0: '', v4: '.v4' };
for (const format of FORMATS) if (!(format in FORMAT_INFIX)) throw new Error(`--formats takes v0 and v4, not ${format}`);
/** The logs of one size and container variant (`.jsonl`, `.2frames.jsonl.zstd` …), in every measured format. */
const logsOf = (size, suffix) => FORMATS.map((format) => ({ format, file: join(DIR, `scale-${size}${FORMAT_INFIX[format]}${suffix}`) }));
/** Preloaded into every whole-process run: writes the process's CPU time and peak RSS where BENCH_USAGE_FILE says. */
const USAGE_HOOK = join(DIR, '.build', 'usage.cjs');
/** The CLI's code cache during the benchmark (cleared before the checks). */
const CODE_CACHE = join(DIR, '.build', 'code-cache');

if (argv[0] === '--worker') {
  await worker(argv[1], argv[2]);
} else if (argv[0] === '--floor') {
  floor(argv[1]);
} else {
  await main();
}

// ------------------------------------------------------------------------------------------- parent
async function main() {
  const sizes = option('--sizes', '10k,100k,300k').split(',').filter(Boolean);
  const runs = Math.max(1, Number(option('--runs', '3')));
  const node = option('--node', process.execPath);
  const jsonOut = option('--json', join(DIR, 'results.json'));
  mkdirSync(dirname(BUNDLE), { recursive: true });
  const esbuild = await import('esbuild');
  // The core and its zstd module in one bundle for the workers.
  await esbuild.build({
    stdin: {
      contents:
        "export * from './src/core/index.ts';\nexport { decodeZstdLog, isZstd } from './src/core/zstd/index.ts';\nexport { zlibZstd } from './src/node/zlib-zstd.ts';\nexport { bufferUtf8Slicer } from './src/node/buffer-utf8.ts';\n",
      resolveDir: root,
      loader: 'ts',
    },
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });

  const child = (task, file) => {
    const r = spawnSync(node, [self, '--worker', task, file ?? '', '--dir', DIR], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`worker ${task} ${file ?? ''} failed (${r.status}): ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop());
  };
  const repeat = (task, file) => {
    const all = Array.from({ length: runs }, () => child(task, file));
    const out = { ...all[0] };
    for (const key of Object.keys(out)) if (typeof out[key] === 'number') out[key] = median(all.map((r) => r[key]));
    return out;
  };

  const empty = repeat('empty');
  const version = child('version');
  const results = { node: version.node, zlibZstd: version.zlibZstd, runs, emptyRssBytes: empty.maxRssBytes, files: [], appends: undefined };
  console.log(
    `node ${version.node} (zlib zstd: ${version.zlibZstd ? 'yes' : 'no'}), ${runs} run(s) each, median; empty Node peak RSS ${mib(empty.maxRssBytes)} MiB`,
  );
  console.log(
    [
      'file',
      'MiB',
      'load ms',
      'baseline ms',
      'ratio',
      'decode ms',
      'load cpu ms',
      'baseline cpu ms',
      'cpu ratio',
      'RSS-empty MiB',
      'RSS/size',
    ].join('\t'),
  );

  for (const size of sizes) {
    for (const { format, file } of ['.jsonl', '.2frames.jsonl.zstd', '.frames.jsonl.zstd'].flatMap((suffix) => logsOf(size, suffix))) {
      if (!existsSync(file)) continue;
      const load = repeat('load', file);
      const base = repeat('baseline', file);
      const rss = load.maxRssBytes - empty.maxRssBytes;
      const row = {
        file: basename(file),
        format,
        fileBytes: load.fileBytes,
        textBytes: load.textBytes,
        events: load.events,
        verdict: load.verdict,
        loadMs: load.ms,
        loadCpuMs: load.cpuMs,
        baselineMs: base.ms,
        baselineCpuMs: base.cpuMs,
        ratio: load.ms / base.ms,
        cpuRatio: load.cpuMs / base.cpuMs,
        decodeMs: base.decodeMs,
        rssOverEmptyBytes: rss,
        rssPerTextByte: rss / load.textBytes,
      };
      if (load.verdict !== 'ok') console.warn(`  ${row.file}: verdict ${load.verdict}`);
      results.files.push(row);
      console.log(
        [
          row.file,
          mib(row.textBytes),
          row.loadMs.toFixed(0),
          row.baselineMs.toFixed(0),
          row.ratio.toFixed(2),
          row.decodeMs === undefined ? '-' : row.decodeMs.toFixed(0),
          row.loadCpuMs.toFixed(0),
          row.baselineCpuMs.toFixed(0),
          row.cpuRatio.toFixed(2),
          mib(rss),
          row.rssPerTextByte.toFixed(2),
        ].join('\t'),
      );
    }
  }

  const appendFile = join(DIR, 'scale-300k.jsonl');
  if (existsSync(appendFile) && sizes.includes('300k')) {
    const a = repeat('append', appendFile);
    results.appends = a;
    console.log(
      `1,000 appends to the loaded 300k session: median ${a.medianMs.toFixed(3)} ms, p99 ${a.p99Ms.toFixed(3)} ms, max ${a.maxMs.toFixed(3)} ms`,
    );
    console.log(
      `1,000 appended lines folded into the followed 300k session (+ diagnostics, provenance, invariants, derived messages): median ${a.foldMedianMs.toFixed(3)} ms, p99 ${a.foldP99Ms.toFixed(3)} ms, max ${a.foldMaxMs.toFixed(3)} ms`,
    );
  }

  results.check = checkAsUsersRunIt(sizes, node);
  writeFileSync(jsonOut, JSON.stringify(results, null, 1) + '\n');
  console.log(`wrote ${jsonOut}`);
}

// ----------------------------------------------------------------------------- check, whole processes
/**
 * Runs `args` as a whole process; returns its wall time (spawn to exit, as a user's clock sees it), its
 * CPU time (user + system of every thread, as the process reports it when it exits) and its peak RSS.
 */
function wholeProcess(node, args) {
  const usageFile = join(DIR, '.build', `usage-${process.pid}.json`);
  const started = performance.now();
  const r = spawnSync(node, ['--require', USAGE_HOOK, ...args], {
    cwd: root,
    env: { ...process.env, BENCH_USAGE_FILE: usageFile, SESSION_SURFACE_CACHE_DIR: CODE_CACHE },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
  rmSync(usageFile, { force: true });
  return { ms, cpuMs: usage.cpuMs, maxRssBytes: usage.maxRssBytes, stderr: r.stderr };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function checkAsUsersRunIt(sizes, node) {
  const runs = Math.max(1, Number(option('--check-runs', '5')));
  writeFileSync(
    USAGE_HOOK,
    "process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssBytes: u.maxRSS * 1024 })); });\n",
  );
  const cli = join(root, 'bin', 'session-surface.js');
  if (!existsSync(join(root, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run `node scripts/build.mjs` first');
  const emptyRss = median(Array.from({ length: runs }, () => wholeProcess(node, ['-e', '0']).maxRssBytes));
  const rows = [];
  rmSync(CODE_CACHE, { recursive: true, force: true });
  console.log(`\ncheck as users run it: whole processes, alternated, median of ${runs}; empty Node peak RSS ${mib(emptyRss)} MiB`);
  console.log(
    [
      'file',
      'text MiB',
      'check cpu ms',
      'floor cpu ms',
      'cpu ratio',
      'check ms',
      'floor ms',
      'ratio',
      'check RSS MiB',
      'floor RSS MiB',
      '(check RSS - empty) / text',
      'first check ms',
    ].join('\t'),
  );
  const print = (row, label = row.file) =>
    console.log(
      [
        label,
        mib(row.textBytes),
        row.checkCpuMs.toFixed(0),
        row.floorCpuMs.toFixed(0),
        row.cpuRatio.toFixed(2),
        row.checkMs.toFixed(0),
        row.floorMs.toFixed(0),
        row.ratio.toFixed(2),
        mib(row.checkRssBytes),
        mib(row.floorRssBytes),
        row.rssOverEmptyPerTextByte.toFixed(2),
        row.firstCheckMs === undefined ? '-' : row.firstCheckMs.toFixed(0),
      ].join('\t'),
    );
  for (const size of sizes) {
    for (const { format, file } of ['.jsonl', '.2frames.jsonl.zstd'].flatMap((suffix) => logsOf(size, suffix))) {
      if (!existsSync(file)) continue;
      // A log of today's format is also checked with --own (its own verdict only).
      const variants = format === 'v0' ? [[]] : [[], ['--own']];
      const checks = variants.map(() => []);
      const floors = [];
      let textBytes = 0;
      // The first check of the run writes the launcher's code cache (the one after a new install or build).
      const first = existsSync(CODE_CACHE) ? undefined : wholeProcess(node, [cli, 'check', file]).ms;
      for (let i = 0; i < runs; i++) {
        const f = wholeProcess(node, [self, '--floor', file, '--dir', DIR]);
        textBytes = Number(/text (\d+)/.exec(f.stderr)?.[1] ?? 0);
        floors.push(f);
        variants.forEach((flags, v) => {
          const c = wholeProcess(node, [cli, 'check', ...flags, file]);
          if (!/loads \(/.test(c.stderr)) throw new Error(`check ${flags.join(' ')} ${file}: ${c.stderr}`);
          checks[v].push(c);
        });
      }
      variants.forEach((flags, v) => {
        const runsOf = checks[v];
        const row = {
          file: basename(file),
          format,
          size,
          container: file.endsWith('.zstd') ? 'zstd' : 'plain',
          flags,
          textBytes,
          checkMs: median(runsOf.map((c) => c.ms)),
          floorMs: median(floors.map((f) => f.ms)),
          checkCpuMs: median(runsOf.map((c) => c.cpuMs)),
          floorCpuMs: median(floors.map((f) => f.cpuMs)),
          checkRssBytes: median(runsOf.map((c) => c.maxRssBytes)),
          floorRssBytes: median(floors.map((f) => f.maxRssBytes)),
          firstCheckMs: v === 0 ? first : undefined,
        };
        row.ratio = row.checkMs / row.floorMs;
        row.cpuRatio = row.checkCpuMs / row.floorCpuMs;
        row.rssOverEmptyPerTextByte = (row.checkRssBytes - emptyRss) / textBytes;
        rows.push(row);
        print(row, flags.length > 0 ? `${row.file} ${flags.join(' ')}` : row.file);
      });
    }
  }
  // Each v4 log against the v0 log of the same size and container: its check may cost at most the v0 check's CPU ratio.
  for (const row of rows.filter((r) => r.format !== 'v0')) {
    const v0 = rows.find((r) => r.format === 'v0' && r.size === row.size && r.container === row.container);
    if (!v0) continue;
    const within = row.cpuRatio <= v0.cpuRatio;
    row.v0CpuRatio = v0.cpuRatio;
    console.log(
      `${row.file}${row.flags.length > 0 ? ` ${row.flags.join(' ')}` : ''}: check/floor CPU ${row.cpuRatio.toFixed(2)} against v0's ${v0.cpuRatio.toFixed(2)} (${v0.file}): ${within ? 'within' : 'above'}; peak RSS ${mib(row.checkRssBytes)} MiB (floor ${mib(row.floorRssBytes)} MiB)`,
    );
  }
  return { runs, emptyRssBytes: emptyRss, files: rows };
}

/**
 * The floor a check is measured against, as a whole process: read the file, split it into lines and
 * JSON.parse every line. A zstd log is first decoded by the same decoder the CLI uses, and split
 * the same way a plain file is.
 */
function floor(file) {
  let text = readFileSync(file);
  if (text.length >= 4 && text[0] === 0x28 && text[1] === 0xb5 && text[2] === 0x2f && text[3] === 0xfd) {
    const { decodeZstdLog, zlibZstd } = createRequire(import.meta.url)(BUNDLE);
    const decoded = decodeZstdLog(text, { codec: zlibZstd() }).text;
    // A Buffer view of the text, as the CLI has: Buffer's indexOf finds line ends fastest.
    text = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.length);
  }
  let lines = 0;
  for (let p = 0; p < text.length;) {
    let nl = text.indexOf(10, p);
    if (nl < 0) nl = text.length;
    // A Buffer decodes a line faster than TextDecoder (as the CLI does, through the core's utf8Slicer).
    JSON.parse(text.toString('utf8', p, nl));
    lines++;
    p = nl + 1;
  }
  process.stderr.write(`lines ${lines} text ${text.length}\n`);
}

function mib(bytes) {
  return (bytes / 1048576).toFixed(1);
}

// ------------------------------------------------------------------------------------------- worker
async function worker(task, file) {
  const core = createRequire(import.meta.url)(BUNDLE);
  const { decodeZstdLog, isZstd, zlibZstd } = core;
  const codec = zlibZstd();
  const report = (fields) => {
    const maxRssBytes = process.resourceUsage().maxRSS * 1024;
    process.stdout.write(JSON.stringify({ ...fields, maxRssBytes }) + '\n');
  };
  if (task === 'empty') return report({});
  if (task === 'version') return report({ node: process.version, zlibZstd: Boolean(codec) });

  const bytes = new Uint8Array(readFileSync(file));
  const cpu0 = process.cpuUsage();
  const cpuMs = () => {
    const c = process.cpuUsage(cpu0);
    return (c.user + c.system) / 1000;
  };
  if (task === 'load') {
    const started = performance.now();
    const utf8Slicer = core.bufferUtf8Slicer();
    const log = isZstd(bytes) ? core.loadSessionFile(bytes, { zstdCodec: codec, utf8Slicer }).log : core.loadSession(bytes, { utf8Slicer });
    const verdict = log.verdict;
    const surface = log.surface();
    const messages = log.deriveMessages();
    const ms = performance.now() - started;
    return report({
      ms,
      cpuMs: cpuMs(),
      fileBytes: bytes.length,
      textBytes: log.scan.fileBytes,
      events: log.eventCount,
      verdict: verdict.ok ? 'ok' : `${verdict.stage}: ${verdict.error}`,
      surface: surface.length,
      messages: messages.length,
    });
  }
  if (task === 'baseline') {
    const started = performance.now();
    let text = bytes;
    let decodeMs;
    if (isZstd(bytes)) {
      const r = decodeZstdLog(bytes, { codec });
      text = r.text;
      decodeMs = performance.now() - started;
    }
    text = Buffer.from(text.buffer, text.byteOffset, text.length);
    let lines = 0;
    for (let p = 0; p < text.length;) {
      let nl = text.indexOf(10, p);
      if (nl < 0) nl = text.length;
      JSON.parse(text.toString('utf8', p, nl));
      lines++;
      p = nl + 1;
    }
    return report({ ms: performance.now() - started, cpuMs: cpuMs(), decodeMs, lines });
  }
  if (task === 'append') {
    const log = core.loadSession(bytes);
    if (!log.verdict.ok) throw new Error(`cannot append: ${log.verdict.error}`);
    const times = [];
    for (let i = 0; i < 1000; i++) {
      const seq = log.eventCount;
      const event =
        i % 2 === 0
          ? {
              type: 'user/message',
              seq,
              time: 1790000000000 + i,
              data: {
                content: [{ type: 'text', text: `appended message ${i}` }],
                source: { kind: 'user' },
                role: 'user',
                id: `bench-append-${i}`,
              },
              surfaceOp: 'append',
            }
          : { type: 'feedback/record', seq, time: 1790000000000 + i, data: { text: `feedback ${i}` } };
      const t = performance.now();
      const r = log.append([event]);
      times.push(performance.now() - t);
      if (!r.ok) throw new Error(`append ${i} refused: ${JSON.stringify(r.problems)}`);
    }
    times.sort((a, b) => a - b);
    // A followed file: lines a writer appended, folded one by one, then what a view asks after each.
    const follow = core.loadSession(bytes);
    const encoder = new TextEncoder();
    const folds = [];
    for (let i = 0; i < 1000; i++) {
      const seq = follow.eventCount;
      const event =
        i % 2 === 0
          ? {
              type: 'user/message',
              seq,
              time: 1790000000000 + i,
              data: {
                content: [{ type: 'text', text: `followed message ${i}` }],
                source: { kind: 'user' },
                role: 'user',
                id: `bench-follow-${i}`,
              },
              surfaceOp: 'append',
            }
          : { type: 'feedback/record', seq, time: 1790000000000 + i, data: { text: `feedback ${i}` } };
      const line = encoder.encode(core.serializeEvent(event) + '\n');
      const t = performance.now();
      const grown = follow.extend(line);
      const asked =
        follow.diagnostics.length +
        core.provenanceIndex(follow).diagnostics.length +
        core.checkInvariants(follow).length +
        follow.deriveMessages().length;
      folds.push(performance.now() - t);
      if (grown.added !== 1 || asked < 0) throw new Error(`fold ${i} added ${grown.added}`);
    }
    folds.sort((a, b) => a - b);
    return report({
      medianMs: times[499],
      p99Ms: times[989],
      maxMs: times[999],
      foldMedianMs: folds[499],
      foldP99Ms: folds[989],
      foldMaxMs: folds[999],
      events: follow.eventCount,
    });
  }
  throw new Error(`unknown task ${task}`);
}
