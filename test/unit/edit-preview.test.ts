// The preview of an edit in words: the verdict with every reason, the exact lines, shadowed nodes,
// derived messages and estimated tokens before and after.
import { strict as assert } from 'node:assert';
import { compactionEdit, loadSession, PendingEdits, pruneEdit } from '../../src/core';
import { Formatter } from '../../src/present';
import { editTitle, previewEdit } from '../../src/present/edit-preview';
import { LogBuilder } from '../support/build-log';

function threeTurns(): LogBuilder {
  const b = new LogBuilder();
  b.chatTurn('one');
  b.toolTurn('two', ['a', 'b']);
  b.chatTurn('three');
  return b;
}

const fmt = new Formatter({ locale: 'en-US' });

describe('edit preview', () => {
  it('an accepted compaction: lines, shadowed nodes, fewer messages and tokens after', () => {
    const b = threeTurns();
    const log = loadSession(b.bytes());
    const nodes = log.surface();
    const edit = compactionEdit(log, { start: nodes[0], end: nodes[5], summaryText: 'short', compactionId: 'c', messageId: 'm', time: 1 });
    const edits = new PendingEdits(log.eventCount);
    edits.push(edit);
    const plan = edits.plan({ log });
    assert.ok(plan.ok);
    const after = loadSession(b.bytes());
    after.append(plan.events as never);
    const preview = previewEdit(log, edit, plan, after, fmt);
    assert.equal(preview.title, `Compact seqs ${nodes[0]}–${nodes[5]}`);
    assert.equal(preview.ok, true);
    assert.deepEqual(preview.lines, plan.lines);
    assert.deepEqual(preview.shadowed, nodes.slice(0, 6));
    assert.equal(preview.messagesBefore, 9);
    assert.equal(preview.messagesAfter, 4);
    assert.ok(preview.tokensAfter! < preview.tokensBefore, `${preview.tokensAfter} < ${preview.tokensBefore}`);
    assert.match(preview.text, /the plan holds/);
    for (const line of plan.lines) assert.ok(preview.text.includes(line));
    assert.match(preview.text, /Derived messages after \(4\):/);
  });

  it('a refused compaction: every reason in plain words, no lines', () => {
    const b = threeTurns();
    b.turnStart();
    b.user('open');
    const log = loadSession(b.bytes());
    const nodes = log.surface();
    const edit = compactionEdit(log, { start: nodes[0], end: nodes[4], summaryText: 's', compactionId: 'c', messageId: 'm', time: 1 });
    const edits = new PendingEdits(log.eventCount);
    edits.push(edit);
    const plan = edits.plan({ log });
    const preview = previewEdit(log, edit, plan, undefined, fmt);
    assert.equal(preview.ok, false);
    assert.deepEqual(preview.lines, []);
    assert.match(preview.text, /refused \(2 reasons\)/);
    assert.match(
      preview.text,
      /tool call "b" of assistant\/message seq \d+ is unanswered there; its tool\/result is seq \d+, after the cut/,
    );
    assert.match(preview.text, /the last turn is open/);
  });

  it('a prune that does not make the surface smaller holds, and says it saves nothing', () => {
    const b = new LogBuilder();
    b.turnStart();
    b.user('look');
    b.stepStart();
    b.assistant({ toolCalls: [{ id: 'tiny' }, { id: 'long' }] });
    b.toolCall('tiny');
    b.toolCall('long');
    const tiny = b.toolResult('tiny', 'ok 42');
    const long = b.toolResult('long', 'a result long enough that replacing it with a short note saves room. '.repeat(8));
    b.stepEnd();
    b.turnEnd();
    const log = loadSession(b.bytes());
    const preview = (seq: number) => {
      const edit = pruneEdit(log, { seq });
      const edits = new PendingEdits(log.eventCount);
      edits.push(edit);
      const plan = edits.plan({ log });
      assert.ok(plan.ok);
      const after = loadSession(b.bytes());
      after.append(plan.events as never);
      return previewEdit(log, edit, plan, after, fmt);
    };
    const grows = preview(tiny);
    assert.equal(grows.savesNothing, true);
    assert.ok(grows.tokensAfter! >= grows.tokensBefore, `${grows.tokensBefore} → ${grows.tokensAfter}`);
    assert.match(grows.text.split('\n')[0], /the plan holds, but it saves nothing$/);
    assert.match(grows.text, /The new content is not smaller than the tool result it replaces: estimated tokens on the surface \d+ → \d+/);
    const shrinks = preview(long);
    assert.equal(shrinks.savesNothing, false);
    assert.ok(shrinks.tokensAfter! < shrinks.tokensBefore);
    assert.doesNotMatch(shrinks.text, /saves nothing/);
  });

  it('titles name what an edit does', () => {
    const log = loadSession(threeTurns().bytes());
    const result = log.surface()[4];
    assert.equal(editTitle(pruneEdit(log, { seq: result }), fmt), `Prune tool/result seq ${result}`);
  });
});
