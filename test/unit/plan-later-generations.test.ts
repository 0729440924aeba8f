// Authoring and crash repair on a log of today's dsh (format v4), as the editor does them: the closers
// of an open turn are v4's tool-role results and dsh's v4 format layer opens the repaired log; a
// manual compaction writes `{op, startSeq, endSeq}` and the compact-checkpoint source, and cannot
// shadow the protected system head; a prune between turns is refused in dsh's v4 words (a tool result
// belongs to an open turn).
import { strict as assert } from 'node:assert';
import { appendBytes, loadSession, planCompaction, planRepair, planToolResultPrune } from '../../src/core';
import { scaleV4LogText } from '../support/log-generator-v4.mjs';

const utf8 = new TextEncoder();
const { text, generator } = scaleV4LogText({
  params: { targetEvents: 600, compactEvery: 8, keepTurns: 2, pruneEvery: 3 },
  seed: 7,
  name: 'e2e',
});

/** The log cut right after the first tool/call recorded after the seed: an open turn with a started call. */
function crashed(): string {
  const lines = text.split('\n').filter(Boolean);
  const at = lines.findIndex(
    (l, i) => i > 0 && JSON.parse(l).type === 'tool/call' && JSON.parse(l).seq > generator.inheritedEventCount + 2,
  );
  return lines.slice(0, at + 1).join('\n') + '\n';
}

const compaction = (start: number, end: number) => ({
  start,
  end,
  summary: [{ type: 'text', text: 'Earlier work summarised.' }],
  compactionId: 'c-1',
  messageId: 'm-1',
  time: 1_800_000_000_000,
  shadowedTokenCount: 100,
  provider: 'session-surface',
  model: 'manual',
});

describe('authoring and crash repair on a v4 log', () => {
  it('repairs an open v4 turn with tool-role closers that dsh’s v4 format layer opens', () => {
    const bytes = utf8.encode(crashed());
    const log = loadSession(bytes);
    assert.equal(log.lastTurnOpen, true);
    const plan = planRepair(log);
    assert.ok(plan.ok, JSON.stringify(plan));
    assert.deepEqual(
      plan.events.map((e) => e.type),
      ['tool/result', 'step/end', 'turn/end'],
    );
    const result = JSON.parse(plan.lines[0]);
    assert.equal(result.data.message.role, 'tool');
    assert.equal(result.data.message.toolCallId, result.data.message.source.callId);
    assert.equal(result.data.error.code, 'TOOL_OUTCOME_UNKNOWN');
    assert.deepEqual(JSON.parse(plan.lines[2]).data.reason, { kind: 'interrupted' });
    const after = loadSession(new Uint8Array([...bytes, ...appendBytes(plan.lines)]));
    assert.deepEqual(after.verdict, { ok: true, stage: 'done' });
    assert.equal(after.lastTurnOpen, false);
  });

  it('writes a compaction in v4’s syntax, and refuses one that would shadow the protected system head', () => {
    const log = loadSession(utf8.encode(text));
    const nodes = log.surface();
    const head = log.protectedHead()!;
    assert.equal(nodes[0], head);
    const cuts = log.balancedCuts();
    assert.ok('cuts' in cuts, JSON.stringify(cuts));
    const end = nodes[cuts.cuts[2] - 1];
    const ok = planCompaction(log, compaction(nodes[1], end));
    assert.ok(ok.ok, JSON.stringify(ok));
    const checkpoint = JSON.parse(ok.lines[2]);
    assert.deepEqual(checkpoint.surfaceOp, { op: 'replace', startSeq: nodes[1], endSeq: end });
    assert.deepEqual(checkpoint.data.source, { kind: 'compact-checkpoint', compactionId: 'c-1' });
    const after = loadSession(new Uint8Array([...utf8.encode(text), ...appendBytes(ok.lines)]));
    assert.equal(after.verdict.ok, true, JSON.stringify(after.verdict));
    assert.deepEqual(after.surface(), [head, checkpoint.seq, ...nodes.slice(cuts.cuts[2])]);
    const refused = planCompaction(log, compaction(head, end));
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok && refused.reasons.some((r) => r.rule === 'system-head.protected'));
  });

  it('refuses a prune between turns in dsh’s v4 words, since a v4 tool result belongs to an open turn', () => {
    const log = loadSession(utf8.encode(text));
    const result = log.surface().find((seq) => log.eventType(seq) === 'tool/result')!;
    const plan = planToolResultPrune(log, result, [{ type: 'text', text: '[pruned]' }]);
    assert.equal(plan.ok, false);
    assert.ok(!plan.ok && plan.reasons.some((r) => /tool\/result is outside an open turn/.test(r.message)), JSON.stringify(plan));
  });
});
