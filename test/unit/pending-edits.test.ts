// The document's edit model: planner inputs, each an undo/redo pair with the saved/unsaved index,
// planned again against a log that grew (edits after the first on a fork of the loaded log), restored
// from a JSON backup. Plans are checked line for line against the planners' own output and
// by loading the appended bytes back through the core.
import { strict as assert } from 'node:assert';
import {
  appendBytes,
  compactionEdit,
  defaultPrunedContent,
  formatSize,
  loadSession,
  PendingEdits,
  planCompaction,
  planToolResultPrune,
  pruneEdit,
  type EditReference,
  type PendingEdit,
  type PendingPlan,
  type SessionLog,
} from '../../src/core';
import { LogBuilder } from '../support/build-log';
import { load } from '../support/stream-helpers';

const T = 1_786_000_999_000;

/** chat turn, tool turn (calls a, b), chat turn: surface of 9 nodes. */
function threeTurns(): { b: LogBuilder; log: SessionLog; nodes: readonly number[]; results: number[] } {
  const b = new LogBuilder();
  b.chatTurn('one');
  const results = b.toolTurn('two', ['a', 'b']);
  b.chatTurn('three');
  const log = load(b);
  return { b, log, nodes: log.surface(), results };
}

const forkOf = (b: LogBuilder) => () => loadSession(b.bytes());

function compaction(log: SessionLog, start: number, end: number, n = 1): PendingEdit {
  return compactionEdit(log, { start, end, summaryText: `summary ${n}`, compactionId: `cmp-${n}`, messageId: `chk-${n}`, time: T });
}

function accepted(plan: PendingPlan): Extract<PendingPlan, { ok: true }> {
  assert.ok(plan.ok, JSON.stringify(plan, null, 1));
  return plan;
}

function refused(plan: PendingPlan): Extract<PendingPlan, { ok: false }> {
  assert.equal(plan.ok, false, 'expected a refusal');
  return plan as Extract<PendingPlan, { ok: false }>;
}

/** The undo/redo pair of an edit pushed (a refusal fails the test). */
function reference(edits: PendingEdits, edit: PendingEdit): EditReference {
  const pushed = edits.push(edit);
  if (!('undo' in pushed)) assert.fail(pushed.message);
  return pushed;
}

describe('PendingEdits', () => {
  describe('planning', () => {
    it('plans one compaction exactly as planCompaction does, with seqs continuing the log', () => {
      const { b, log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      const edit = compaction(log, nodes[0], nodes[2]);
      edits.push(edit);
      const plan = accepted(edits.plan({ log }));
      const direct = planCompaction(log, (edit as Extract<PendingEdit, { kind: 'compaction' }>).input);
      assert.ok(direct.ok);
      assert.deepEqual(plan.lines, direct.lines);
      assert.equal(plan.firstSeq, log.eventCount);
      assert.equal(JSON.parse(plan.lines[0]).seq, log.eventCount);
    });

    it('plans a prune and a compaction that cites the prune’s rewrite, and the bytes load back', () => {
      const { b, log, nodes, results } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(pruneEdit(log, { seq: results[0], time: T }));
      // After the prune its rewrite (seq N+1) stands where results[0] stood on the surface.
      const rewrite = log.eventCount + 1;
      const fork = forkOf(b)();
      fork.append(accepted(edits.plan({ log })).events as never);
      assert.ok(fork.surface().includes(rewrite));
      edits.push(compaction(fork, fork.surface()[0], fork.surface()[6]));
      const plan = accepted(edits.plan({ log }));
      assert.equal(plan.lines.length, 6);
      assert.deepEqual(
        plan.lines.map((l) => JSON.parse(l).seq),
        [0, 1, 2, 3, 4, 5].map((k) => log.eventCount + k),
      );
      const after = loadSession(new Uint8Array([...b.bytes(), ...appendBytes(plan.lines)]));
      assert.deepEqual(after.verdict, { ok: true, stage: 'done' });
      const summary = after.event(log.eventCount + 3);
      assert.deepEqual(summary?.data.shadowedSeqs, [nodes[0], nodes[1], nodes[2], nodes[3], rewrite, nodes[5], nodes[6]]);
    });

    it('plans a second edit on a fork of the loaded log, as on the log read again with the first appended', () => {
      const { b, log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(compaction(log, nodes[0], nodes[2]));
      const first = accepted(edits.plan({ log }));
      edits.push(compaction(log, nodes[7], nodes[8], 2));
      const plan = accepted(edits.plan({ log }));
      const reread = forkOf(b)();
      reread.append(first.events as never);
      const second = planCompaction(reread, (plan.steps[1].edit as Extract<PendingEdit, { kind: 'compaction' }>).input);
      assert.ok(second.ok);
      assert.deepEqual(plan.lines, [...first.lines, ...second.lines]);
    });

    it('the log as the user sees it: the loaded log plus the pending events, on a fork', () => {
      const { b, log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      assert.equal(edits.withPending(log).log, log, 'nothing pending: the loaded log itself');
      edits.push(compaction(log, nodes[0], nodes[2]));
      edits.push(compaction(log, nodes[7], nodes[8], 2));
      const { plan, log: seen } = edits.withPending(log);
      const lines = accepted(plan).lines;
      const reread = loadSession(new Uint8Array([...b.bytes(), ...appendBytes(lines)]));
      assert.notEqual(seen, log);
      assert.equal(seen.eventCount, log.eventCount + 8);
      assert.deepEqual(seen.surface(), reread.surface());
      assert.deepEqual(seen.deriveMessages(), reread.deriveMessages());
      assert.deepEqual(seen.verdict, reread.verdict);
      assert.deepEqual(seen.lineText(log.eventCount + 6), lines[6]);
      assert.equal(log.eventCount, reread.eventCount - 8, 'the loaded log is not appended to');
    });

    it('never appends to the log it plans against', () => {
      const { b, log, nodes } = threeTurns();
      const before = log.eventCount;
      const edits = new PendingEdits(before);
      edits.push(compaction(log, nodes[0], nodes[2]));
      edits.push(compaction(log, nodes[7], nodes[8], 2));
      accepted(edits.plan({ log }));
      assert.equal(log.eventCount, before);
      assert.deepEqual(log.surface(), nodes);
    });
  });

  describe('refusals, in plain words', () => {
    it('a cut that splits a tool call from its result names both', () => {
      const { log, nodes } = threeTurns();
      // nodes[3] is the assistant/message calling a and b; nodes[4] answers a, nodes[5] answers b.
      const edits = new PendingEdits(log.eventCount);
      edits.push(compaction(log, nodes[0], nodes[4]));
      const plan = refused(edits.plan({ log }));
      assert.equal(plan.index, 0);
      const cut = plan.reasons.find((r) => r.rule === 'compaction.balanced-cut');
      assert.ok(cut, JSON.stringify(plan.reasons));
      assert.match(
        cut.message,
        new RegExp(
          `tool call "b" of assistant/message seq ${nodes[3]} is unanswered there; its tool/result is seq ${nodes[5]}, after the cut`,
        ),
      );
    });

    it('an open compaction bracket', () => {
      const b = new LogBuilder();
      b.chatTurn('one');
      b.chatTurn('two');
      const open = b.event('compaction/start', { compactionId: 'crashed', turn: null });
      const log = load(b);
      const edits = new PendingEdits(log.eventCount);
      edits.push(compaction(log, log.surface()[0], log.surface()[1]));
      const plan = refused(edits.plan({ log }));
      const lock = plan.reasons.find((r) => r.rule === 'compaction.in-progress');
      assert.ok(lock);
      assert.match(lock.message, new RegExp(`compaction/start at seq ${open} has no compaction/end`));
    });

    it('an open turn', () => {
      const b = new LogBuilder();
      b.chatTurn('one');
      b.turnStart();
      b.user('still going');
      const log = load(b);
      const edits = new PendingEdits(log.eventCount);
      edits.push(compaction(log, log.surface()[0], log.surface()[1]));
      const plan = refused(edits.plan({ log }));
      assert.ok(
        plan.reasons.some((r) => r.rule === 'compaction.turn-open' && /last turn is open/.test(r.message)),
        JSON.stringify(plan.reasons),
      );
    });

    it('a prune of something that is not a tool/result', () => {
      const { log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push({ kind: 'prune', seq: nodes[0], content: [{ type: 'text', text: 'x' }], options: { time: T } });
      const plan = refused(edits.plan({ log }));
      assert.match(plan.reasons[0].message, new RegExp(`seq ${nodes[0]} is a user/message, not a tool/result`));
    });

    it('a second edit refused after the first still holds: the first is reported as planned', () => {
      const { b, log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(compaction(log, nodes[0], nodes[2]));
      edits.push(compaction(log, nodes[1], nodes[2], 2)); // shadowed by the first
      const plan = refused(edits.plan({ log }));
      assert.equal(plan.index, 1);
      assert.equal(plan.steps.length, 1);
      assert.ok(
        plan.reasons.some((r) => /no longer on the surface: the replace at seq \d+ shadowed it/.test(r.message)),
        JSON.stringify(plan.reasons),
      );
    });
  });

  describe('a log that grew under the edits', () => {
    it('plans again after a foreign append: new seqs, the surface as it is now', () => {
      const { b, log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(compaction(log, nodes[0], nodes[2]));
      const before = accepted(edits.plan({ log }));
      b.chatTurn('four, written by the agent meanwhile');
      const grown = load(b);
      const added = grown.eventCount - log.eventCount;
      const after = accepted(edits.plan({ log: grown }));
      assert.equal(after.firstSeq, log.eventCount + added);
      assert.deepEqual(
        after.lines.map((l) => JSON.parse(l).seq),
        before.lines.map((l) => JSON.parse(l).seq + added),
      );
      // The surface the plan cuts is the grown one: the checkpoint cites the same shadowed nodes.
      assert.deepEqual(JSON.parse(after.lines[1]).data.shadowedSeqs, nodes.slice(0, 3));
      const loaded = loadSession(new Uint8Array([...b.bytes(), ...appendBytes(after.lines)]));
      assert.deepEqual(loaded.verdict, { ok: true, stage: 'done' });
    });

    it('moves seqs that name pending events, and keeps seqs of history', () => {
      const { b, log, results } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(pruneEdit(log, { seq: results[0], text: 'first', time: T }));
      const rewrite = log.eventCount + 1;
      edits.push({ kind: 'prune', seq: rewrite, content: [{ type: 'text', text: 'second' }], options: { time: T } });
      b.chatTurn('meanwhile');
      const grown = load(b);
      const added = grown.eventCount - log.eventCount;
      const plan = accepted(edits.plan({ log: grown }));
      assert.deepEqual(
        plan.steps.map((s) => s.edit.kind === 'prune' && s.edit.seq),
        [results[0], rewrite + added],
      );
      edits.rebase(grown.eventCount);
      assert.equal(edits.base, grown.eventCount);
      assert.deepEqual(
        edits.list.map((e) => e.kind === 'prune' && e.seq),
        [results[0], rewrite + added],
      );
      assert.deepEqual(accepted(edits.plan({ log: grown })).lines, plan.lines);
    });

    it('refuses when the foreign append makes the edit impossible, and says why', () => {
      const { b, log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(compaction(log, nodes[0], nodes[2]));
      b.compact({ start: nodes[0], end: nodes[5] }); // the agent compacted the same span meanwhile
      const grown = load(b);
      const plan = refused(edits.plan({ log: grown }));
      assert.ok(
        plan.reasons.some(
          (r) => r.rule === 'replace.endpoints-on-current-surface' && /start seq \d+ is no longer on the surface/.test(r.message),
        ),
        JSON.stringify(plan.reasons),
      );
    });

    it('refuses a log that shrank', () => {
      const { log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount + 5);
      edits.push(compaction(log, nodes[0], nodes[2]));
      assert.equal(refused(edits.plan({ log })).reasons[0].rule, 'edit.log-shrank');
      const refusal = edits.rebase(log.eventCount);
      assert.equal(refusal?.rule, 'edit.log-shrank');
      assert.match(refusal!.message, /fewer than/);
      assert.equal(edits.base, log.eventCount + 5, 'nothing moved');
    });
  });

  describe('undo and redo: each edit a pair for the editor’s undo stack', () => {
    it('walk the edits back and forth; a new edit drops what was undone', () => {
      const { log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      const e1 = compaction(log, nodes[0], nodes[2], 1);
      const e2 = compaction(log, nodes[7], nodes[8], 2);
      const e3 = compaction(log, nodes[6], nodes[6], 3);
      const r1 = reference(edits, e1);
      const r2 = reference(edits, e2);
      assert.equal(r2.undo(), 'undone');
      assert.deepEqual(edits.list, [e1]);
      assert.equal(r2.undo(), 'gone', 'an undone edit is not undone twice');
      assert.equal(r2.redo(), true);
      assert.deepEqual(edits.list, [e1, e2]);
      assert.equal(r2.redo(), false, 'a pending edit is not redone');
      r2.undo();
      r1.undo();
      assert.equal(edits.count, 0);
      assert.equal(r1.redo(), true);
      assert.deepEqual(edits.list, [e1]);
      edits.push(e3);
      assert.equal(r2.redo(), false);
      assert.deepEqual(edits.list, [e1, e3]);
    });

    it('undo then redo plans the same bytes', () => {
      const { log, nodes, results } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(pruneEdit(log, { seq: results[1], time: T }));
      const compact = reference(edits, compaction(log, nodes[0], nodes[2]));
      const first = accepted(edits.plan({ log })).lines;
      compact.undo();
      assert.deepEqual(accepted(edits.plan({ log })).lines, first.slice(0, 2));
      compact.redo();
      assert.deepEqual(accepted(edits.plan({ log })).lines, first);
    });

    it('an edit pushed is a copy: changing the caller’s object changes nothing', () => {
      const { log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      const edit = compaction(log, nodes[0], nodes[2]);
      edits.push(edit);
      (edit as Extract<PendingEdit, { kind: 'compaction' }>).input.start = 999;
      accepted(edits.plan({ log }));
    });

    it('after a save nothing is pending and nothing can be redone; a saved edit is history', () => {
      const { log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      const first = reference(edits, compaction(log, nodes[0], nodes[2]));
      const second = reference(edits, compaction(log, nodes[7], nodes[8], 2));
      assert.equal(edits.unsavedIndex, 0);
      second.undo();
      edits.clearSaved(log.eventCount + 4);
      assert.equal(edits.count, 0);
      assert.equal(edits.unsavedIndex, 1, 'one edit made and saved');
      assert.equal(second.redo(), false);
      assert.equal(edits.base, log.eventCount + 4);
      assert.equal(first.undo(), 'saved');
      assert.equal(edits.unsavedIndex, 1);
      const third = reference(edits, compaction(log, nodes[7], nodes[8], 3));
      assert.deepEqual(
        edits.list.map((e) => e.kind === 'compaction' && e.input.compactionId),
        ['cmp-3'],
      );
      assert.equal(third.undo(), 'undone');
    });

    it('revert drops the pending edits: their undo and redo do nothing, saved ones stay history', () => {
      const { log, nodes } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      const saved = reference(edits, compaction(log, nodes[0], nodes[2]));
      edits.clearSaved(log.eventCount + 4);
      const pending = reference(edits, compaction(log, nodes[7], nodes[8], 2));
      const undone = reference(edits, compaction(log, nodes[6], nodes[6], 3));
      undone.undo();
      edits.revert();
      assert.equal(edits.count, 0);
      assert.equal(pending.undo(), 'gone');
      assert.equal(pending.redo(), false);
      assert.equal(undone.redo(), false);
      assert.equal(saved.undo(), 'saved');
      assert.equal(edits.unsavedIndex, 1);
    });

    it('an undone edit moves with the log, so a redo after a foreign append plans the new seqs', () => {
      const { b, log, results } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(pruneEdit(log, { seq: results[0], text: 'first', time: T }));
      const rewrite = log.eventCount + 1;
      const second = reference(edits, { kind: 'prune', seq: rewrite, content: [{ type: 'text', text: 'second' }], options: { time: T } });
      second.undo();
      b.chatTurn('meanwhile');
      const grown = load(b);
      const added = grown.eventCount - log.eventCount;
      edits.rebase(grown.eventCount);
      assert.equal(second.redo(), true);
      assert.deepEqual(
        edits.list.map((e) => e.kind === 'prune' && e.seq),
        [results[0], rewrite + added],
      );
      accepted(edits.plan({ log: grown }));
    });
  });

  describe('backup', () => {
    it('round-trips through JSON: the pending edits (no undo stack outlives the window, so nothing undone is kept)', () => {
      const { log, nodes, results } = threeTurns();
      const edits = new PendingEdits(log.eventCount);
      edits.push(pruneEdit(log, { seq: results[0], time: T }));
      edits.push(compaction(log, nodes[7], nodes[8]));
      reference(edits, compaction(log, nodes[6], nodes[6], 3)).undo();
      const text = JSON.stringify(edits);
      assert.deepEqual(JSON.parse(text).redo, []);
      const restored = PendingEdits.fromJSON(JSON.parse(text));
      assert.ok(restored instanceof PendingEdits, String(restored));
      assert.deepEqual(restored.list, edits.list);
      assert.equal(restored.base, edits.base);
      assert.equal(restored.count, 2);
      assert.deepEqual(accepted(restored.plan({ log })).lines, accepted(edits.plan({ log })).lines);
    });

    it('reads a backup that lists undone edits (as earlier versions wrote): its pending edits come back', () => {
      const { log, nodes } = threeTurns();
      const pending = compaction(log, nodes[0], nodes[2]);
      const backup = {
        format: 'session-surface/pending-edits',
        version: 1,
        baseEventCount: log.eventCount,
        edits: [pending],
        redo: [pending],
      };
      const restored = PendingEdits.fromJSON(backup);
      assert.ok(restored instanceof PendingEdits, String(restored));
      assert.deepEqual(restored.list, [pending]);
    });

    it('refuses what is not a backup, saying why', () => {
      assert.equal(PendingEdits.fromJSON(null), 'not a backup of pending session edits');
      assert.equal(
        PendingEdits.fromJSON({ format: 'session-surface/pending-edits', version: 7 }),
        'backup version 7 is not one this version reads',
      );
      const bad = { format: 'session-surface/pending-edits', version: 1, baseEventCount: 3, edits: [{ kind: 'rewrite' }], redo: [] };
      assert.equal(PendingEdits.fromJSON(bad), 'the backup holds an edit that cannot be read: unknown kind "rewrite"');
      const noSeq = { ...bad, edits: [{ kind: 'prune', content: [], options: {} }] };
      assert.equal(PendingEdits.fromJSON(noSeq), 'the backup holds an edit that cannot be read: prune without a seq');
    });
  });

  describe('edit inputs', () => {
    it('the default prune content says how much was cut', () => {
      const b = new LogBuilder();
      b.turnStart();
      b.user('read it');
      b.stepStart();
      b.requestHeader();
      b.assistant({ toolCalls: [{ id: 'big', name: 'read', arguments: '{}' }] });
      b.toolCall('big', 'read', '{}');
      const seq = b.toolResult('big', 'x'.repeat(12_345));
      b.stepEnd();
      b.stepStart();
      b.assistant({ text: 'ok' });
      b.stepEnd();
      b.turnEnd();
      const log = load(b);
      assert.deepEqual(defaultPrunedContent(log, seq), [{ type: 'text', text: '[pruned: 12.3 KB]' }]);
      const plan = planToolResultPrune(log, seq, defaultPrunedContent(log, seq), { time: T });
      assert.ok(plan.ok);
      const rewrite = JSON.parse(plan.lines[1]);
      const original = JSON.parse(log.lineText(seq)!);
      // Every other field is kept: only the inner content differs.
      original.data.message.content[0].content = [{ type: 'text', text: '[pruned: 12.3 KB]' }];
      assert.deepEqual(rewrite.data, original.data);
    });

    it('sizes read the way file managers show them', () => {
      assert.equal(formatSize(999), '999 B');
      assert.equal(formatSize(12_345), '12.3 KB');
      assert.equal(formatSize(4_200_000), '4.2 MB');
    });
  });
});
