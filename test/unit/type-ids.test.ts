// The type numbers the loader dispatches on (TypeId) are the places of the names in
// KNOWN_EVENT_TYPE_NAMES, and the event index numbers the known types the same way.
import { strict as assert } from 'node:assert';
import { KNOWN_EVENT_TYPE_NAMES, KNOWN_TYPE_COUNT, TypeId, knownTypeId } from '../../src/core/read/known-types';
import { EventIndex } from '../../src/core/read/event-index';
import { ByteStore } from '../../src/core/read/columns';

const NAMED: [TypeId, string][] = [
  [TypeId.AssistantChunk, 'assistant/chunk'],
  [TypeId.AssistantMessage, 'assistant/message'],
  [TypeId.CompactionEnd, 'compaction/end'],
  [TypeId.CompactionPrune, 'compaction/prune'],
  [TypeId.CompactionStart, 'compaction/start'],
  [TypeId.CompactionSummary, 'compaction/summary'],
  [TypeId.LlmRetry, 'llm/retry'],
  [TypeId.LlmRetryStarted, 'llm/retry-started'],
  [TypeId.RequestContext, 'request/context'],
  [TypeId.RequestHeader, 'request/header'],
  [TypeId.SessionEndSeed, 'session/end-seed'],
  [TypeId.SessionTitle, 'session/title'],
  [TypeId.SessionTitleLlmRequest, 'session/title-llm-request'],
  [TypeId.StepEnd, 'step/end'],
  [TypeId.StepStart, 'step/start'],
  [TypeId.TodoWrite, 'todo/write'],
  [TypeId.ToolCall, 'tool/call'],
  [TypeId.ToolResult, 'tool/result'],
  [TypeId.TurnEnd, 'turn/end'],
  [TypeId.TurnStart, 'turn/start'],
  [TypeId.UserMessage, 'user/message'],
];

describe('type ids', () => {
  it('name the known types by their place in KNOWN_EVENT_TYPE_NAMES', () => {
    for (const [id, name] of NAMED) {
      assert.equal(KNOWN_EVENT_TYPE_NAMES[id], name);
      assert.equal(knownTypeId(name), id);
    }
    assert.equal(KNOWN_TYPE_COUNT, KNOWN_EVENT_TYPE_NAMES.length);
    assert.equal(knownTypeId('steering/message'), -1);
    assert.equal(knownTypeId(7), -1);
  });

  it('are the numbers the event index gives the known types; other types come after them', () => {
    const index = new EventIndex(new ByteStore(new Uint8Array(0)));
    KNOWN_EVENT_TYPE_NAMES.forEach((name, id) => assert.equal(index.typeIdOf(name), id));
    const other = index.typeIdOf('vendor/new-thing');
    assert.ok(other >= KNOWN_TYPE_COUNT);
    assert.equal(index.typeIdOf('vendor/new-thing'), other);
    assert.ok(index.typeIdOf(42) >= KNOWN_TYPE_COUNT);
  });
});
