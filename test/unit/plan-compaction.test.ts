// planCompaction: the exact bytes of an accepted manual compaction (reloaded, they load and re-serialize
// to the same lines), and each reason for a refusal — all reasons at once.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appendBytes,
  checkInvariants,
  COMPACTION_PREAMBLE,
  loadSession,
  planCompaction,
  provenanceIndex,
  serializeEvent,
  type CompactionInput,
  type PlanResult,
  type SessionLog,
} from '../../src/core';
import { LogBuilder, richLog } from '../support/build-log';
import { hasShared, sharedDir } from '../support/paths';
import { distinctKeyOrder } from '../support/key-order';
import { load } from '../support/stream-helpers';

const input = (start: number, end: number, extra: Partial<CompactionInput> = {}): CompactionInput => ({
  start,
  end,
  summary: [{ type: 'text', text: 'They asked three things; I read a and b.' }],
  compactionId: 'cmp-1',
  messageId: 'chk-1',
  time: 1_786_000_999_000,
  shadowedTokenCount: 321,
  provider: 'sum-p',
  model: 'sum-m',
  ...extra,
});

/** chat turn, tool turn (calls a, b), chat turn: surface of 9 nodes, balanced cuts 0,1,2,3,6,7,8,9. */
function threeTurns(): { b: LogBuilder; log: SessionLog; nodes: readonly number[] } {
  const b = new LogBuilder();
  b.chatTurn('one');
  b.toolTurn('two', ['a', 'b']);
  b.chatTurn('three');
  const log = load(b);
  assert.deepEqual(log.balancedCuts(), { cuts: [0, 1, 2, 3, 6, 7, 8, 9] });
  return { b, log, nodes: log.surface() };
}

function refused(plan: PlanResult): { rule: string; message: string; seq?: number; line?: number }[] {
  assert.equal(plan.ok, false, 'expected a refusal');
  return (plan as { reasons: { rule: string; message: string; seq?: number; line?: number }[] }).reasons;
}

describe('planCompaction', () => {
  describe('an accepted plan', () => {
    it('is the four events dsh writes, byte for byte', () => {
      const { log, nodes } = threeTurns();
      const first = log.eventCount;
      const plan = planCompaction(log, input(nodes[0], nodes[5]));
      assert.ok(plan.ok, JSON.stringify(plan));
      const shadowed = nodes.slice(0, 6);
      const t = 1_786_000_999_000;
      assert.deepEqual(plan.lines, [
        `{"type":"compaction/start","seq":${first},"time":${t},"data":{"compactionId":"cmp-1","turn":null}}`,
        `{"type":"compaction/summary","seq":${first + 1},"time":${t},"data":{"compactionId":"cmp-1","summary":[{"type":"text","text":"They asked three things; I read a and b."}],"shadowedRange":{"start":${nodes[0]},"end":${nodes[5]}},"shadowedSeqs":[${shadowed}],"shadowedTokenCount":321,"provider":"sum-p","model":"sum-m"}}`,
        `{"type":"user/message","seq":${first + 2},"time":${t},"data":{"content":[{"type":"text","text":${JSON.stringify(`${COMPACTION_PREAMBLE}\n\n<compacted-summary>`)}},{"type":"text","text":"They asked three things; I read a and b."},{"type":"text","text":"</compacted-summary>"}],"source":{"kind":"plugin","plugin":"compact","compactionId":"cmp-1"},"role":"user","id":"chk-1"},"sourceEventSeqs":[${first},${first + 1},${shadowed}],"surfaceOp":{"op":"replace","start":${nodes[0]},"end":${nodes[5]}}}`,
        `{"type":"compaction/end","seq":${first + 3},"time":${t},"data":{"compactionId":"cmp-1","turn":null}}`,
      ]);
      assert.deepEqual(plan.lines, plan.events.map(serializeEvent));
    });

    it('appended to the file bytes, loads with verdict ok and re-serializes to the same lines', () => {
      const { b, log, nodes } = threeTurns();
      const plan = planCompaction(log, input(nodes[1], nodes[6]));
      assert.ok(plan.ok, JSON.stringify(plan));
      const before = b.bytes();
      const after = loadSession(new Uint8Array([...before, ...appendBytes(plan.lines)]));
      assert.deepEqual(after.verdict, { ok: true, stage: 'done' });
      assert.equal(after.scan.committedBytes, before.length + appendBytes(plan.lines).length);
      const checkpoint = log.eventCount + 2;
      assert.deepEqual(after.surface(), [nodes[0], checkpoint, nodes[7], nodes[8]]);
      assert.deepEqual(after.replacements().at(-1), { seq: checkpoint, start: nodes[1], end: nodes[6], shadowedSeqs: nodes.slice(1, 7) });
      for (const [k, line] of plan.lines.entries()) {
        assert.equal(after.lineText(log.eventCount + k), line);
        assert.equal(serializeEvent(after.event(log.eventCount + k)!), line);
      }
      assert.deepEqual(checkInvariants(after), []);
      assert.deepEqual(
        provenanceIndex(after).diagnostics.filter((d) => d.severity === 'warning'),
        [],
      );
      assert.deepEqual(provenanceIndex(after).shadowedBy(checkpoint), nodes.slice(1, 7));
    });

    it('passes the same validation as an in-memory append', () => {
      const { log, nodes } = threeTurns();
      const plan = planCompaction(log, input(nodes[7], nodes[8], { preamble: 'Our own words.' }));
      assert.ok(plan.ok);
      assert.equal(plan.events[2].data.content[0].text, 'Our own words.\n\n<compacted-summary>');
      const appended = log.append(plan.events as never);
      assert.ok(appended.ok, JSON.stringify(appended));
      assert.deepEqual(appended.lines, plan.lines);
    });

    it('lets a session/end-seed retire a crashed compaction/start', () => {
      const b = new LogBuilder();
      b.chatTurn('one');
      b.event('compaction/start', { compactionId: 'crashed', turn: null });
      b.event('session/end-seed', {});
      const log = load(b);
      const nodes = log.surface();
      assert.ok(planCompaction(log, input(nodes[0], nodes[1])).ok);
    });

    it('keeps dsh’s key order (fixture v0-compaction-replace-recovery)', function () {
      if (!hasShared()) this.skip();
      const text = readFileSync(join(sharedDir(), 'fixtures', 'dsh-real', 'v0-compaction-replace-recovery.jsonl'), 'utf8');
      const theirs = text
        .split('\n')
        .filter((l) => /"type":"compaction\/|"plugin":"compact"/.test(l))
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        theirs.map((e) => e.type),
        ['compaction/start', 'compaction/summary', 'user/message', 'compaction/end'],
      );
      const { log, nodes } = threeTurns();
      const plan = planCompaction(log, input(nodes[0], nodes[2]));
      assert.ok(plan.ok);
      for (const [k, line] of plan.lines.entries()) {
        const ours = distinctKeyOrder(JSON.parse(line));
        // dsh's automatic compaction records more (rawOutput, usage…); the keys we share come in its order.
        const dsh = distinctKeyOrder(theirs[k]).filter((key) => ours.includes(key));
        assert.deepEqual(ours, dsh, theirs[k].type);
      }
    });
  });

  describe('a refusal', () => {
    it('names an unbalanced cut before start and the call it splits', () => {
      const { b, log, nodes } = threeTurns();
      const reasons = refused(planCompaction(log, input(nodes[4], nodes[5])));
      assert.equal(reasons.length, 1);
      assert.equal(reasons[0].rule, 'compaction.balanced-cut');
      assert.match(
        reasons[0].message,
        new RegExp(
          `^the cut before seq ${nodes[4]} \\(start\\) is not balanced: tool call "b" of assistant/message seq ${nodes[3]} is unanswered there; its tool/result is seq ${nodes[5]}, after the cut \\(1 more call also open\\)$`,
        ),
      );
      assert.equal(reasons[0].seq, nodes[4]);
      assert.equal(reasons[0].line, b.lineOf[nodes[4]] + 1);
    });

    it('names an unbalanced cut after end', () => {
      const { log, nodes } = threeTurns();
      const reasons = refused(planCompaction(log, input(nodes[0], nodes[4])));
      assert.deepEqual(
        reasons.map((r) => r.rule),
        ['compaction.balanced-cut'],
      );
      assert.match(
        reasons[0].message,
        new RegExp(
          `^the cut after seq ${nodes[4]} \\(end\\) is not balanced: tool call "b" .* its tool/result is seq ${nodes[5]}, after the cut$`,
        ),
      );
    });

    it('names both cuts when both are unbalanced', () => {
      const { log, nodes } = threeTurns();
      const reasons = refused(planCompaction(log, input(nodes[4], nodes[4])));
      assert.deepEqual(
        reasons.map((r) => r.message.slice(0, 18)),
        ['the cut before seq', 'the cut after seq '],
      );
    });

    it('refuses endpoints that are not on the surface, or reversed', () => {
      const b = richLog();
      const log = load(b);
      const shadowed = log.replacements()[0].shadowedSeqs[0];
      const nodes = log.surface();
      const reasons = refused(planCompaction(log, input(shadowed, 99_999)));
      assert.deepEqual(
        reasons.map((r) => r.rule),
        ['replace.endpoints-on-current-surface', 'replace.endpoints-on-current-surface'],
      );
      assert.match(
        reasons[0].message,
        new RegExp(`start seq ${shadowed} is no longer on the surface: the replace at seq ${log.replacements()[0].seq} shadowed it`),
      );
      assert.match(reasons[1].message, /end seq 99999 is not an event of this log/);
      const stepStart = b.events.findIndex((e) => e.type === 'step/start');
      assert.match(
        refused(planCompaction(log, input(stepStart, nodes[0])))[0].message,
        /start seq \d+ \(step\/start\) is not a surface node/,
      );
      const reversed = refused(planCompaction(log, input(nodes[1], nodes[0])));
      assert.deepEqual(
        reversed.map((r) => r.rule),
        ['replace.endpoint-order'],
      );
    });

    it('refuses while a compaction is in progress', () => {
      const b = new LogBuilder();
      b.chatTurn('one');
      const start = b.event('compaction/start', { compactionId: 'running', turn: null });
      const log = load(b);
      const nodes = log.surface();
      const reasons = refused(planCompaction(log, input(nodes[0], nodes[1])));
      assert.deepEqual(
        reasons.map((r) => [r.rule, r.seq]),
        [['compaction.in-progress', start]],
      );
    });

    it('refuses a manual compaction while a turn is open', () => {
      const log = load(richLog({ openTail: 'open-step' }));
      const nodes = log.surface();
      assert.deepEqual(
        refused(planCompaction(log, input(nodes[0], nodes[0]))).map((r) => r.rule),
        ['compaction.turn-open'],
      );
    });

    it('refuses a log dsh refuses, and a torn tail', () => {
      const bad = new LogBuilder({ cwd: 'relative/path' });
      bad.chatTurn('one');
      const refusedLog = load(bad);
      assert.equal(refusedLog.verdict.ok, false);
      const nodes = refusedLog.surface();
      assert.deepEqual(
        refused(planCompaction(refusedLog, input(nodes[0], nodes[1]))).map((r) => r.rule),
        ['append.refused-log'],
      );

      const b = new LogBuilder();
      b.chatTurn('one');
      const torn = loadSession(b.bytes({ tornTail: '{"type":"turn/st' }));
      assert.ok(torn.verdict.ok);
      assert.deepEqual(
        refused(planCompaction(torn, input(torn.surface()[0], torn.surface()[1]))).map((r) => r.rule),
        ['jsonl.torn-tail'],
      );
    });

    it('lists every reason at once', () => {
      const b = new LogBuilder();
      b.toolTurn('two', ['a', 'b']);
      b.event('compaction/start', { compactionId: 'running', turn: null });
      b.turnStart();
      const log = load(b);
      const nodes = log.surface();
      const reasons = refused(planCompaction(log, input(nodes[2], nodes[2], { compactionId: '', shadowedTokenCount: -1, summary: [] })));
      assert.deepEqual(reasons.map((r) => r.rule).sort(), [
        'compaction.balanced-cut',
        'compaction.balanced-cut',
        'compaction.in-progress',
        'compaction.turn-open',
        'plan.input',
        'plan.input',
        'plan.input',
      ]);
    });
  });
});
