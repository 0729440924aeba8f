// SessionLog.fork: a copy of a loaded log to plan edits on. It must read exactly as the same bytes
// loaded afresh (plus whatever was appended to it), share nothing its origin could change, and parse
// nothing again: only the lines appended to it. Checked on built logs, on every real log of the shared
// corpus, and on a zstd log.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appendBytes,
  checkInvariants,
  compactionEdit,
  extendLoadedFile,
  loadSession,
  loadSessionFile,
  planCompaction,
  provenanceIndex,
  type PlanResult,
  type SessionLog,
} from '../../src/core';
import { encodeZstdFrame } from '../../src/core/zstd';
import { LogBuilder } from '../support/build-log';
import { hasShared, sharedDir } from '../support/paths';

const T = 1_786_000_999_000;

/** Everything a reader of the log can ask, as plain JSON: two logs that answer alike are alike. */
function answers(log: SessionLog): unknown {
  const count = log.eventCount;
  const seqs = Array.from({ length: count + log.closers.length + 1 }, (_, seq) => seq);
  return {
    count,
    verdict: log.verdict,
    strictSeed: log.strictSeed,
    scan: log.scan,
    header: log.header,
    diagnostics: log.diagnostics,
    beyondDamage: log.linesBeyondDamage,
    upgraded: log.upgradedSeqs,
    lastTurnOpen: log.lastTurnOpen,
    sessionEventCount: log.sessionEventCount,
    surface: log.surface(),
    replacements: log.replacements(),
    generation: log.replaceGeneration(),
    repaired: [log.repairedSurface(), log.repairedReplacements(), log.repairedReplaceGeneration()],
    closers: log.closers,
    messages: log.deriveMessages(),
    cuts: log.balancedCuts(),
    transcript: log.transcript(),
    scannedBytes: log.scannedBytes,
    events: seqs.map((seq) => [
      log.event(seq),
      log.eventType(seq),
      log.turn(seq),
      log.step(seq),
      log.surfaceRole(seq),
      log.place(seq),
      log.lineText(seq),
    ]),
  };
}

/** The whole-log facts (provenance, invariants), which a fork gathers only when asked. */
function facts(log: SessionLog): unknown {
  const provenance = provenanceIndex(log);
  return { invariants: checkInvariants(log), provenance: provenance.diagnostics, summary: provenance.summary() };
}

/** A compaction of the first balanced span of the surface, or undefined when the log has none to compact. */
function firstCompaction(log: SessionLog, n = 1): PlanResult | undefined {
  const nodes = log.surface();
  const balance = log.balancedCuts();
  if (!log.verdict.ok || log.lastTurnOpen || 'error' in balance || balance.cuts.length < 2) return undefined;
  const [a, b] = balance.cuts;
  if (b === undefined || b <= a) return undefined;
  const edit = compactionEdit(log, {
    start: nodes[a],
    end: nodes[b - 1],
    summaryText: `summary ${n}`,
    compactionId: `cmp-${n}`,
    messageId: `chk-${n}`,
    time: T,
  });
  if (edit.kind !== 'compaction') return undefined;
  return planCompaction(log, edit.input);
}

/** Counts JSON.parse calls while `run` runs. */
function parses(run: () => void): number {
  const parse = JSON.parse;
  let calls = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    calls += 1;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    run();
  } finally {
    JSON.parse = parse;
  }
  return calls;
}

function builtLog(): LogBuilder {
  const b = new LogBuilder();
  b.chatTurn('one');
  b.toolTurn('two', ['a', 'b']);
  b.chatTurn('three', ['thr', 'ee', ' ', 'parts']);
  b.chatTurn('four');
  return b;
}

describe('SessionLog.fork', () => {
  it('reads as the same bytes loaded afresh, and with a compaction appended as the bytes with its lines', () => {
    const b = builtLog();
    const log = loadSession(b.bytes());
    const fork = log.fork();
    assert.deepEqual(answers(fork), answers(log));
    const plan = firstCompaction(fork);
    assert.ok(plan?.ok, JSON.stringify(plan));
    assert.deepEqual(fork.append(plan.events as never), { ok: true, lines: plan.lines });
    const reread = loadSession(new Uint8Array([...b.bytes(), ...appendBytes(plan.lines)]));
    assert.deepEqual(answers(fork), answers(reread));
    assert.deepEqual(facts(fork), facts(reread));
  });

  it('neither side sees the other’s appends: the origin stays as loaded, and a writer’s append to it stays out of the fork', () => {
    const b = builtLog();
    const log = loadSession(b.bytes());
    const before = answers(log);
    const fork = log.fork();
    const plan = firstCompaction(fork);
    assert.ok(plan?.ok);
    fork.append(plan.events as never);
    assert.deepEqual(answers(log), before, 'the origin is untouched by the fork’s append');
    const forked = answers(fork);
    // A writer appends to the origin (the document follows the file): the fork keeps its own events.
    const loadedBytes = b.bytes().length;
    b.chatTurn('five, written by the agent');
    const added = log.extend(b.bytes().subarray(loadedBytes)).added;
    assert.ok(added > 0);
    assert.deepEqual(answers(fork), forked, 'the fork is untouched by the origin’s growth');
    assert.deepEqual(answers(log), answers(loadSession(b.bytes())));
  });

  it('two forks of one log, and a fork of a fork, each hold only their own appends', () => {
    const b = builtLog();
    const log = loadSession(b.bytes());
    const one = log.fork();
    const two = log.fork();
    const first = firstCompaction(one, 1);
    assert.ok(first?.ok);
    one.append(first.events as never);
    const deeper = one.fork();
    const second = firstCompaction(deeper, 2);
    assert.ok(second?.ok);
    deeper.append(second.events as never);
    const other = firstCompaction(two, 3);
    assert.ok(other?.ok);
    two.append(other.events as never);
    const bytes = b.bytes();
    assert.deepEqual(answers(one), answers(loadSession(new Uint8Array([...bytes, ...appendBytes(first.lines)]))));
    assert.deepEqual(answers(two), answers(loadSession(new Uint8Array([...bytes, ...appendBytes(other.lines)]))));
    const both = new Uint8Array([...bytes, ...appendBytes(first.lines), ...appendBytes(second.lines)]);
    assert.deepEqual(answers(deeper), answers(loadSession(both)));
    assert.deepEqual(facts(deeper), facts(loadSession(both)));
  });

  it('parses nothing again: forking and appending a compaction parses only its four lines', () => {
    const b = new LogBuilder();
    for (let turn = 0; turn < 200; turn++) b.chatTurn(`turn ${turn}`, ['a', 'b', 'c', 'd']);
    const log = loadSession(b.bytes());
    const plan = firstCompaction(log);
    assert.ok(plan?.ok);
    let fork: SessionLog | undefined;
    const calls = parses(() => {
      fork = log.fork();
      fork.append(plan.events as never);
      fork.surface();
      fork.verdict;
    });
    assert.ok(calls <= 8, `${calls} JSON.parse calls for a 4-event append to a ${log.eventCount}-event log`);
    // The whole-log facts are gathered only when asked (planning never asks), and then they are right.
    const reread = loadSession(new Uint8Array([...b.bytes(), ...appendBytes(plan.lines)]));
    assert.deepEqual(facts(fork!), facts(reread));
    assert.ok(parses(() => facts(fork!)) < log.eventCount, 'once gathered, the facts are not gathered again');
  });

  it('a fork goes on with a line its origin has not finished (a torn tail), even inside a UTF-8 character', () => {
    const b = builtLog();
    const text = b.bytes();
    const next = new TextEncoder().encode(
      `${JSON.stringify({ type: 'feedback/record', seq: loadSession(text).eventCount, time: T, data: { text: 'größer — ünïcödé' } })}\n`,
    );
    // Cut inside the two bytes of "ö": the origin holds a torn tail ending half way through a character.
    const cut = next.indexOf(0xc3) + 1;
    const log = loadSession(new Uint8Array([...text, ...next.subarray(0, cut)]));
    assert.equal(log.scan.stoppedAt, 'torn-tail');
    const fork = log.fork();
    assert.equal(fork.extend(next.subarray(cut)).added, 1);
    assert.deepEqual(answers(fork), answers(loadSession(new Uint8Array([...text, ...next]))));
    assert.equal(log.scan.stoppedAt, 'torn-tail', 'the origin still ends in its torn tail');
  });

  it('forks a zstd log’s text the same way (a compaction appended, the follow state untouched)', () => {
    const b = builtLog();
    const text = b.bytes();
    const newline = text.indexOf(0x0a) + 1;
    const file = new Uint8Array([...encodeZstdFrame(text.subarray(0, newline)), ...encodeZstdFrame(text.subarray(newline))]);
    const loaded = loadSessionFile(file);
    assert.ok(loaded.zstd && loaded.follow);
    const fork = loaded.log.fork();
    const plan = firstCompaction(fork);
    assert.ok(plan?.ok);
    fork.append(plan.events as never);
    assert.deepEqual(answers(fork), answers(loadSession(new Uint8Array([...text, ...appendBytes(plan.lines)]))));
    // The origin still follows its file: a frame the writer appends folds in as before.
    b.chatTurn('five');
    const added = extendLoadedFile(loaded, encodeZstdFrame(b.bytes().subarray(text.length)));
    assert.ok(added.added > 0);
    assert.deepEqual(answers(loaded.log), answers(loadSession(b.bytes())));
  });
});

describe('SessionLog.fork over the real logs of the shared corpus', () => {
  const dir = join(sharedDir(), 'conformance', 'real');
  if (!existsSync(dir)) {
    if (process.env.CI === 'true' && !hasShared())
      it('has the corpus', () => assert.fail(`../shared is required under CI=true (looked for ${dir}; set SHARED_DIR to its location)`));
    else
      it(`is skipped: no real logs at ${dir}`, function () {
        this.skip();
      });
    return;
  }
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  it('finds the real logs', () => assert.ok(names.length > 10, `${names.length} logs in ${dir}`));
  for (const name of names) {
    it(`${name}: a fork reads as the log, and with a compaction appended as the log with its lines`, () => {
      const bytes = new Uint8Array(readFileSync(join(dir, name)));
      const log = loadSession(bytes, { fileName: name });
      const fork = log.fork();
      assert.deepEqual(answers(fork), answers(log));
      const plan = firstCompaction(fork);
      if (!plan?.ok) return; // refused, open or nothing to compact: the read side above is what counts
      fork.append(plan.events as never);
      const reread = loadSession(new Uint8Array([...bytes, ...appendBytes(plan.lines)]), { fileName: name });
      assert.deepEqual(answers(fork), answers(reread));
      assert.deepEqual(facts(fork), facts(reread));
      assert.deepEqual(answers(log), answers(loadSession(bytes, { fileName: name })), 'the origin is untouched');
    });
  }
});
