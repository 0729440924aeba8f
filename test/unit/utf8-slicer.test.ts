// The UTF-8 decoder a Node caller hands the core (LoadOptions.utf8Slicer): Buffer's decoding of a line
// must read every log exactly as TextDecoder does — non-ASCII text, invalid bytes, a byte-order mark,
// a store that grows as a followed file does — and a faulty decoder must change nothing.
import { strict as assert } from 'node:assert';
import { extendLoadedFile, loadSession, loadSessionFile, type LoadOptions, type SessionLog } from '../../src/core';
import { bufferUtf8Slicer } from '../../src/node/buffer-utf8';
import { LogBuilder } from '../support/build-log';

const BAD = '@@BAD@@';
/** A lone continuation byte, a truncated 3-byte sequence, an overlong encoding and 0xff. */
const INVALID = [0x80, 0xe2, 0x82, 0xc0, 0xaf, 0xff, 0x41];

/** A healthy log with text in several scripts and, inside one string, bytes that are not UTF-8. */
function mixedLog(): Uint8Array {
  const log = new LogBuilder();
  log.chatTurn('héllo — 日本語 😀', ['Grüß', ' 你好', ` ${BAD} `, '🙂']);
  log.toolTurn('ünïcödé ✓', ['call_ü']);
  return withInvalidBytes(log.bytes());
}

function withInvalidBytes(bytes: Uint8Array): Uint8Array {
  const marker = new TextEncoder().encode(BAD);
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (marker.every((b, j) => bytes[i + j] === b)) {
      out.push(...INVALID);
      i += marker.length - 1;
    } else out.push(bytes[i]);
  }
  return new Uint8Array(out);
}

/** Everything a caller can read of a loaded log, as plain data. */
function reading(log: SessionLog): unknown {
  const events = [];
  for (let seq = 0; seq < log.eventCount; seq++) events.push({ event: log.event(seq), line: log.lineText(seq) });
  return {
    verdict: log.verdict,
    diagnostics: log.diagnostics,
    header: log.header,
    events,
    surface: log.surface(),
    messages: log.deriveMessages(),
  };
}

function sameReading(bytes: Uint8Array, options: LoadOptions): void {
  const plain = loadSession(bytes);
  const decoded = loadSession(bytes, options);
  assert.deepEqual(reading(decoded), reading(plain));
}

describe('the UTF-8 decoder handed to the core', () => {
  const slicer = bufferUtf8Slicer();

  it('exists under Node', () => assert.equal(typeof slicer, 'function'));

  it('reads text in several scripts and invalid bytes exactly as TextDecoder does', () => {
    const bytes = mixedLog();
    const log = loadSession(bytes, { utf8Slicer: slicer });
    assert.equal(log.verdict.ok, true, JSON.stringify(log.verdict));
    // The invalid bytes were really there and came out as replacement characters.
    assert.ok(
      Array.from({ length: log.eventCount }, (_, seq) => log.lineText(seq) ?? '').some((line) => line.includes('\ufffd')),
      'a line holds U+FFFD',
    );
    sameReading(bytes, { utf8Slicer: slicer });
  });

  it('keeps a byte-order mark, so a line that starts with one is damage as it is for dsh', () => {
    const log = new LogBuilder();
    log.chatTurn('first', ['a']);
    log.rawLine('\ufeff' + JSON.stringify({ type: 'turn/start', seq: 99, time: 1, data: {} }));
    const bytes = log.bytes();
    const decoded = loadSession(bytes, { utf8Slicer: slicer });
    assert.ok(
      decoded.diagnostics.some((d) => d.rule === 'jsonl.damaged-line'),
      JSON.stringify(decoded.diagnostics),
    );
    sameReading(bytes, { utf8Slicer: slicer });
  });

  it('decodes a followed file as it grows (the store is copied into a larger one)', () => {
    const whole = mixedLog();
    // Cut in the middle of a multi-byte character, then let the rest arrive in small pieces.
    const cut = whole.indexOf(0xe6);
    assert.ok(cut > 0, 'the log holds a CJK character');
    const loaded = loadSessionFile(whole.slice(0, cut + 1), { utf8Slicer: slicer });
    for (let at = cut + 1; at < whole.length; at += 97) extendLoadedFile(loaded, whole.slice(at, Math.min(whole.length, at + 97)));
    assert.deepEqual(reading(loaded.log), reading(loadSession(whole)));
  });

  describe('a faulty decoder changes nothing (TextDecoder reads instead)', () => {
    const faults: [string, LoadOptions['utf8Slicer']][] = [
      [
        'its factory throws',
        () => {
          throw new Error('no decoder');
        },
      ],
      ['its factory returns no function', () => 42 as never],
      [
        'it throws on a line',
        () => () => {
          throw new Error('cannot decode');
        },
      ],
      ['it returns a number', () => () => 7 as never],
    ];
    for (const [what, faulty] of faults) it(what, () => sameReading(mixedLog(), { utf8Slicer: faulty }));
  });
});
