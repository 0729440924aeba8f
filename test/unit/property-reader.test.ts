// Property tests of the reader with fast-check:
//  (a) random byte and line mutations of valid logs never make the reader throw (every read-side
//      API completes and keeps its invariants);
//  (b) following a growing file (loadSession(prefix) + extend(chunk)…, cut at random byte offsets)
//      gives exactly the state of a from-scratch load, at every step and at the end.
// Sessions are built with test/support/build-log.ts; when ../shared exists, small real logs of the
// conformance corpus are mutated as well. Runs are kept small so the unit suite stays fast.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { inspectLog, loadSession, loadSessionFile, type SessionLog } from '../../src/core';
import { LogBuilder } from '../support/build-log';
import { exerciseLog } from '../support/exercise';
import { hasShared, sharedDir } from '../support/paths';

// PROPERTY_RUNS raises the count for a soak run (e.g. PROPERTY_RUNS=5000) without slowing the default suite.
const NUM_RUNS = Number(process.env.PROPERTY_RUNS) || 150;

// ------------------------------------------------------------------ random valid sessions

type Tail = 'none' | 'recorded-call' | 'unrecorded-call' | 'open-step' | 'open-turn';
type Step =
  | { kind: 'chat'; prompt: string; chunks: string[] }
  | { kind: 'tools'; calls: number; answer: string }
  | { kind: 'compact'; from: number; span: number }
  | { kind: 'prune'; text: string }
  | { kind: 'plugin'; text: string; unknown: boolean };

interface SessionSpec {
  steps: Step[];
  tail: Tail;
  crlf: boolean;
}

// Any code point (multi-byte UTF-8 included, so byte cuts land inside characters), newlines too.
const text = fc.string({ unit: 'binary', maxLength: 6 });

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('chat' as const), prompt: text, chunks: fc.array(text, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('tools' as const), calls: fc.integer({ min: 1, max: 3 }), answer: text }),
  fc.record({ kind: fc.constant('compact' as const), from: fc.nat(), span: fc.nat() }),
  fc.record({ kind: fc.constant('prune' as const), text }),
  fc.record({ kind: fc.constant('plugin' as const), text, unknown: fc.boolean() }),
);

const arbSession: fc.Arbitrary<SessionSpec> = fc.record({
  steps: fc.array(arbStep, { minLength: 1, maxLength: 5 }),
  tail: fc.constantFrom<Tail>('none', 'recorded-call', 'unrecorded-call', 'open-step', 'open-turn'),
  crlf: fc.boolean(),
});

function buildSession(spec: SessionSpec): LogBuilder {
  const b = new LogBuilder();
  let calls = 0;
  const callId = () => `call-${++calls}`;
  for (const step of spec.steps) {
    switch (step.kind) {
      case 'chat':
        b.chatTurn(step.prompt, step.chunks);
        break;
      case 'tools':
        b.toolTurn('use tools', Array.from({ length: step.calls }, callId), step.answer);
        break;
      case 'compact': {
        // Any surface range is valid to the core (balance is the compaction plugin's concern).
        const n = b.surface.length;
        if (n === 0) break;
        const start = step.from % n;
        const end = start + (step.span % (n - start));
        b.compact({ start: b.surface[start], end: b.surface[end] });
        break;
      }
      case 'prune': {
        b.turnStart();
        b.user('prune me');
        b.stepStart();
        const id = callId();
        b.assistant({ toolCalls: [{ id }] });
        b.toolCall(id);
        const result = b.toolResult(id, 'a long tool result');
        b.prune(result, step.text);
        b.stepEnd();
        b.turnEnd();
        break;
      }
      case 'plugin':
        if (step.unknown) b.event('future/plugin-event', { text: step.text }, { ignorable: true });
        else b.event('feedback/record', { text: step.text });
        break;
    }
  }
  if (spec.tail !== 'none') {
    b.turnStart();
    b.user('crash here');
    if (spec.tail !== 'open-turn') {
      b.stepStart();
      if (spec.tail !== 'open-step') {
        const id = callId();
        b.assistant({ toolCalls: [{ id }] });
        if (spec.tail === 'recorded-call') b.toolCall(id);
      }
    }
  }
  return b;
}

const sessionBytes = (spec: SessionSpec): Uint8Array => buildSession(spec).bytes({ eol: spec.crlf ? '\r\n' : '\n' });

// ------------------------------------------------------------------ mutations

type Mutation =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'dropLine'; line: number }
  | { kind: 'dupLine'; line: number }
  | { kind: 'swapLines'; a: number; b: number }
  | { kind: 'replaceLine'; line: number; text: string }
  | { kind: 'editJson'; line: number; path: number[]; value: unknown; remove: boolean };

const lineText = fc.oneof(
  fc.constantFrom(
    'null',
    '[]',
    '{}',
    '"turn/end"',
    '',
    ' ',
    '\r',
    '{"type":"turn/end"}',
    '{"type":"turn/end","seq":0,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}',
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const arbMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('dropLine' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('dupLine' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('replaceLine' as const), line: fc.nat(), text: lineText }),
  fc.record({
    kind: fc.constant('editJson' as const),
    line: fc.nat(),
    path: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, -1, 0, 1.5, '', 'append', 2 ** 53, [], {})),
    remove: fc.boolean(),
  }),
);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  lines.push(bytes.subarray(start)); // the (possibly empty) tail after the last newline
  return lines;
}

function joinLines(lines: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(lines.reduce((n, l) => n + l.length + 1, 0) - 1);
  let at = 0;
  lines.forEach((line, i) => {
    out.set(line, at);
    at += line.length;
    if (i < lines.length - 1) out[at++] = 0x0a;
  });
  return out;
}

/** Sets or deletes one key somewhere inside a parsed JSON line, walking down by `path`. */
function editJsonLine(line: Uint8Array, path: number[], value: unknown, remove: boolean): Uint8Array {
  let root: unknown;
  try {
    root = JSON.parse(decoder.decode(line));
  } catch {
    return line;
  }
  if (root === null || typeof root !== 'object') return line;
  let current = root as Record<string, unknown>;
  for (let i = 0; i < path.length; i++) {
    const keys = Object.keys(current);
    if (keys.length === 0) break;
    const key = keys[path[i] % keys.length];
    const child = current[key];
    if (i === path.length - 1 || child === null || typeof child !== 'object') {
      if (remove && !Array.isArray(current)) delete current[key];
      else current[key] = value;
      break;
    }
    current = child as Record<string, unknown>;
  }
  return encoder.encode(JSON.stringify(root));
}

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const n = bytes.length;
  switch (m.kind) {
    case 'flip': {
      if (n === 0) return bytes;
      const out = bytes.slice();
      out[m.at % n] = m.byte;
      return out;
    }
    case 'insert': {
      const at = m.at % (n + 1);
      const out = new Uint8Array(n + m.bytes.length);
      out.set(bytes.subarray(0, at));
      out.set(m.bytes, at);
      out.set(bytes.subarray(at), at + m.bytes.length);
      return out;
    }
    case 'delete': {
      if (n === 0) return bytes;
      const at = m.at % n;
      const out = new Uint8Array(n - Math.min(m.length, n - at));
      out.set(bytes.subarray(0, at));
      out.set(bytes.subarray(at + m.length), at);
      return out;
    }
    case 'truncate':
      return bytes.slice(0, m.at % (n + 1));
    default: {
      const lines = splitLines(bytes);
      const pick = (i: number) => i % lines.length;
      switch (m.kind) {
        case 'dropLine':
          lines.splice(pick(m.line), 1);
          break;
        case 'dupLine':
          lines.splice(pick(m.line), 0, lines[pick(m.line)]);
          break;
        case 'swapLines': {
          const [a, b] = [pick(m.a), pick(m.b)];
          [lines[a], lines[b]] = [lines[b], lines[a]];
          break;
        }
        case 'replaceLine':
          lines[pick(m.line)] = encoder.encode(m.text);
          break;
        case 'editJson':
          lines[pick(m.line)] = editJsonLine(lines[pick(m.line)], m.path, m.value, m.remove);
          break;
      }
      return lines.length === 0 ? new Uint8Array(0) : joinLines(lines);
    }
  }
}

/** Small logs of the conformance corpus (valid or not; mutations make them interesting). */
function corpusLogs(subdir: 'real' | 'mutations'): Uint8Array[] {
  if (!hasShared()) return [];
  const dir = join(sharedDir(), 'conformance', subdir);
  return readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl') && statSync(join(dir, n)).size < 12_000)
    .sort()
    .map((n) => new Uint8Array(readFileSync(join(dir, n))));
}

// ------------------------------------------------------------------ comparing two loads

/** Everything a view reads from a log, as plain data, so two loads can be compared whole. */
function snapshot(log: SessionLog): Record<string, unknown> {
  return {
    verdict: log.verdict,
    header: log.header,
    scan: log.scan,
    eventCount: log.eventCount,
    upgradedSeqs: log.upgradedSeqs,
    surface: [...log.surface()],
    replacements: log.replacements(),
    replaceGeneration: log.replaceGeneration(),
    closers: log.closers,
    repairedSurface: [...log.repairedSurface()],
    sessionEventCount: log.sessionEventCount,
    strictSeed: log.strictSeed,
    transcript: log.transcript(),
    derived: log.deriveMessages(),
    cuts: log.balancedCuts(),
    diagnostics: log.diagnostics,
    events: Array.from({ length: log.eventCount }, (_, seq) => log.event(seq)),
  };
}

/** Loads `bytes` cut at `cuts` (sorted offsets) through loadSession + extend; checks every step against a fresh load. */
function followAndCompare(bytes: Uint8Array, cuts: number[]): SessionLog {
  const first = cuts[0] ?? bytes.length;
  const log = loadSession(bytes.slice(0, first));
  let previous = first;
  for (const cut of [...cuts.slice(1), bytes.length]) {
    if (cut === previous) continue;
    const result = log.extend(bytes.slice(previous, cut));
    previous = cut;
    const scratch = loadSession(bytes.slice(0, cut));
    assert.equal(result.added >= 0, true);
    assert.deepEqual(snapshot(log), snapshot(scratch), `after extending to byte ${cut} of ${bytes.length}`);
  }
  return log;
}

/** Random cut offsets after the header line (see the pending test below for cuts inside it). */
function cutsAfterHeader(bytes: Uint8Array, raw: number[]): number[] {
  const headerEnd = bytes.indexOf(0x0a) + 1;
  const room = bytes.length - headerEnd + 1;
  return [...new Set(raw.map((r) => headerEnd + (r % room)))].sort((a, b) => a - b);
}

// ------------------------------------------------------------------ the properties

describe('reader properties (fast-check)', function () {
  this.timeout(120_000);

  describe('(a) mutated logs never make the reader throw', () => {
    it('builder sessions, random byte and line mutations', () => {
      fc.assert(
        fc.property(arbSession, fc.array(arbMutation, { minLength: 1, maxLength: 4 }), fc.nat(), (spec, mutations, split) => {
          const bytes = mutations.reduce(mutate, sessionBytes(spec));
          exerciseLog(loadSession(bytes));
          exerciseLog(loadSessionFile(bytes).log);
          // The same bytes arriving in two pieces.
          const cut = split % (bytes.length + 1);
          const grown = loadSession(bytes.slice(0, cut));
          grown.extend(bytes.slice(cut));
          exerciseLog(grown);
        }),
        { numRuns: NUM_RUNS },
      );
    });

    const real = corpusLogs('real');
    (real.length > 0 ? it : it.skip)(`real conformance logs (${real.length} under 12 kB), random byte and line mutations`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...real), fc.array(arbMutation, { minLength: 1, maxLength: 4 }), (base, mutations) => {
          const bytes = mutations.reduce(mutate, base);
          const log = loadSession(bytes);
          exerciseLog(log);
          inspectLog(log);
        }),
        { numRuns: NUM_RUNS },
      );
    });
  });

  describe('(b) following a growing file equals a from-scratch load', () => {
    it('random valid sessions load ok and agree with the builder’s own model', () => {
      fc.assert(
        fc.property(arbSession, (spec) => {
          const b = buildSession(spec);
          const log = loadSession(b.bytes({ eol: spec.crlf ? '\r\n' : '\n' }));
          assert.deepEqual(log.verdict, { ok: true, stage: 'done' });
          assert.equal(log.eventCount, b.events.length);
          assert.deepEqual([...log.surface()], b.surface);
          assert.deepEqual(log.replacements(), b.replacements);
          assert.deepEqual(log.transcript(), b.transcript);
          assert.deepEqual(log.deriveMessages(), b.derivedMessages());
          const balance = b.balancedCuts();
          if ('cuts' in balance) assert.deepEqual(log.balancedCuts(), balance);
          else
            assert.match(
              (log.balancedCuts() as { error: string }).error,
              new RegExp(`tool/result at surface seq ${balance.negativeAt} has no matching tool-call`),
            );
          assert.equal(log.lastTurnOpen, spec.tail !== 'none');
          assert.equal(log.closers.at(-1)?.type, spec.tail === 'none' ? undefined : 'turn/end');
          for (let seq = 0; seq < b.events.length; seq++) assert.equal(JSON.stringify(log.event(seq)), JSON.stringify(b.events[seq]));
        }),
        { numRuns: NUM_RUNS },
      );
    });

    it('valid sessions: loadSession(prefix) + extend(chunk)… at random byte boundaries', () => {
      fc.assert(
        fc.property(arbSession, fc.array(fc.nat(), { maxLength: 8 }), (spec, raw) => {
          const bytes = sessionBytes(spec);
          const whole = loadSession(bytes);
          const followed = followAndCompare(bytes, cutsAfterHeader(bytes, raw));
          assert.deepEqual([...followed.surface()], [...whole.surface()]);
          assert.deepEqual(followed.replacements(), whole.replacements());
          assert.equal(followed.replaceGeneration(), whole.replaceGeneration());
          assert.deepEqual(followed.verdict, whole.verdict);
          assert.deepEqual(snapshot(followed), snapshot(whole));
        }),
        { numRuns: NUM_RUNS },
      );
    });

    it('damaged sessions too: the delta fold never diverges from a fresh load', () => {
      fc.assert(
        fc.property(
          arbSession,
          fc.array(arbMutation, { minLength: 1, maxLength: 3 }),
          fc.array(fc.nat(), { maxLength: 6 }),
          (spec, mutations, raw) => {
            const bytes = mutations.reduce(mutate, sessionBytes(spec));
            if (bytes.indexOf(0x0a) === -1) return; // no complete header: nothing to follow
            const followed = followAndCompare(bytes, cutsAfterHeader(bytes, raw));
            assert.deepEqual(snapshot(followed), snapshot(loadSession(bytes)));
          },
        ),
        { numRuns: NUM_RUNS },
      );
    });

    const corpus = [...corpusLogs('real'), ...corpusLogs('mutations')].filter((bytes) => bytes.indexOf(0x0a) !== -1);
    (corpus.length > 0 ? it : it.skip)(
      `conformance logs under 12 kB (${corpus.length}, every verdict): followed at random byte boundaries`,
      () => {
        fc.assert(
          fc.property(fc.constantFrom(...corpus), fc.array(fc.nat(), { maxLength: 6 }), (bytes, raw) => {
            const followed = followAndCompare(bytes, cutsAfterHeader(bytes, raw));
            assert.deepEqual(snapshot(followed), snapshot(loadSession(bytes)));
          }),
          { numRuns: NUM_RUNS },
        );
      },
    );

    // KNOWN CORE BUG (reported to the lead): a log loaded before its header line is complete keeps
    // the "empty or header-less session log" refusal forever, and extend() then reads the header as
    // an event line. dsh publishes the header with the first batch, so it is rare in practice (an
    // empty file being written, a copy in progress). Un-skip once SessionLog re-reads the header.
    it('a prefix that ends inside the header line, then extend()', () => {
      const bytes = buildSession({ steps: [{ kind: 'chat', prompt: 'hi', chunks: ['a'] }], tail: 'none', crlf: false }).bytes();
      for (const cut of [0, 10]) {
        const log = loadSession(bytes.slice(0, cut));
        log.extend(bytes.slice(cut));
        assert.deepEqual(snapshot(log), snapshot(loadSession(bytes)), `cut at ${cut}`);
      }
    });
  });
});
