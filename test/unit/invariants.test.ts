// Relational invariants (spec §3) as warnings: quiet on valid logs, precise (rule, seq, line) on a
// crafted bad one that dsh still loads.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkInvariants, loadSession } from '../../src/core';
import { LogBuilder, richLog, type Rec } from '../support/build-log';
import { hasShared, sharedDir } from '../support/paths';
import { lineOf, load } from '../support/stream-helpers';

describe('relational invariants', () => {
  it('are quiet on valid built logs, open final turn included', () => {
    for (const openTail of ['none', 'recorded-call', 'unrecorded-call', 'open-step'] as const) {
      const log = load(richLog({ openTail }));
      assert.ok(log.verdict.ok);
      assert.deepEqual(checkInvariants(log), [], openTail);
    }
  });

  it('report every broken rule of a crafted log, with its seq and line', () => {
    const b = new LogBuilder();
    const u = (turn: number, step?: number): Rec => (step === undefined ? { turn } : { turn, step });
    const prompt = b.user('between turns is fine');
    b.event('turn/start', u(1));
    const badTurnStart = b.event('turn/start', u(3)); // turn 1 still open; numbered 3, not 2
    const badStepNo = b.event('step/start', u(3, 2)); // first step must be 1
    b.event('todo/write', { todos: [] });
    const nestedStep = b.event('step/start', u(3, 3)); // step 2 still open
    const strayChunk = b.event('assistant/chunk', { turn: 3, step: 9, chunk: { type: 'text-delta', index: 0, text: 'x' } });
    b.event('assistant/chunk', { turn: 3, step: 9, chunk: { type: 'text-delta', index: 0, text: 'y' } }); // folded into the previous warning
    const call = b.event('tool/call', { turn: 3, step: 3, callId: 'x', name: 'read', arguments: '{}' });
    const unasked = b.event('tool/result', b.toolResultData('y', 'no call'), { surfaceOp: 'append' });
    const badStepEnd = b.event('step/end', u(3, 4)); // names step 4; call x unanswered
    const wrongTurnEnd = b.event('turn/end', { turn: 1, reason: { kind: 'completed' } });
    const loneTurnEnd = b.event('turn/end', { turn: 3, reason: { kind: 'completed' } });
    const outsideTurn = b.event('request/context', { provider: 'p', model: 'm' });
    const noId = b.event('compaction/start', { compactionId: '', turn: null });
    const nested = b.event('compaction/start', { compactionId: 'c2', turn: null });
    const summary = b.event('compaction/summary', {
      compactionId: 'c2',
      summary: [],
      shadowedRange: { start: 0, end: 5 },
      shadowedSeqs: [0, 4],
      shadowedTokenCount: -1,
      provider: 'p',
      model: 'm',
    });
    const notAdjacent = b.event('turn/start', u(4)); // inside the bracket, and not the priced replacement
    const endInside = b.event('turn/end', { turn: 4, reason: { kind: 'completed' } });
    const wrongEnd = b.event('compaction/end', { compactionId: 'other', turn: null });
    const ownerless = b.event('compaction/start', { compactionId: 'c3', turn: 7 });
    const noSummary = b.event('compaction/end', { compactionId: 'c3', turn: 7 });
    const checkpoint = b.event(
      'user/message',
      {
        content: [{ type: 'text', text: 'summary' }],
        source: { kind: 'plugin', plugin: 'compact', compactionId: 'c9' },
        role: 'user',
        id: 'cp',
      },
      { sourceEventSeqs: [prompt], surfaceOp: { op: 'replace', start: prompt, end: prompt } },
    );
    const prune = b.event('compaction/prune', {
      shadowedRange: { start: unasked, end: unasked },
      shadowedSeqs: [unasked],
      shadowedTokenCount: 3,
    });
    const afterPrune = b.event('feedback/record', { text: 'not the rewrite' });

    const log = load(b);
    assert.deepEqual(log.verdict, { ok: true, stage: 'done' }, 'dsh loads it: the invariants are not load rules');
    const found = checkInvariants(log);
    assert.deepEqual(
      found.map((d) => [d.rule, d.seq]),
      [
        ['invariant.turn-bracketing', badTurnStart],
        ['invariant.turn-bracketing', badTurnStart],
        ['invariant.step-bracketing', badStepNo],
        ['invariant.step-bracketing', nestedStep],
        ['invariant.step-scope', strayChunk],
        ['invariant.step-scope', unasked],
        ['invariant.pending-call', unasked],
        ['invariant.step-bracketing', badStepEnd],
        ['invariant.pending-call', badStepEnd],
        ['invariant.turn-bracketing', wrongTurnEnd],
        ['invariant.turn-bracketing', loneTurnEnd],
        ['invariant.turn-scope', outsideTurn],
        ['invariant.compaction-bracket', noId],
        ['invariant.compaction-bracket', nested],
        ['invariant.compaction-summary', summary],
        ['invariant.compaction-summary', summary],
        ['invariant.compaction-adjacent', notAdjacent],
        ['invariant.compaction-bracket', notAdjacent],
        ['invariant.compaction-bracket', endInside],
        ['invariant.compaction-bracket', wrongEnd],
        ['invariant.compaction-bracket', ownerless],
        ['invariant.compaction-bracket', noSummary],
        ['invariant.compaction-checkpoint', checkpoint],
        ['invariant.compaction-adjacent', afterPrune],
      ],
    );
    for (const d of found) {
      assert.equal(d.severity, 'warning');
      assert.equal(d.line, lineOf(b, d.seq!), `${d.rule} line`);
    }
    assert.match(found[4].message, /\+1 more events of that step/);
    assert.match(found[8].message, /"x" \(tool\/call seq \d+\) unanswered/);
    assert.deepEqual(
      found[8].related?.map((r) => r.seq),
      [call],
    );
    assert.ok(prune > 0);
  });

  it('let a session/end-seed retire an unmatched compaction/start, and note a bracket open at the end', () => {
    const b = new LogBuilder();
    b.chatTurn('hi');
    b.event('compaction/start', { compactionId: 'crashed', turn: null });
    const seed = b.event('session/end-seed', {});
    const reopened = b.event('compaction/start', { compactionId: 'live', turn: null });
    const found = checkInvariants(load(b));
    assert.deepEqual(
      found.map((d) => [d.severity, d.rule, d.seq]),
      [
        ['info', 'invariant.compaction-bracket', seed],
        ['info', 'invariant.compaction-bracket', reopened],
      ],
    );
  });

  it('accept a synthetic TOOL_NOT_STARTED result without a tool/call', () => {
    const b = new LogBuilder();
    b.turnStart();
    b.user('x');
    b.stepStart();
    b.assistant({ toolCalls: [{ id: 'never' }] });
    b.event(
      'tool/result',
      { ...b.toolResultData('never', 'not started', { isError: true }), error: { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' } },
      { surfaceOp: 'append' },
    );
    b.stepEnd();
    b.turnEnd();
    assert.deepEqual(checkInvariants(load(b)), []);
  });

  describe('on the real corpus', function () {
    before(function () {
      if (!hasShared()) this.skip();
    });

    it('warn only where the fixtures really break a rule', () => {
      const found: string[] = [];
      const dirs = [join(sharedDir(), 'conformance', 'real'), join(sharedDir(), 'fixtures', 'dsh-real')];
      let loaded = 0;
      for (const dir of dirs) {
        const names = readdirSync(dir);
        for (const name of names.filter((n) => n.endsWith('.jsonl') && !names.includes(n.replace(/\.jsonl$/, '.hdrfix.jsonl')))) {
          const log = loadSession(new Uint8Array(readFileSync(join(dir, name))));
          if (!log.verdict.ok) continue;
          loaded += 1;
          for (const d of checkInvariants(log)) if (d.severity === 'warning') found.push(`${name} ${d.rule} ${d.seq}`);
        }
      }
      assert.ok(loaded > 100, `only ${loaded} logs loaded`);
      assert.deepEqual(found.sort(), [
        // A test fixture that writes a checkpoint without a compaction bracket (PROVENANCE.md says so).
        'acp-agent_snapshots_agent-instructions_session.hdrfix.jsonl invariant.compaction-checkpoint 17',
        // Hand-trimmed fixtures: a stream with no turn/start or step/start before it.
        'headless-agent_snapshots_ralph-loop_session-1.hdrfix.jsonl invariant.step-scope 0',
        'headless-agent_snapshots_subagent-settlement_child-replay.jsonl invariant.step-scope 0',
        'web_snapshots_minimal-preset_session.hdrfix.jsonl invariant.step-scope 1',
      ]);
    });
  });
});
