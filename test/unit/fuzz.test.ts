// The fuzz suite: seeded mutations of real dsh logs (../shared/conformance/real, when present) and of
// generated logs (always), as plain JSONL and in broken zstd containers — deep nesting, built-in member
// names, huge lines, damaged bytes, torn and lying frames. Every CLI command, run as a real child process
// on the built bin/session-surface.js, exits 0, 1 or 2 without a stack trace; every public API call
// returns a result or a refusal. Seeded: a failure names its seed and mutation, and reproduces.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  checkInvariants,
  extendLoadedFile,
  inspectLog,
  loadSession,
  loadSessionFile,
  planCompaction,
  planRepair,
  planToolResultPrune,
  provenanceIndex,
  type SessionLog,
} from '../../src/core';
import { concatBytes, encodeRawZstdFrame } from '../../src/core/zstd';
import { richLog } from '../support/build-log';
import { runCliChild } from '../support/child-process';
import { hasShared, sharedDir } from '../support/paths';

const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const encoder = new TextEncoder();

/** mulberry32: a small seeded generator, so every mutation reproduces from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Mutation = (lines: string[], rand: () => number) => string[];
const pick = <T>(items: readonly T[], rand: () => number): T => items[Math.floor(rand() * items.length)];
const DEEP = '['.repeat(5000) + '0' + ']'.repeat(5000);
const BUILTINS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'toLocaleString', 'prototype'];

/** Replaces the value of a random `"key":` in a random line with `value` (text), when the line has one. */
function replaceValue(lines: string[], rand: () => number, keys: RegExp, value: string): string[] {
  const out = [...lines];
  const candidates = out.map((l, i) => (keys.test(l) ? i : -1)).filter((i) => i > 0);
  if (candidates.length === 0) return out;
  const i = pick(candidates, rand);
  out[i] = out[i].replace(new RegExp(`("(?:${keys.source})":)("(?:[^"\\\\]|\\\\.)*"|-?\\d+(?:\\.\\d+)?|true|false|null)`), `$1${value}`);
  return out;
}

const MUTATIONS: Record<string, Mutation> = {
  'deep value': (lines, rand) => replaceValue(lines, rand, /seq|type|callId|toolCallId|compactionId|id|text|turn|step|start|end/, DEEP),
  'deep content block': (lines, rand) => replaceValue(lines, rand, /content/, `[${DEEP}]`),
  'built-in member type': (lines, rand) => replaceValue(lines, rand, /type/, JSON.stringify(pick(BUILTINS, rand))),
  'built-in member key': (lines, rand) => {
    const out = [...lines];
    const i = 1 + Math.floor(rand() * (out.length - 1));
    out[i] = out[i].replace(/^\{/, `{"${pick(BUILTINS, rand)}":1,`);
    return out;
  },
  'huge line': (lines, rand) => {
    const out = [...lines];
    out.splice(
      1 + Math.floor(rand() * out.length),
      0,
      JSON.stringify({ type: 'session/title', seq: 1, time: 0, data: { title: 'x'.repeat(3 * 1024 * 1024) } }),
    );
    return out;
  },
  'odd numbers': (lines, rand) =>
    replaceValue(
      lines,
      rand,
      /seq|time|turn|step|start|end/,
      pick(['-0', '1e400', '1.5', '-1', '9007199254740993', '"7"', 'null', '[]', '{}'], rand),
    ),
  'drop a line': (lines, rand) => lines.filter((_, i) => i === 0 || i !== 1 + Math.floor(rand() * (lines.length - 1))),
  'duplicate a line': (lines, rand) => {
    const out = [...lines];
    const i = Math.floor(rand() * out.length);
    out.splice(i, 0, out[i]);
    return out;
  },
  'flip bytes': (lines, rand) => {
    const text = lines.join('\n');
    const chars = [...text];
    for (let n = 0; n < 4; n++) chars[Math.floor(rand() * chars.length)] = String.fromCharCode(Math.floor(rand() * 128));
    return chars.join('').split('\n');
  },
  'cut the text': (lines, rand) => {
    const text = lines.join('\n');
    return text.slice(0, Math.floor(rand() * text.length)).split('\n');
  },
  'header damage': (lines, rand) => [
    pick(
      [
        '',
        '{',
        'null',
        '[]',
        '{"type":"session"}',
        JSON.stringify({ type: 'session', version: 99, id: 'x', createdAt: 0, delegationDepth: 0 }),
        lines[0].replace(/"id":"[^"]*"/, `"id":${DEEP}`),
      ],
      rand,
    ),
    ...lines.slice(1),
  ],
};

/** Text lines to bytes, with a trailing newline unless the mutation cut it. */
const toBytes = (lines: string[], newline: boolean) => encoder.encode(lines.join('\n') + (newline ? '\n' : ''));

type Container = (text: Uint8Array, rand: () => number) => Uint8Array;

/** dsh's zstd layout (header frame, then batches), and broken variants of it. */
function zstdFrames(text: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let start = 0;
  let lines = 0;
  for (let p = 0; p < text.length; p++) {
    if (text[p] !== 0x0a) continue;
    lines++;
    if (lines === 1 || lines % 3 === 1 || p === text.length - 1) {
      frames.push(encodeRawZstdFrame(text.subarray(start, p + 1), { blockSize: 512 }));
      start = p + 1;
    }
  }
  if (start < text.length) frames.push(encodeRawZstdFrame(text.subarray(start), { blockSize: 512 }));
  return frames;
}

function skippable(declared: number, size = 0): Uint8Array {
  const out = new Uint8Array(8 + size);
  out.set([0x50 + (declared & 0xf), 0x2a, 0x4d, 0x18]);
  new DataView(out.buffer).setUint32(4, declared >>> 0, true);
  return out;
}

const CONTAINERS: Record<string, Container> = {
  plain: (text) => text,
  zstd: (text) => concatBytes(zstdFrames(text)),
  'zstd torn': (text, rand) => {
    const all = concatBytes(zstdFrames(text));
    return all.subarray(0, Math.floor(all.length * (0.5 + rand() / 2)));
  },
  'zstd flipped byte': (text, rand) => {
    const all = concatBytes(zstdFrames(text)).slice();
    all[Math.floor(rand() * all.length)] ^= 1 << Math.floor(rand() * 8);
    return all;
  },
  'zstd skippable frames': (text, rand) => {
    const frames = zstdFrames(text);
    frames.splice(Math.floor(rand() * frames.length), 0, skippable(pick([0, 5, 0xffffffff], rand), 5));
    return concatBytes([skippable(3, 3), ...frames]);
  },
  'zstd lying header': (text, rand) => {
    const frames = zstdFrames(text);
    const i = Math.floor(rand() * frames.length);
    const f = frames[i].slice();
    // single-segment frames: the content size field follows the descriptor; claim far more
    if (f.length > 6) f[5] = 0xff;
    f[4] = (f[4] & ~0x08) | (rand() < 0.5 ? 0xc0 : 0);
    frames[i] = f;
    return concatBytes(frames);
  },
};

/** Every API read and plan over a loaded log: each must return, never throw. */
function exerciseApi(log: SessionLog, rand: () => number): void {
  void log.verdict;
  void log.diagnostics;
  void log.scan;
  void log.strictSeed;
  inspectLog(log);
  log.deriveMessages();
  log.transcript();
  log.balancedCuts();
  for (let seq = -1; seq <= log.eventCount + log.closers.length; seq++) {
    log.event(seq);
    log.place(seq);
  }
  provenanceIndex(log);
  checkInvariants(log);
  planRepair(log);
  const surface = log.surface();
  if (surface.length > 1) {
    const a = surface[Math.floor(rand() * surface.length)];
    const b = surface[Math.floor(rand() * surface.length)];
    planCompaction(log, { start: Math.min(a, b), end: Math.max(a, b), summary: 'fuzz' } as never);
  }
  planToolResultPrune(log, Math.floor(rand() * Math.max(1, log.eventCount)), [{ type: 'text', text: '[pruned]' }]);
  log.planAppend([
    { type: 'session/title', seq: log.eventCount, time: 0, data: { title: 't', messageSeqs: [], source: { kind: 'fallback' } } },
  ] as never);
}

interface Case {
  name: string;
  bytes: Uint8Array;
}

function sources(): { name: string; lines: string[] }[] {
  const out = [
    { name: 'generated rich', lines: richLog().text().trim().split('\n') },
    { name: 'generated open tail', lines: richLog({ openTail: 'recorded-call' }).text().trim().split('\n') },
  ];
  if (hasShared()) {
    const dir = join(sharedDir(), 'conformance', 'real');
    if (existsSync(dir)) {
      const names = readdirSync(dir)
        .filter((n) => n.endsWith('.jsonl'))
        .sort();
      const rand = prng(SEED);
      for (let n = 0; n < 6 && names.length > 0; n++) {
        const name = names.splice(Math.floor(rand() * names.length), 1)[0];
        const text = readFileSync(join(dir, name), 'utf8');
        if (text.length < 2_000_000) out.push({ name: `real ${name}`, lines: text.trimEnd().split('\n') });
      }
    }
  }
  return out;
}

function cases(): Case[] {
  const out: Case[] = [];
  const rand = prng(SEED);
  const containerNames = Object.keys(CONTAINERS);
  for (const source of sources()) {
    for (const [mutation, mutate] of Object.entries(MUTATIONS)) {
      const container = pick(containerNames, rand);
      const seed = Math.floor(rand() * 2 ** 31);
      const r = prng(seed);
      const text = toBytes(mutate(source.lines, r), mutation !== 'cut the text');
      out.push({ name: `${source.name} / ${mutation} / ${container} (seed ${seed})`, bytes: CONTAINERS[container](text, r) });
    }
  }
  return out;
}

describe('fuzz', function () {
  this.timeout(120_000);
  const all = cases();

  it(`every public API call returns a result or a refusal (${all.length} mutated logs, seed ${SEED})`, () => {
    for (const c of all) {
      const rand = prng(c.bytes.length);
      try {
        const loaded = loadSessionFile(c.bytes, { fileName: c.name });
        exerciseApi(loaded.log, rand);
        const plain = loadSession(c.bytes);
        exerciseApi(plain, rand);
        // Following: the same bytes arriving in two pieces.
        const cut = Math.floor(rand() * c.bytes.length);
        const followed = loadSessionFile(c.bytes.subarray(0, cut));
        extendLoadedFile(followed, c.bytes.subarray(cut));
        exerciseApi(followed.log, rand);
      } catch (error) {
        assert.fail(`${c.name}: ${(error as Error)?.stack ?? String(error)}`);
      }
    }
  });

  it('appends of arbitrary values are planned or refused, never thrown', () => {
    const log = loadSession(richLog().bytes());
    const before = log.scan.fileBytes;
    fc.assert(
      fc.property(
        fc.array(
          fc.anything({
            withBigInt: true,
            withDate: true,
            withMap: true,
            withSet: true,
            withTypedArray: true,
            withSparseArray: true,
            withNullPrototype: true,
            withObjectString: true,
            withBoxedValues: true,
            maxDepth: 4,
          }),
          { maxLength: 3 },
        ),
        (events) => {
          const problems = log.planAppend(events as never);
          assert.ok(Array.isArray(problems));
          if (problems.length > 0) assert.equal(log.append(events as never).ok, false);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
    assert.equal(log.scan.fileBytes, before, 'nothing arbitrary was appended');
  });

  describe('CLI commands as child processes', () => {
    let dir: string;
    const files: string[] = [];
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
      all.forEach((c, i) => {
        const path = join(dir, `case-${String(i).padStart(3, '0')}.jsonl${c.name.includes('zstd') ? '.zstd' : ''}`);
        writeFileSync(path, c.bytes);
        files.push(path);
      });
      writeFileSync(join(dir, 'cases.txt'), all.map((c, i) => `${i}: ${c.name}`).join('\n'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    for (const args of [['check'], ['inspect', '--json'], ['surface'], ['derive', '--json'], ['repair'], ['provenance', '--json']]) {
      it(`${args.join(' ')}: exits 0, 1 or 2 with no stack trace, and answers for every file`, () => {
        const run = runCliChild([...args, ...files], 90_000);
        assert.ok(run.code === 0 || run.code === 1 || run.code === 2, `exit ${run.code}: ${run.stderr.slice(-2000)}`);
        assert.doesNotMatch(run.stderr, /\n\s+at |internal error/, run.stderr.slice(0, 2000));
        const said = run.stdout + run.stderr;
        const silent = files.filter((f) => !said.includes(f));
        assert.deepEqual(silent, [], `no answer for: ${silent.map((f) => all[files.indexOf(f)].name).join('; ')}`);
      });
    }
  });
});
