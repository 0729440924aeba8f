#!/usr/bin/env node
// Worst cases of hostile input, as users meet them: `node bin/session-surface.js COMMAND FILE` in a fresh
// process per run, for files built to be slow or large — tails after a damaged line of a few MiB of empty,
// unparsable or must-read lines, a zstd file of 64 KiB that inflates to ~1.95 GiB of newlines, values
// nested 20,000 levels deep in every event, an open turn whose pending call id is nested that deep, one
// message citing 200,000 chunks, control characters in every string — beside a uniform log of the same
// size. For each: wall time (median of --runs), time per MiB of the file as stored (what a bound
// proportional to the input is measured against), and the process's peak RSS.
//
//   node scripts/build.mjs && node bench/hostile.mjs [--dir bench/out/hostile] [--mib 8] [--runs 3]
//                                                    [--bomb-gib 1.95] [--json bench/out/hostile.json]
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleModules, option, root } from './bench-setup.mjs';
import { headerLine, TurnLogBuilder } from '../test/support/log-generator.mjs';

const DIR = option('--dir', join(root, 'bench', 'out', 'hostile'));
const MIB = Number(option('--mib', '8'));
const RUNS = Math.max(1, Number(option('--runs', '3')));
const BOMB_GIB = Number(option('--bomb-gib', '1.95'));
const JSON_OUT = option('--json', join(root, 'bench', 'out', 'hostile.json'));
const BIN = join(root, 'bin', 'session-surface.js');
const DEEP = '['.repeat(20_000) + '1' + ']'.repeat(20_000);
const EVIL = '\u001b]0;PWNED\u0007\u001b[2J\u009b1m\u202e\u0000\n';

const { bombFrame, bombLog, encodeRawZstdFrame } = await bundleModules('hostile-bench', [
  "export { bombFrame, bombLog } from './test/support/zstd-bombs';",
  "export { encodeRawZstdFrame } from './src/core/zstd';",
]);

/** Uniform turns of about `bytes` bytes, as lines (header first). */
function turns(bytes, builder = new TurnLogBuilder()) {
  const lines = [headerLine({ cwd: '/work/project' })];
  let size = lines[0].length;
  while (size < bytes) {
    for (const line of builder.turnLines()) {
      lines.push(line);
      size += line.length + 1;
    }
  }
  return lines;
}

const text = (lines) => lines.join('\n') + '\n';
const mib = MIB * 2 ** 20;
const head = turns(64 * 1024);

/** The files and the commands each is measured with. */
const CASES = [
  { name: 'uniform turns (baseline)', commands: [['check']], make: () => text(turns(mib)) },
  {
    name: `damaged line, then ${MIB} MiB of empty lines`,
    commands: [['check']],
    make: () => text(head) + '{damaged\n' + '\n'.repeat(mib),
  },
  {
    name: `damaged line, then ${MIB} MiB of "{x}" lines`,
    commands: [['check']],
    make: () => text(head) + '{damaged\n' + '{x}\n'.repeat(mib / 4),
  },
  {
    name: `damaged line, then ${MIB} MiB of lines that must be read ({"\\\\":1})`,
    commands: [['check']],
    make: () => text(head) + '{damaged\n' + '{"\\\\":1}\n'.repeat(mib / 9),
  },
  {
    name: `damaged line, then ${MIB} MiB of empty lines, then an escaped turn/end`,
    commands: [['check']],
    make: () => text(head) + '{damaged\n' + '\n'.repeat(mib) + '{"type":"turn\\/end","seq":1,"time":0,"data":{}}\n',
  },
  {
    name: `zstd: a frame inflating to ${BOMB_GIB} GiB of newlines after the header`,
    commands: [['check']],
    make: () => bombLog(bombFrame({ contentBytes: Math.floor(BOMB_GIB * 2 ** 30), byte: 0x0a })),
    zstd: true,
  },
  {
    name: 'every event holds a value nested 20,000 levels deep',
    commands: [['check'], ['inspect', '--json'], ['derive', '--json'], ['repair', '--dry-run', '--json']],
    make: () => {
      // Uniform turns, each followed by ignorable events holding the deep value (dsh lets such events pass).
      const builder = new TurnLogBuilder();
      const lines = [headerLine({ cwd: '/work/project' })];
      let size = 0;
      while (size < mib) {
        const turn = builder.turnLines();
        lines.push(...turn);
        for (let i = 0; i < turn.length; i++) {
          const deep = `{"type":"x/deep","seq":${builder.seq++},"time":0,"data":{"deep":${DEEP}},"ignorable":true}`;
          lines.push(deep);
          size += turn[i].length + deep.length + 2;
        }
      }
      return text(lines);
    },
  },
  {
    name: 'an open turn whose pending call id is nested 20,000 levels deep',
    commands: [['check'], ['repair', '--dry-run', '--json'], ['surface', '--repaired']],
    make: () => {
      const builder = new TurnLogBuilder();
      const lines = turns(mib, builder);
      const open = builder
        .turnLines({ open: true })
        .map((l) => l.replace(/"(?:callId|id)":"call-[^"]*"/g, (m) => m.replace(/"call-[^"]*"$/, DEEP)));
      return text([...lines, ...open]);
    },
  },
  {
    name: 'one message citing 200,000 chunks',
    commands: [['check'], ['provenance']],
    make: () => {
      const chunks = 200_000;
      const seqs = Array.from({ length: chunks }, (_, i) => i + 4);
      return text([
        headerLine({ cwd: '/work/project' }),
        '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}',
        '{"type":"user/message","seq":1,"time":0,"data":{"content":[{"type":"text","text":"go"}],"source":{"kind":"user"},"role":"user","id":"u1"},"surfaceOp":"append"}',
        '{"type":"step/start","seq":2,"time":0,"data":{"turn":1,"step":1}}',
        `{"type":"assistant/chunk","seq":3,"time":0,"data":{"turn":1,"step":1,"chunk":{"type":"text-start","index":0}}}`,
        JSON.stringify({
          type: 'text-chunks',
          seq0: 4,
          time0: 0,
          data: { turn: 1, step: 1, index: 0, dt: new Array(chunks - 1).fill(0), texts: new Array(chunks).fill('a') },
        }),
        JSON.stringify({
          type: 'assistant/message',
          seq: chunks + 4,
          time: 0,
          data: {
            turn: 1,
            step: 1,
            message: {
              role: 'assistant',
              content: [{ type: 'text', text: 'a'.repeat(chunks) }],
              source: { kind: 'model', provider: 'p', model: 'm' },
              id: 'a1',
            },
          },
          sourceEventSeqs: seqs,
          surfaceOp: 'append',
        }),
      ]);
    },
  },
  {
    name: 'control characters in every string',
    commands: [['check'], ['derive'], ['surface']],
    make: () =>
      text(turns(mib).map((line, i) => (i === 0 ? line : line.replace(/"text":"/g, `"text":${JSON.stringify(EVIL).slice(0, -1)}`)))),
  },
];

/** One whole process: exit code, wall ms, peak RSS in MiB. */
function runOnce(args) {
  const report = "process.on('exit',()=>process.stderr.write('\\n@maxrss '+process.resourceUsage().maxRSS+'\\n'));";
  const code = `${report}process.argv=[process.argv[0],${JSON.stringify(BIN)},...${JSON.stringify(args)}];require(${JSON.stringify(BIN)});`;
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', code], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, SESSION_SURFACE_CODE_CACHE: '0' },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const rss = /\n@maxrss (\d+)\n$/.exec(r.stderr ?? '');
  return { code: r.status, ms, rssMiB: rss ? Number(rss[1]) / 1024 : NaN, stackTrace: /\n\s+at /.test(r.stderr ?? '') };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

mkdirSync(DIR, { recursive: true });
console.log(`node ${process.version}, ${RUNS} run(s) each, median; files in ${DIR}`);
console.log(['file', 'MiB', 'command', 'exit', 'ms', 'ms/MiB', 'peak RSS MiB'].join('\t'));
const results = [];
for (const [i, c] of CASES.entries()) {
  const path = join(DIR, `case-${i}.jsonl${c.zstd ? '.zstd' : ''}`);
  writeFileSync(path, c.make());
  const fileMiB = statSync(path).size / 2 ** 20;
  for (const command of c.commands) {
    const runs = Array.from({ length: RUNS }, () => runOnce([...command, path]));
    const ms = median(runs.map((r) => r.ms));
    const row = {
      file: c.name,
      mib: Number(fileMiB.toFixed(3)),
      command: command.join(' '),
      exit: runs[0].code,
      stackTrace: runs.some((r) => r.stackTrace),
      ms: Math.round(ms),
      msPerMiB: Math.round(ms / fileMiB),
      rssMiB: Math.round(median(runs.map((r) => r.rssMiB))),
    };
    results.push(row);
    console.log(
      [row.file, row.mib, row.command, row.exit + (row.stackTrace ? ' (stack trace!)' : ''), row.ms, row.msPerMiB, row.rssMiB].join('\t'),
    );
  }
  rmSync(path);
}
const worst = results.filter((r) => r.file !== CASES[0].name).reduce((a, b) => (b.msPerMiB > a.msPerMiB ? b : a));
const heaviest = results.reduce((a, b) => (b.rssMiB > a.rssMiB ? b : a));
console.log(`slowest per MiB of input: ${worst.msPerMiB} ms/MiB (${worst.file}: ${worst.command})`);
console.log(`peak RSS: ${heaviest.rssMiB} MiB (${heaviest.file}: ${heaviest.command})`);
writeFileSync(JSON_OUT, JSON.stringify({ node: process.version, runs: RUNS, results }, null, 2));
console.log(`wrote ${JSON_OUT}`);
