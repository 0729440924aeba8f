// The presentation layer's safety and formats: single lines, bounds, bidi and control characters,
// depth-safe JSON, one date format for plausible timestamps only.
import { strict as assert } from 'node:assert';
import { boundedJson, boundedText, Formatter, oneLine, valueText } from '../../../src/present';

describe('present: text made safe to show', () => {
  it('keeps a summary on one line and bounded, with an ellipsis when cut', () => {
    assert.equal(oneLine('a\n b\t\tc\r\n'), 'a b c');
    const long = oneLine('x'.repeat(1_000_000), 50);
    assert.equal(long.length, 50);
    assert.ok(long.endsWith('…'));
    // Whitespace collapse of a huge input still marks that something was left out.
    assert.ok(oneLine(`a${' '.repeat(2_000_000)}b`, 50).endsWith('…'));
  });

  it('turns bidi overrides and control characters into visible escapes', () => {
    const shown = oneLine('invoice\u202Egnp.exe');
    assert.equal(shown, 'invoice\\u202Egnp.exe');
    assert.equal(oneLine('a\u0000b\u001bc\u2066d'), 'a\\u0000b\\u001Bc\\u2066d');
    assert.doesNotMatch(boundedText('x\u202Ey\n\u0007').text, /[\u202E\u0007]/);
    assert.equal(boundedText('line 1\nline 2').text, 'line 1\nline 2');
  });

  it('never splits a surrogate pair when clipping', () => {
    const s = oneLine('😀'.repeat(100), 11);
    assert.ok(s.length <= 11);
    assert.doesNotMatch(s, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('bounds the inspector text and says how long the whole was', () => {
    const b = boundedText('y'.repeat(50_000), 1000);
    assert.equal(b.truncated, true);
    assert.equal(b.length, 50_000);
    assert.equal(b.text.length, 1001);
  });
});

describe('present: depth-safe bounded JSON', () => {
  it('serialises 100,000 levels of nesting without recursion and marks the cut', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const out = boundedJson(deep, { maxDepth: 10 });
    assert.equal(out.truncated, true);
    assert.equal(out.text, `${'['.repeat(10)}[…]${']'.repeat(10)}`);
  });

  it('matches JSON.stringify on ordinary values, compact and indented', () => {
    const value = { a: [1, 'two', null, true], b: { c: {}, d: [] }, e: 'q"uote' };
    assert.equal(boundedJson(value).text, JSON.stringify(value));
    assert.equal(boundedJson(value, { indent: 2 }).text, JSON.stringify(value, null, 2));
  });

  it('stops writing at the length bound and survives cycles and throwing getters', () => {
    const big = boundedJson(
      Array.from({ length: 100_000 }, (_, i) => i),
      { maxChars: 100 },
    );
    assert.equal(big.truncated, true);
    assert.ok(big.text.length <= 101);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.ok(boundedJson(cyclic, { maxDepth: 5 }).truncated);
    const hostile = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    assert.equal(boundedJson(hostile).text, '{"boom":"(unreadable)"}');
    assert.equal(valueText('plain'), 'plain');
  });
});

describe('present: one format for numbers, sizes and dates', () => {
  const en = new Formatter({ locale: 'en-US', timeZone: 'UTC' });
  const de = new Formatter({ locale: 'de-DE', timeZone: 'UTC' });

  it('formats numbers and sizes in the display language', () => {
    assert.equal(en.count(2854), '2,854');
    assert.equal(de.count(2854), '2.854');
    assert.equal(en.bytes(812), '812 B');
    assert.equal(en.bytes(28 * 2 ** 20), '28.0 MiB');
    assert.equal(de.bytes(1536), '1,5 KiB');
    assert.equal(en.counted(1, '{0} event', '{0} events'), '1 event');
    assert.equal(en.counted(3, '{0} event', '{0} events'), '3 events');
    assert.equal(en.counted(2854, '{0} event', '{0} events'), '2,854 events');
  });

  it('shows createdAt 0 and 800 alike, as numbers, and a real time as one date format', () => {
    assert.equal(en.date(0), '0 (not a date)');
    assert.equal(en.date(800), '800 (not a date)');
    assert.equal(en.date(-5), '-5 (not a date)');
    assert.equal(en.date('yesterday'), 'yesterday (not a date)');
    const when = Date.UTC(2026, 5, 1, 14, 3, 9);
    assert.equal(en.date(when), 'Jun 1, 2026, 02:03:09 PM UTC');
    assert.match(de.date(when), /^1\. Juni? 2026, 14:03:09 UTC$/);
  });

  it('falls back to English for an unknown or malformed language tag', () => {
    assert.equal(new Formatter({ locale: 'not a tag!' }).locale, 'en');
    assert.equal(new Formatter({ locale: undefined }).count(1000), '1,000');
  });

  it('formats durations and token counts', () => {
    assert.equal(en.duration(340), '340 ms');
    assert.equal(en.duration(1234), '1.2 s');
    assert.equal(en.duration(185_000), '3 min 05 s');
    assert.equal(en.duration(7_440_000), '2 h 04 min');
    assert.equal(en.tokens(812), '812 tokens');
    assert.equal(en.tokens(12_345), '12.3k tokens');
  });
});
