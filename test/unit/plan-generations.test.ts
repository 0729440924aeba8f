// Planners write each generation's own syntax: a compaction's replace marker is `{op, startSeq, endSeq}`
// in v3 and v4 (`{op, start, end}` before), its checkpoint message carries the compact plugin's source
// up to v3 and the `compact-checkpoint` producer kind in v4; the protected system head of a v3+ log
// cannot be compacted; a v4 tool-role result is pruned by replacing its content and nothing else;
// crash repair of a v4 open turn writes tool-role closers. Each planned batch is appended and read
// back: dsh's format layer opens the result, with the surface the plan promised.
import { strict as assert } from 'node:assert';
import {
  compactionEdit,
  loadSession,
  planCompaction,
  planRepair,
  planToolResultPrune,
  PendingEdits,
  type SessionLog,
} from '../../src/core';
import { baseV3Log, baseV4Log, v3Header, v4Header, type LooseEvent } from '../support/v4-artifacts';
import { encodeV3Header } from '../../src/core/format/v2-to-v3';
import { encodeV4Header } from '../../src/core/format/v3-to-v4';

const T = 1_790_000_100_000;

function logText(header: Record<string, unknown>, events: readonly LooseEvent[]): string {
  return [JSON.stringify({ type: 'session', ...header }), ...events.map((e) => JSON.stringify(e))].join('\n') + '\n';
}

function v4Log(events = baseV4Log().list.events): SessionLog {
  return loadSession(new TextEncoder().encode(logText(encodeV4Header(v4Header(), 0), events)), { fileName: 'session.v4.jsonl' });
}

function v3Log(): SessionLog {
  return loadSession(new TextEncoder().encode(logText(encodeV3Header(v3Header(), 0), baseV3Log().list.events)), {
    fileName: 'session.v3.jsonl',
  });
}

/** The log with the plan's lines appended, read again from its bytes (as a fresh open would). */
function appended(log: SessionLog, lines: readonly string[], name: string): SessionLog {
  const bytes = new TextEncoder().encode(lines.map((l) => l + '\n').join(''));
  const fork = log.fork();
  const result = fork.extend(bytes);
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  assert.equal(fork.verdict.ok, true, `${name}: ${JSON.stringify(fork.verdict)}`);
  return fork;
}

function compaction(log: SessionLog, start: number, end: number) {
  return planCompaction(log, {
    start,
    end,
    summary: [{ type: 'text', text: 'The user asked for the files.' }],
    compactionId: 'c1',
    messageId: 'm1',
    time: T,
    shadowedTokenCount: 12,
    provider: 'p',
    model: 'm',
  });
}

describe('planners write the log’s own generation', () => {
  it('v4: a compaction replaces with startSeq/endSeq, cites a compact-checkpoint source, and reads back with the promised surface', () => {
    const log = v4Log();
    assert.equal(log.protectedHead(), 2);
    const nodes = log.surface();
    // The prompt, the developer message, the call and its result: a balanced span after the head.
    const plan = compaction(log, nodes[1], nodes[4]);
    assert.ok(plan.ok, JSON.stringify(!plan.ok && plan.reasons));
    const checkpoint = plan.events[2];
    assert.deepEqual(checkpoint.surfaceOp, { op: 'replace', startSeq: nodes[1], endSeq: nodes[4] });
    assert.deepEqual(checkpoint.data.source, { kind: 'compact-checkpoint', compactionId: 'c1' });
    const after = appended(log, plan.lines, 'v4 compaction');
    assert.deepEqual(after.surface(), [nodes[0], checkpoint.seq, ...nodes.slice(5)]);
  });

  it('v3: the marker is startSeq/endSeq and the source the compact plugin', () => {
    const log = v3Log();
    const nodes = log.surface();
    assert.equal(log.eventType(nodes[0]), 'system/message');
    const plan = compaction(log, nodes[1], nodes[3]);
    assert.ok(plan.ok, JSON.stringify(!plan.ok && plan.reasons));
    assert.deepEqual(plan.events[2].surfaceOp, { op: 'replace', startSeq: nodes[1], endSeq: nodes[3] });
    assert.deepEqual(plan.events[2].data.source, { kind: 'plugin', plugin: 'compact', compactionId: 'c1' });
    appended(log, plan.lines, 'v3 compaction');
  });

  it('v3+: the protected system head cannot be compacted, and the plan says why', () => {
    const log = v4Log();
    const nodes = log.surface();
    const plan = compaction(log, nodes[0], nodes[3]);
    assert.equal(plan.ok, false);
    assert.ok(!plan.ok && plan.reasons.some((r) => r.rule === 'system-head.protected' && /protected system head/.test(r.message)));
  });

  it('v4: a prune replaces only the tool-role result’s content; the result reads back', () => {
    const base = baseV4Log();
    // dsh's pruner rewrites results inside a turn: the last turn is still open here (no turn/end yet).
    const log = v4Log(base.list.events.slice(0, -1));
    const seq = base.seq.result;
    const plan = planToolResultPrune(log, seq, [{ type: 'text', text: '[pruned]' }], { time: T });
    assert.ok(plan.ok, JSON.stringify(!plan.ok && plan.reasons));
    const rewrite = plan.events[1];
    const original = log.event(seq)!;
    assert.deepEqual(rewrite.surfaceOp, { op: 'replace', startSeq: seq, endSeq: seq });
    assert.deepEqual(rewrite.data.message.content, [{ type: 'text', text: '[pruned]' }]);
    assert.deepEqual({ ...rewrite.data.message, content: null }, { ...original.data.message, content: null });
    appended(log, plan.lines, 'v4 prune');
  });

  it('v4: a prune between turns is refused with dsh’s own reason', () => {
    const base = baseV4Log();
    const plan = planToolResultPrune(v4Log(base.list.events), base.seq.result, [{ type: 'text', text: '[pruned]' }], { time: T });
    assert.equal(plan.ok, false);
    assert.ok(!plan.ok && plan.reasons.some((r) => r.rule === 'format.restore' && /tool\/result is outside an open turn/.test(r.message)));
  });

  it('v4: crash repair of an open turn writes tool-role closers, and the repaired log loads', () => {
    const base = baseV4Log();
    // Cut after the recorded tool/call: the call has no result, the step and the turn are open.
    const log = v4Log(base.list.events.slice(0, base.seq.toolCall + 1));
    assert.equal(log.lastTurnOpen, true);
    const plan = planRepair(log);
    assert.ok(plan.ok, JSON.stringify(!plan.ok && plan.reasons));
    const [result, stepEnd, turnEnd] = plan.events;
    assert.equal(result.type, 'tool/result');
    assert.equal(result.data.message.role, 'tool');
    assert.equal(result.data.message.toolCallId, 'call-1');
    assert.deepEqual(result.sourceEventSeqs, [base.seq.toolCall]);
    assert.equal(result.data.error.code, 'TOOL_OUTCOME_UNKNOWN');
    assert.deepEqual([stepEnd.type, turnEnd.type, turnEnd.data.reason.kind], ['step/end', 'turn/end', 'interrupted']);
    const after = appended(log, plan.lines, 'v4 repair');
    assert.equal(after.lastTurnOpen, false);
  });

  it('a pending compaction on a v4 log is planned and saved through the document’s edits (a fork of the log)', () => {
    const log = v4Log();
    const nodes = log.surface();
    const edits = new PendingEdits(log.eventCount);
    edits.push(
      compactionEdit(log, { start: nodes[1], end: nodes[4], summaryText: 'a summary', compactionId: 'c', messageId: 'm', time: T }),
    );
    const { plan, log: withPending } = edits.withPending(log);
    assert.ok(plan.ok, JSON.stringify(!plan.ok && plan.reasons));
    assert.equal(withPending.verdict.ok, true);
    assert.equal(withPending.eventCount, log.eventCount + 4);
  });
});
