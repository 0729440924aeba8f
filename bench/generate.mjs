#!/usr/bin/env node
// Generates valid dsh v0 session logs for benchmarks: 10k / 100k / 300k events, plain and Zstandard.
//
//   node bench/generate.mjs [--sizes 10k,100k,300k] [--out bench/out] [--seed 1] [--no-zstd] [--raw-zstd] [--format v0|v4]
//
// --format v4 writes dsh format-4 logs instead (V4ScaleLogGenerator: a forked session with
// the protected system head, tool-role results, developer messages, attempts, embedded streams and
// compactions with startSeq/endSeq), named scale-N.v4.*; the v0 files are left as they are.
//
// The logs come from the project's one generator (test/support/log-generator.mjs, ScaleLogGenerator), whose
// event writer also writes the unit tests' logs and the committed samples.
// Each log repeats turns shaped like the real dsh fixtures (shared/fixtures/dsh-real): inbox splices around
// turn/start, step/start, the user prompt (surface append), request/header + request/context, assistant
// chunks as block-start / packed `reasoning-chunks`·`text-chunks`·`tool-call-chunks` rows / block-end /
// usage / finish, an assistant/message citing every chunk of its step, tool/call, hook events, tool/result
// citing its call, step/end, turn/end. Between turns it adds manual compactions (compaction/start with
// turn null, compaction/summary, a replacing user/message over every surface node but the last K turns,
// compaction/end), and inside turns pruner-style rewrites (compaction/prune, then a tool/result replace
// that changes only message.content[0].content). Seqs, turns, call ids and message ids are unique.
// Everything comes from a seeded PRNG: the same arguments give the same bytes.
//
// While writing, the generator keeps the surface and checks the rules of spec §3 that it relies on
// (contiguous seqs, surfaceOp/sourceEventSeqs metadata, replace endpoints and coverage, tool/result
// rewrites, tool-pairing balance at compaction cuts, open turn/step bookkeeping). It stops on the first
// violation.
//
// Outputs, per size N (all under --out, which is gitignored):
//   scale-N.jsonl                      plain text log
//   scale-N.2frames.jsonl.zstd         header frame + one frame with everything else (a fresh dsh log)
//   scale-N.frames.jsonl.zstd          header frame + one frame per line (a log written batch by batch)
//   manifest.json                      counts, sizes, parameters, encoder
// Frames are compressed with Node's zlib when it has zstd (Node >= 22.15); on older Node they are stored
// (raw blocks, valid Zstandard but not smaller), unless --cli is given and the `zstd` CLI exists, which
// then compresses the 2-frame variant. Use Node >= 22.15 for realistic compressed files.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { SCALE_PARAMS as PARAMS, ScaleLogGenerator, V4ScaleLogGenerator, verifyWritten } from '../test/support/log-generator.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------- args
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
};
const OUT = option('--out', join(root, 'bench', 'out'));
const SEED = Number(option('--seed', '1'));
const FORMAT = option('--format', 'v0');
if (FORMAT !== 'v0' && FORMAT !== 'v4') throw new Error(`--format is v0 or v4, not ${FORMAT}`);
const Generator = FORMAT === 'v4' ? V4ScaleLogGenerator : ScaleLogGenerator;
const SIZES = option('--sizes', '10k,100k,300k')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

// -------------------------------------------------------------------------------------- zstd encoder
/** The project's own encoder (src/core/zstd), bundled on the fly so this script stays plain JS. */
async function loadZstd() {
  const esbuild = await import('esbuild');
  const outfile = join(OUT, '.build', 'zstd.cjs');
  await esbuild.build({
    entryPoints: [join(root, 'src', 'core', 'zstd', 'index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(outfile);
}

// --------------------------------------------------------------------------------------------- main
function frameStats(zstd, bytes) {
  const r = zstd.decodeZstdLog(bytes, { backend: 'fzstd' });
  if (r.error) throw new Error(`generated zstd log does not decode: ${r.error.message} (${r.error.detail})`);
  return r;
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const zstd = flag('--no-zstd') ? undefined : await loadZstd();
  // Node's zlib when it has zstd (the core never reaches for it itself).
  const native = zstd ? ((await import('node:zlib')).zstdCompressSync ? await import('node:zlib') : undefined) : undefined;
  const useCli = flag('--cli') && !native && existsSync('/usr/bin/zstd');
  const rawOnly = flag('--raw-zstd');
  const encoder = !zstd
    ? 'none'
    : rawOnly || !native
      ? useCli
        ? 'zstd-cli (2-frame) + raw blocks'
        : 'raw blocks'
      : `node zlib ${process.version}`;
  const enc = (bytes) => zstd.encodeZstdFrame(bytes, { encoder: rawOnly ? 'raw' : 'auto', codec: native });
  const manifest = { seed: SEED, node: process.version, encoder, files: [] };

  for (const name of SIZES) {
    const params = PARAMS[name];
    if (!params) throw new Error(`unknown size ${name} (known: ${Object.keys(PARAMS).join(', ')})`);
    const started = Date.now();
    const g = new Generator(name, params, SEED * 1000 + params.targetEvents).run();
    if (verifyWritten(`scale-${name}`, g.lines) !== g.seq) throw new Error(`scale-${name}: event count mismatch`);
    const headerLine = g.headerLine;
    const text = Buffer.from(headerLine + '\n' + g.lines.join('\n') + '\n');
    const base = join(OUT, FORMAT === 'v4' ? `scale-${name}.v4` : `scale-${name}`);
    writeFileSync(`${base}.jsonl`, text);
    const entry = {
      name: FORMAT === 'v4' ? `scale-${name}.v4` : `scale-${name}`,
      format: FORMAT,
      params,
      events: g.seq,
      lines: g.lines.length + 1,
      bytes: text.length,
      ...g.stats,
      surface: g.surface.length,
    };

    if (zstd) {
      const headerBytes = text.subarray(0, headerLine.length + 1);
      const rest = text.subarray(headerLine.length + 1);
      let two;
      if (useCli) {
        const cli = (input) => {
          const r = spawnSync('/usr/bin/zstd', ['-q', '-c', '-3', `--stream-size=${input.length}`], { input, maxBuffer: 1 << 30 });
          if (r.status !== 0) throw new Error(`zstd CLI failed: ${r.stderr}`);
          return r.stdout;
        };
        two = Buffer.concat([cli(headerBytes), cli(rest)]);
      } else {
        two = Buffer.concat([enc(headerBytes), enc(rest)]);
      }
      writeFileSync(`${base}.2frames.jsonl.zstd`, two);
      const check2 = frameStats(zstd, two);
      if (check2.text.length !== text.length || Buffer.compare(Buffer.from(check2.text), text) !== 0)
        throw new Error('2-frame zstd does not round-trip');

      // One frame per line, as a log written append by append (header frame first).
      const parts = [enc(headerBytes)];
      let p = headerBytes.length;
      while (p < text.length) {
        const nl = text.indexOf(10, p);
        parts.push(enc(text.subarray(p, nl + 1)));
        p = nl + 1;
      }
      const many = Buffer.concat(parts);
      writeFileSync(`${base}.frames.jsonl.zstd`, many);
      const checkN = frameStats(zstd, many);
      if (checkN.text.length !== text.length || checkN.frames !== parts.length) throw new Error('many-frame zstd does not round-trip');
      entry.zstd2Bytes = two.length;
      entry.zstdFrames = parts.length;
      entry.zstdFramesBytes = many.length;
    }
    manifest.files.push(entry);
    console.log(
      `${entry.name}: ${entry.events} events, ${entry.lines} lines, ${(entry.bytes / 1048576).toFixed(1)} MiB, ` +
        `${entry.turns} turns, ${entry.compactions} compactions, ${entry.prunes} prunes, ` +
        (FORMAT === 'v4'
          ? `${entry.attempts} attempts, ${entry.developer} developer messages, ${entry.toolResults} tool results`
          : `${entry.packedRows} packed rows, ${entry.replaces} replaces`) +
        (zstd
          ? `; zstd 2 frames ${(entry.zstd2Bytes / 1048576).toFixed(2)} MiB, ${entry.zstdFrames} frames ${(entry.zstdFramesBytes / 1048576).toFixed(2)} MiB`
          : '') +
        ` (${Date.now() - started} ms)`,
    );
  }
  writeFileSync(join(OUT, FORMAT === 'v4' ? 'manifest.v4.json' : 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  console.log(`encoder: ${encoder}; wrote ${OUT}`);
}

await main();
