// planRepair: the closers of an open final turn as the lines dsh's writable open appends (closer key
// order), the truncation of a torn tail, and refusals.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendBytes, loadSession, planRepair, serializeCloser } from '../../src/core';
import { richLog } from '../support/build-log';
import { hasShared, sharedDir } from '../support/paths';
import { distinctKeyOrder } from '../support/key-order';
import { load } from '../support/stream-helpers';

describe('planRepair', () => {
  it('appends the closers in closer key order; the repaired file loads closed, with the same surface', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const log = load(b);
    const plan = planRepair(log);
    assert.ok(plan.ok, JSON.stringify(plan));
    assert.equal(plan.truncateAt, undefined);
    assert.deepEqual(
      plan.events.map((e) => e.type),
      ['tool/result', 'step/end', 'turn/end'],
    );
    assert.deepEqual(plan.lines, log.closers.map(serializeCloser));
    assert.match(plan.lines[0], /,"surfaceOp":"append","sourceEventSeqs":\[\d+\]}$/);
    const after = loadSession(new Uint8Array([...b.bytes(), ...appendBytes(plan.lines)]));
    assert.deepEqual(after.verdict, { ok: true, stage: 'done' });
    assert.equal(after.lastTurnOpen, false);
    assert.deepEqual(after.closers, []);
    assert.deepEqual(after.surface(), log.repairedSurface());
    for (const [k, closer] of plan.events.entries()) assert.deepEqual(after.event(closer.seq), closer, `closer ${k}`);
    for (const [k, line] of plan.lines.entries()) assert.equal(after.lineText(log.eventCount + k), line);
  });

  it('cuts a torn tail first, as dsh’s writable open does', () => {
    const b = richLog({ openTail: 'unrecorded-call' });
    const whole = b.bytes();
    const log = loadSession(b.bytes({ tornTail: '{"type":"tool/call","seq":' }));
    const plan = planRepair(log);
    assert.ok(plan.ok);
    assert.equal(plan.truncateAt, whole.length);
    assert.deepEqual(
      plan.notes.map((n) => n.rule),
      ['repair.truncate'],
    );
    const repaired = loadSession(new Uint8Array([...whole.slice(0, plan.truncateAt), ...appendBytes(plan.lines)]));
    assert.deepEqual(repaired.verdict, { ok: true, stage: 'done' });
    assert.equal(repaired.lastTurnOpen, false);
    assert.equal(repaired.event(log.eventCount)!.data.error.code, 'TOOL_NOT_STARTED');
  });

  it('has nothing to append when the last turn is closed', () => {
    const plan = planRepair(load(richLog()));
    assert.ok(plan.ok);
    assert.deepEqual(plan.lines, []);
    assert.deepEqual(
      plan.notes.map((n) => n.rule),
      ['repair.nothing'],
    );
  });

  it('refuses a log dsh refuses', () => {
    const b = richLog({ openTail: 'recorded-call' });
    b.lines[0] = b.lines[0].replace('"cwd":"/work/project"', '"cwd":"work/project"');
    const plan = planRepair(load(b));
    assert.equal(plan.ok, false);
    assert.deepEqual(!plan.ok && plan.reasons.map((r) => r.rule), ['append.refused-log']);
  });

  it('matches the closers dsh wrote in the crash fixture (text aside)', function () {
    if (!hasShared()) this.skip();
    const lines = readFileSync(
      join(
        sharedDir(),
        'conformance',
        'real',
        'headless-agent_semantic-checkpoint-snapshots_tool-outcome-unknown_session-expected.hdrfix.jsonl',
      ),
      'utf8',
    ).split('\n');
    // Lines 0–5 are the header and seqs 0–4 (the crash); dsh's repair wrote seqs 5–7.
    const crashed = loadSession(
      new TextEncoder().encode(
        lines
          .slice(0, 6)
          .map((l) => `${l}\n`)
          .join(''),
      ),
    );
    const plan = planRepair(crashed);
    assert.ok(plan.ok);
    const blankText = (line: string) => {
      const event = JSON.parse(line);
      for (const block of event.data?.message?.content ?? []) for (const inner of block.content ?? []) inner.text = '(text)';
      return event;
    };
    const dsh = lines.slice(6, 9).map(blankText);
    const ours = plan.lines.map(blankText);
    assert.deepEqual(ours, dsh);
    for (const [k, event] of ours.entries()) assert.deepEqual(distinctKeyOrder(event), distinctKeyOrder(dsh[k]));
  });
});
