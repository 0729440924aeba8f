// The fuzz suite's cases: seeded mutations of generated logs (open final turns among them) and of real dsh
// logs (../shared/conformance/real, when present), in plain and broken zstd containers. A case's name
// says its source, mutation, container and seed, so a failure reproduces (`FUZZ_SEED` varies them all).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { concatBytes, encodeRawZstdFrame } from '../../src/core/zstd';
import { richLog } from './build-log';
import { bombFrame } from './zstd-bombs';
import { hasShared, sharedDir } from './paths';

export const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const encoder = new TextEncoder();

/** mulberry32: a small seeded generator, so every mutation reproduces from its seed. */
export function prng(seed: number): () => number {
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
const DEEP_OBJECT = '{"a":'.repeat(5000) + '0' + '}'.repeat(5000);
/** What a terminal acts on: ESC sequences (OSC retitles, CSI clears), BEL, NUL, C1, DEL, bidi, newlines. */
const CONTROLS = ['\u001b]0;PWNED\u0007', '\u001b[2J', '\u0000', '\u009b31m', '\u007f', '\u202e', '\n/x.jsonl:1: forged: '];
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

/** The index of the last turn/start line (where an open final turn begins), or 1. */
function lastTurnStart(lines: string[]): number {
  for (let i = lines.length - 1; i > 0; i--) if (lines[i].includes('"type":"turn/start"')) return i;
  return 1;
}

/** Replaces a random JSON value (string, number, literal) in one of the lines from `from` on with `value`. */
function replaceAnyValue(lines: string[], rand: () => number, from: number, value: string): string[] {
  const out = [...lines];
  const i = from + Math.floor(rand() * Math.max(1, out.length - from));
  if (i >= out.length || i === 0) return out;
  const spots = [...out[i].matchAll(/:("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/g)];
  if (spots.length === 0) return out;
  const spot = pick(spots, rand);
  const at = spot.index! + 1;
  out[i] = out[i].slice(0, at) + value + out[i].slice(at + spot[1].length);
  return out;
}

const MUTATIONS: Record<string, Mutation> = {
  'deep value in the open turn': (lines, rand) => replaceAnyValue(lines, rand, lastTurnStart(lines), rand() < 0.5 ? DEEP : DEEP_OBJECT),
  'control characters': (lines, rand) => {
    let out = lines;
    for (let n = 0; n < 3; n++) out = replaceAnyValue(out, rand, 1, JSON.stringify(`x${pick(CONTROLS, rand)}y`));
    return out;
  },
  'damaged tail of blank lines': (lines, rand) => {
    const at = 1 + Math.floor(rand() * (lines.length - 1));
    // A damaged line, then a mebibyte of empty (or unparsable) lines, then the rest (maybe a turn/end).
    const filler = rand() < 0.5 ? '' : pick(['x', '{x}', '\\', 'nul'], rand);
    const blank = new Array<string>(filler === '' ? 1 << 20 : 1 << 18).fill(filler);
    return lines.slice(0, at).concat(['{damaged'], blank, lines.slice(at));
  },
  'closers that cannot be written': (lines, rand) => {
    const last = lines.length - 1;
    const out = [...lines];
    const how = pick(['no time', 'time 1e400', 'object call id', 'deep call id', 'toString call id'], rand);
    if (how === 'no time') out[last] = out[last].replace(/"time":-?\d+,/, '');
    else if (how === 'time 1e400') out[last] = out[last].replace(/"time":-?\d+/, '"time":1e400');
    else {
      const id = [...out.join('\n').matchAll(/"callId":("[^"]*")/g)].at(-1)?.[1];
      const value = how === 'object call id' ? '{"x":1}' : how === 'deep call id' ? DEEP : '{"toString":1}';
      if (id) return out.map((l) => l.split(id).join(value));
    }
    return out;
  },
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

/** dsh's zstd layout (header frame, then batches of a few lines, at most about 64), and broken variants of it. */
function zstdFrames(text: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let total = 0;
  for (let p = 0; p < text.length; p++) if (text[p] === 0x0a) total++;
  const batch = Math.max(3, Math.ceil(total / 64));
  let start = 0;
  let lines = 0;
  for (let p = 0; p < text.length; p++) {
    if (text[p] !== 0x0a) continue;
    lines++;
    if (lines === 1 || lines % batch === 1 || p === text.length - 1) {
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
  'zstd newline bomb': (text) => {
    // The header frame, then a frame that inflates to 16 MiB of newlines (4 bytes per 128 KiB), then the rest.
    const frames = zstdFrames(text);
    frames.splice(1, 0, bombFrame({ contentBytes: 16 * 1024 * 1024, byte: 0x0a }));
    return concatBytes(frames);
  },
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

export interface Case {
  name: string;
  bytes: Uint8Array;
}

function sources(): { name: string; lines: string[] }[] {
  const out = [
    { name: 'generated rich', lines: richLog().text().trim().split('\n') },
    { name: 'generated open tail', lines: richLog({ openTail: 'recorded-call' }).text().trim().split('\n') },
    { name: 'generated open tail, call not recorded', lines: richLog({ openTail: 'unrecorded-call' }).text().trim().split('\n') },
    { name: 'generated open step', lines: richLog({ openTail: 'open-step' }).text().trim().split('\n') },
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

export function cases(): Case[] {
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
