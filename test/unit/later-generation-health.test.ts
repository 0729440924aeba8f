// The session health of a log of a later generation (v1 and on): its vocabulary is its own and closed,
// so the types dsh 0.1.1 did not know (system/message, developer/message, PTC dispatches…) are not
// "unknown to dsh" there; a v0 log keeps the entry for a type dsh 0.1.1 does not know.
import { strict as assert } from 'node:assert';
import { loadSessionFile } from '../../src/core';
import { sessionHealth } from '../../src/core/internal';
import { scaleV4LogText } from '../support/log-generator-v4.mjs';
import { richLog } from '../support/build-log';

const unknownTypes = (bytes: Uint8Array, fileName: string) => {
  const { log } = loadSessionFile(bytes, { fileName });
  return sessionHealth(log, { fileBytes: bytes }).entries.filter((e) => e.kind === 'unknown-type');
};

describe('session health across generations', () => {
  it('a v4 log has no "unknown to dsh" entries for the v4 vocabulary', () => {
    const { text } = scaleV4LogText({ params: { targetEvents: 400 }, seed: 5, name: 'health' });
    assert.ok(text.includes('"type":"system/message"') && text.includes('"type":"developer/message"'));
    assert.deepEqual(unknownTypes(new TextEncoder().encode(text), 'session.v4.jsonl'), []);
  });

  it('a v0 log still names a type dsh 0.1.1 does not know', () => {
    const b = richLog();
    b.event('system/message', {}, { ignorable: true });
    const entries = unknownTypes(b.bytes(), 'session.jsonl');
    assert.equal(entries.length, 1);
    assert.match(entries[0].message, /system\/message/);
  });
});
