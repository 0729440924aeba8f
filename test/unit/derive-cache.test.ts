// deriveMessages() keeps a watermark cache over the current surface: new nodes are projected once and a
// replace rebuilds. The cached answer must always equal a fresh projection of the same surface.
import { strict as assert } from 'node:assert';
import { loadSession } from '../../src/core';
import { LogBuilder } from '../support/build-log';

const encoder = new TextEncoder();

describe('deriveMessages watermark cache', () => {
  it('follows appends and rebuilds after a compaction replace', () => {
    const builder = new LogBuilder();
    builder.chatTurn('first question');
    const log = loadSession(builder.bytes());
    const before = log.deriveMessages();
    assert.equal(before.length, builder.derivedMessages().length);

    const seen = builder.text().length;
    builder.chatTurn('second question');
    log.extend(encoder.encode(builder.text().slice(seen)));
    assert.deepEqual(log.deriveMessages(), log.deriveMessages(log.surface()));
    assert.deepEqual(log.deriveMessages(), builder.derivedMessages());
    assert.equal(log.deriveMessages().length, before.length + 2);

    const generation = log.replaceGeneration();
    const grown = builder.text().length;
    builder.compact();
    log.extend(encoder.encode(builder.text().slice(grown)));
    assert.equal(log.replaceGeneration(), generation + 1);
    assert.deepEqual(log.deriveMessages(), builder.derivedMessages());
    assert.deepEqual(log.deriveMessages(), log.deriveMessages(log.surface()));
  });

  it('hands out a fresh array each call, so a caller cannot grow the cache', () => {
    const builder = new LogBuilder();
    builder.chatTurn('question');
    const log = loadSession(builder.bytes());
    const first = log.deriveMessages();
    first.push({ injected: true });
    assert.equal(log.deriveMessages().length, first.length - 1);
  });
});
