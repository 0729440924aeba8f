// The v4 restore run as the catalog runs it: over the events as they are decoded, its checks side by
// side, holding no artifact. dsh runs the checks one after another over the whole artifact, so its
// refusal is the first one of the earliest check that has one (spec §6's order: the generation's own
// event rules, the cut, relationships, lifecycle, then the installed session's shapes and rewrites).
// Each case is judged twice: restoreV4 over the artifact in memory, and readGeneration over the same
// log written as dsh writes it (the decoded path, whose codec admitted every row).
import { strict as assert } from 'node:assert';
import { encodeArtifact, readGeneration, type Artifact, type EventPlace, type FormatEvent } from '../../src/core/format';
import { PassRefusals } from '../../src/core/format/restore-visit';
import { restoreV4, v4Codec } from '../../src/core/format/v3-to-v4';
import { loadSession } from '../../src/core';
import { artifactOf, baseV4Log, expectRefused, userMessage, withEvent, withInserted, type LooseEvent } from '../support/v4-artifacts';

const base = baseV4Log();
const events = base.list.events;
const at = base.seq;

function logBytes(artifact: Artifact): Uint8Array {
  return new TextEncoder().encode(encodeArtifact(artifact, v4Codec, { keepText: true }).text!);
}

/** Both paths refuse with `message` at the restore stage. */
function refusedBoth(artifact: Artifact, message: string): void {
  expectRefused(artifact, message);
  const verdict = readGeneration(logBytes(artifact), { targetVersion: 4 }).verdict;
  assert.equal(verdict.stage, 'restore', JSON.stringify(verdict));
  assert.equal(verdict.dshError, message);
}

function loadsBoth(artifact: Artifact): void {
  assert.equal(restoreV4(artifact), artifact);
  const verdict = readGeneration(logBytes(artifact), { targetVersion: 4 }).verdict;
  assert.equal(verdict.ok, true, JSON.stringify(verdict));
  assert.equal(verdict.events, artifact.events.length);
}

/** Appends events after the log's last one (seqs follow on). */
function appended(list: readonly FormatEvent[], ...more: Omit<FormatEvent, 'seq'>[]): LooseEvent[] {
  let out = list as LooseEvent[];
  for (const event of more) out = withInserted(out, out.length, event);
  return out;
}

const OUTSIDE_TURN = { type: 'request/context', time: 1, data: { provider: 'p', model: 'm', contextWindow: 1 } };
const OUTSIDE_TURN_REFUSAL = 'request/context is outside an open turn';

describe('format v4 restore, streamed: the refusal dsh throws (spec §6)', () => {
  describe('PassRefusals', () => {
    it('throws the first refusal of the earliest pass, and stops the passes after a certain one', () => {
      const refusals = new PassRefusals(4);
      let ran = 0;
      refusals.run(2, () => {
        throw new Error('a later pass, an early event');
      });
      refusals.run(2, () => ran++);
      assert.equal(ran, 0, 'a pass stops at its first refusal');
      assert.equal(refusals.matters(3), false, 'a pass after a certain refusal is moot');
      refusals.run(3, () => ran++);
      assert.equal(ran, 0);
      refusals.run(1, () => ran++);
      assert.equal(ran, 1, 'a pass before it goes on: its refusal would win');
      refusals.run(0, () => {
        throw new Error('an earlier pass, a later event');
      });
      assert.equal(refusals.matters(1), false);
      assert.throws(() => refusals.throwOf(0), /an earlier pass, a later event/);
    });

    it('lets a held-back refusal overrule what its pass refused after it', () => {
      const refusals = new PassRefusals(2);
      refusals.refuse(1, new Error('later'));
      refusals.overrule(1, new Error('held back, earlier'));
      assert.throws(() => refusals.throwOf(1), /held back, earlier/);
    });
  });

  it('§6: an event rule broken late wins over a lifecycle rule broken early', () => {
    const early = withEvent(events, 0, (e) => (e.data.turn = 2));
    const late = appended(early, { type: 'x/not-v4', time: 1, data: {} });
    refusedBoth(artifactOf(early), 'turn/start does not open the expected turn');
    refusedBoth(artifactOf(late), `format v4 contains unknown event type "x/not-v4" at seq ${late.length - 1}`);
  });

  it('§6: a lifecycle rule broken late wins over an installed-session shape broken early', () => {
    const noReason = withEvent(events, at.header, (e) => delete e.data.reason);
    refusedBoth(artifactOf(noReason), 'format v4 request/header at seq 5 has an invalid reason');
    refusedBoth(artifactOf(appended(noReason, OUTSIDE_TURN)), OUTSIDE_TURN_REFUSAL);
  });

  describe('a turn boundary crossing a compaction, held back until the log tells (§6, §7)', () => {
    const crossing = withInserted(events, events.length - 1, { type: 'compaction/start', time: 1, data: { compactionId: 'k1', turn: 1 } });
    const failedEnd = { type: 'compaction/end', time: 1, data: { compactionId: 'k1', turn: 1, error: { message: 'x' } } };

    it('the crossing stands when the compaction ends later, and wins over what the lifecycle refuses after it', () => {
      refusedBoth(artifactOf(appended(crossing, failedEnd, OUTSIDE_TURN)), 'turn/end crosses an open compaction');
    });

    it('the crossing stands when the log ends with the compaction open', () => {
      refusedBoth(artifactOf(crossing), 'turn/end crosses an open compaction');
    });

    it('a seed marker shows the compaction was the inherited prefix’s: the crossing falls, later rules still apply', () => {
      const seeded = appended(crossing, { type: 'session/end-seed', time: 1, data: { inherited: true } });
      loadsBoth(artifactOf(seeded, { isSeeded: true, parentSession: 'p' }, crossing.length));
      refusedBoth(
        artifactOf(appended(seeded, OUTSIDE_TURN), { isSeeded: true, parentSession: 'p' }, crossing.length),
        OUTSIDE_TURN_REFUSAL,
      );
    });
  });

  describe('rules that depend on the inherited cut, judged once the rows end (§5, §6)', () => {
    const marker = (sessionId: string) => ({
      type: 'session-log-deepseek/delivery-accepted',
      time: 1,
      data: { sessionId, sessionFormatVersion: 4, throughSeq: 1 },
    });
    const seed = { type: 'session/end-seed', time: 1, data: { inherited: true } };
    const child = { isSeeded: true, parentSession: 'parent' };

    it('a delivery marker naming the parent is excused before the cut only', () => {
      const inherited = appended(events, marker('parent'), seed);
      loadsBoth(artifactOf(inherited, child, inherited.length - 1));
      const own = appended(events, seed, marker('parent'));
      refusedBoth(artifactOf(own, child, own.length - 2), 'current-generation delivery marker names the wrong Session');
    });

    it('a refused marker after the cut wins over a relationship broken after it', () => {
      const unowned = { type: 'user/message', time: 1, data: userMessage('u9', 'later', { kind: '' }), surfaceOp: 'append' };
      const wrong = appended(events, seed, marker('parent'), unowned);
      refusedBoth(artifactOf(wrong, child, events.length), 'current-generation delivery marker names the wrong Session');
      const right = appended(events, seed, marker('session-v4'), unowned);
      refusedBoth(artifactOf(right, child, events.length), 'format v4 message requires a producer-owned source kind');
    });

    it('catalog children count from the cut: one inherited and one own entry for a child are not a duplicate', () => {
      const fact = { type: 'subagent/catalog', time: 1, data: { version: 0, childId: 'c1', childCreatedAt: 5, mode: 'one-shot' } };
      const split = appended(events, fact, seed, fact);
      loadsBoth(artifactOf(split, child, events.length + 1));
      refusedBoth(artifactOf(appended(split, fact), child, events.length + 1), 'duplicate catalog child c1');
    });
  });
});

describe('readGeneration hands the events on as they are decoded', () => {
  const artifact = artifactOf(events);
  const bytes = logBytes(artifact);

  it('gives each event with its row’s place, and holds the artifact only when asked', () => {
    const seen: { event: FormatEvent; place: EventPlace }[] = [];
    const read = readGeneration(bytes, { targetVersion: 4, encode: false, onEvent: (event, place) => seen.push({ event, place }) });
    assert.equal(read.verdict.ok, true);
    assert.equal(read.artifact, undefined, 'no artifact without encoding');
    assert.deepEqual(
      seen.map(({ event }) => event),
      events,
    );
    const text = new TextDecoder().decode(bytes);
    const lines = text.split('\n');
    seen.forEach(({ place }, index) => {
      assert.equal(place.line, index + 2);
      assert.equal(place.member, -1);
      assert.equal(text.slice(place.offset, place.offset + place.length), lines[index + 1]);
    });
    const kept = readGeneration(bytes, { targetVersion: 4, encode: false, keepArtifact: true });
    assert.deepEqual(kept.artifact?.events, events);
    assert.ok(readGeneration(bytes, { targetVersion: 4 }).artifact, 'encoding keeps it');
  });

  it('passes on what the callback throws: it is the caller’s failure, not the file’s', () => {
    const failure = new Error('the caller failed');
    assert.throws(
      () =>
        readGeneration(bytes, {
          targetVersion: 4,
          onEvent: () => {
            throw failure;
          },
        }),
      (error) => error === failure,
    );
  });
});

describe('the model reads a v4 log as it is decoded', () => {
  const ok = logBytes(artifactOf(events));

  it('keeps the events of a log dsh opens, the same whether read at once or followed line by line', () => {
    const log = loadSession(ok, { fileName: 'session.v4.jsonl' });
    assert.equal(log.verdict.ok, true);
    assert.equal(log.eventCount, events.length);
    const text = new TextDecoder().decode(ok);
    const cut = text.indexOf('\n', text.indexOf('\n') + 1) + 1;
    const followed = loadSession(ok.subarray(0, cut), { fileName: 'session.v4.jsonl' });
    followed.extend(ok.subarray(cut));
    assert.equal(followed.eventCount, events.length);
    assert.deepEqual([...followed.surface()], [...log.surface()]);
    assert.deepEqual(followed.diagnostics, log.diagnostics);
  });

  it('keeps none of a log dsh refuses after its events were handed on, as dsh keeps none', () => {
    const refused = logBytes(artifactOf(appended(events, OUTSIDE_TURN)));
    const log = loadSession(refused, { fileName: 'session.v4.jsonl' });
    assert.equal(log.verdict.ok, false);
    assert.equal(log.verdict.dshError, OUTSIDE_TURN_REFUSAL);
    assert.equal(log.eventCount, 0);
    assert.deepEqual([...log.surface()], []);
    assert.deepEqual(log.closers, []);
    assert.deepEqual(
      log.diagnostics.map((d) => d.message),
      [OUTSIDE_TURN_REFUSAL],
    );
  });

  it('a followed log that a new line makes refused keeps the events it had', () => {
    const log = loadSession(ok, { fileName: 'session.v4.jsonl' });
    const line = new TextEncoder().encode(JSON.stringify({ ...OUTSIDE_TURN, seq: events.length }) + '\n');
    const grown = log.extend(line);
    assert.equal(grown.added, 0);
    assert.equal(log.verdict.ok, false);
    assert.equal(log.eventCount, events.length);
  });
});
