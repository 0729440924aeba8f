// From format v2 on, an assistant message carries its stream inside it (`data.stream`) instead of
// chunk events before it: provenance must not call such a message "without stream chunks".
import { strict as assert } from 'node:assert';
import { loadSessionFile, provenanceIndex } from '../../src/core';
import { scaleV4LogText } from '../support/log-generator-v4.mjs';

describe('provenance of messages with their stream inside', () => {
  it('a v4 log has no "no stream chunks" note, though every answer streamed', () => {
    const { text } = scaleV4LogText({ params: { targetEvents: 400 }, seed: 5, name: 'streams' });
    const { log } = loadSessionFile(new TextEncoder().encode(text), { fileName: 'session.v4.jsonl' });
    assert.equal(log.verdict.ok, true);
    const messages = text.split('\n').filter((line) => line.includes('"type":"assistant/message"'));
    assert.ok(messages.length > 10 && messages.every((line) => line.includes('"stream":[')), 'the answers carry their streams');
    const notes = provenanceIndex(log).diagnostics.filter((d) => d.rule === 'provenance.no-stream');
    assert.deepEqual(notes, []);
  });
});
