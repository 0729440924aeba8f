// planToolResultPrune (spec §6.4): compaction/prune + a tool/result that changes only the inner
// result content, byte for byte; and each reason for a refusal.
import { strict as assert } from 'node:assert';
import { appendBytes, checkInvariants, loadSession, planToolResultPrune, serializeEvent, type PlanResult } from '../../src/core';
import { LogBuilder } from '../support/build-log';
import { load } from '../support/stream-helpers';

const gone = [{ type: 'text', text: '[output pruned]' }];

function refusedRules(plan: PlanResult): string[] {
  assert.equal(plan.ok, false, 'expected a refusal');
  return (plan as { reasons: { rule: string }[] }).reasons.map((r) => r.rule);
}

describe('planToolResultPrune', () => {
  it('writes the prune and the rewritten result dsh’s pruner writes', () => {
    const b = new LogBuilder();
    const [result] = b.toolTurn('read', ['a']);
    const log = load(b);
    const original = log.lineText(result)!;
    const first = log.eventCount;
    const plan = planToolResultPrune(log, result, gone, { shadowedTokenCount: 42, time: 7 });
    assert.ok(plan.ok, JSON.stringify(plan));
    const rewritten = original
      .replace(`"seq":${result},`, `"seq":${first + 1},`)
      .replace(/"time":\d+,/, '"time":7,')
      .replace('[{"type":"text","text":"contents for a"}]', JSON.stringify(gone))
      .replace(
        /,"sourceEventSeqs":\[\d+\],"surfaceOp":"append"}$/,
        `,"sourceEventSeqs":[${result}],"surfaceOp":{"op":"replace","start":${result},"end":${result}}}`,
      );
    assert.deepEqual(plan.lines, [
      `{"type":"compaction/prune","seq":${first},"time":7,"data":{"shadowedRange":{"start":${result},"end":${result}},"shadowedSeqs":[${result}],"shadowedTokenCount":42}}`,
      rewritten,
    ]);
    assert.notEqual(rewritten, original);
    assert.deepEqual(plan.lines, plan.events.map(serializeEvent));
  });

  it('reloads with verdict ok: the rewrite takes the original’s place and only the content changed', () => {
    const b = new LogBuilder();
    const [result] = b.toolTurn('read', ['a', 'b']);
    const log = load(b);
    const plan = planToolResultPrune(log, result, gone);
    assert.ok(plan.ok);
    const after = loadSession(new Uint8Array([...b.bytes(), ...appendBytes(plan.lines)]));
    assert.deepEqual(after.verdict, { ok: true, stage: 'done' });
    const rewrite = log.eventCount + 1;
    assert.deepEqual(
      after.surface(),
      log.surface().map((seq) => (seq === result ? rewrite : seq)),
    );
    const blank = (data: any) => ({ ...data, message: { ...data.message, content: [{ ...data.message.content[0], content: null }] } });
    assert.deepEqual(blank(after.event(rewrite)!.data), blank(log.event(result)!.data));
    assert.deepEqual(after.event(rewrite)!.data.message.content[0].content, gone);
    for (const [k, line] of plan.lines.entries()) assert.equal(serializeEvent(after.event(log.eventCount + k)!), line);
  });

  it('defaults the time to the last event’s and estimates the token price', () => {
    const b = new LogBuilder();
    const [result] = b.toolTurn('read', ['a']);
    const log = load(b);
    const plan = planToolResultPrune(log, result, gone);
    assert.ok(plan.ok);
    assert.equal(plan.events[0].time, log.event(log.eventCount - 1)!.time);
    const bytes = new TextEncoder().encode(JSON.stringify([{ type: 'text', text: 'contents for a' }])).length;
    assert.equal(plan.events[0].data.shadowedTokenCount, Math.ceil(bytes / 4));
  });

  it('notes a prune between turns, which the invariants then flag; inside a turn it is clean', () => {
    const b = new LogBuilder();
    const [result] = b.toolTurn('read', ['a']);
    const between = planToolResultPrune(load(b), result, gone);
    assert.ok(between.ok);
    assert.deepEqual(
      between.notes.map((n) => n.rule),
      ['invariant.turn-scope'],
    );
    const afterBetween = loadSession(new Uint8Array([...b.bytes(), ...appendBytes(between.lines)]));
    assert.deepEqual(
      checkInvariants(afterBetween).map((d) => [d.rule, d.seq]),
      [['invariant.turn-scope', between.events[1].seq]],
    );

    const inside = new LogBuilder();
    inside.turnStart();
    inside.user('read');
    inside.stepStart();
    inside.assistant({ toolCalls: [{ id: 'a' }] });
    inside.toolCall('a');
    const open = inside.toolResult('a', 'long output');
    const plan = planToolResultPrune(load(inside), open, gone);
    assert.ok(plan.ok);
    assert.deepEqual(plan.notes, []);
    for (const line of plan.lines) inside.rawLine(line);
    inside.rawLine(JSON.stringify({ type: 'step/end', seq: plan.events[1].seq + 1, time: 9, data: { turn: 1, step: 1 } }));
    inside.rawLine(
      JSON.stringify({ type: 'turn/end', seq: plan.events[1].seq + 2, time: 9, data: { turn: 1, reason: { kind: 'completed' } } }),
    );
    const closed = load(inside);
    assert.ok(closed.verdict.ok);
    assert.deepEqual(checkInvariants(closed), []);
  });

  it('prunes a result that was already pruned (the rewrite is the surface node now)', () => {
    const b = new LogBuilder();
    const [result] = b.toolTurn('read', ['a']);
    const rewrite = b.prune(result, 'first prune');
    const log = load(b);
    assert.ok(planToolResultPrune(log, rewrite, gone).ok);
    assert.deepEqual(refusedRules(planToolResultPrune(log, result, gone)), ['replace.endpoints-on-current-surface']);
  });

  describe('refuses', () => {
    it('a seq that is not a tool/result, or not in the log', () => {
      const b = new LogBuilder();
      b.toolTurn('read', ['a']);
      const log = load(b);
      const user = log.surface()[0];
      assert.deepEqual(refusedRules(planToolResultPrune(log, user, gone)), ['prune.not-tool-result']);
      assert.deepEqual(refusedRules(planToolResultPrune(log, 10_000, gone)), ['prune.not-tool-result']);
      assert.deepEqual(refusedRules(planToolResultPrune(log, -1, gone)), ['prune.not-tool-result']);
    });

    it('content that is not an array, or unchanged', () => {
      const b = new LogBuilder();
      const [result] = b.toolTurn('read', ['a']);
      const log = load(b);
      assert.deepEqual(refusedRules(planToolResultPrune(log, result, 'text' as never)), ['plan.input']);
      assert.deepEqual(refusedRules(planToolResultPrune(log, result, [{ type: 'text', text: 'contents for a' }])), ['prune.unchanged']);
    });

    it('while a compaction is in progress, and on a log dsh refuses — all reasons at once', () => {
      const b = new LogBuilder({ cwd: 'not/absolute' });
      const [result] = b.toolTurn('read', ['a']);
      b.event('compaction/start', { compactionId: 'running', turn: null });
      const log = load(b);
      assert.equal(log.verdict.ok, false);
      assert.deepEqual(refusedRules(planToolResultPrune(log, result, [{ type: 'text', text: 'contents for a' }])).sort(), [
        'append.refused-log',
        'compaction.in-progress',
        'prune.unchanged',
      ]);
    });

    it('bad options', () => {
      const b = new LogBuilder();
      const [result] = b.toolTurn('read', ['a']);
      assert.deepEqual(refusedRules(planToolResultPrune(load(b), result, gone, { shadowedTokenCount: -3, time: 1.5 })).sort(), [
        'plan.input',
        'plan.input',
      ]);
    });
  });
});
