// The "Session health" summary the host sends: the fixes of the summary view a new user asked for —
// a refused log is not "live" and gets no closers, "every turn is closed" needs a turn, dsh's own
// message says whose line numbers it uses, header strings are bounded, sizes of a zstd log.
import { strict as assert } from 'node:assert';
import { loadSessionFile } from '../../../src/core';
import { encodeDshZstdLog } from '../../../src/core/zstd';
import { buildSummary } from '../../../src/host/timeline/summary';
import { Formatter } from '../../../src/present';
import { isSessionSummary } from '../../../src/protocol';
import { headerLine, LogBuilder, richLog } from '../../support/build-log';

const fmt = new Formatter({ locale: 'en-US', timeZone: 'UTC' });

function summaryOf(bytes: Uint8Array, turns: number, followLiveLogs = true) {
  const source = loadSessionFile(bytes);
  const summary = buildSummary(
    source.log,
    {
      fileName: 'x.jsonl',
      filePath: '/tmp/x.jsonl',
      turns,
      file: { state: 'following', size: bytes.length, mtimeMs: 0 },
      followLiveLogs,
      fileBytes: bytes.length,
      zstd: source.zstd,
      restrictedMode: false,
      loadMs: 12,
      generation: { events: source.log.eventCount, replaceGeneration: 0, load: 1 },
      diagnostics: source.log.diagnostics,
    },
    fmt,
  );
  assert.ok(isSessionSummary(summary), 'the summary validates');
  return summary;
}

describe('host summary', () => {
  it('a refused log with an open turn is neither live nor offered closers', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const text = new TextDecoder().decode(b.bytes());
    // A damaged committed line followed by a turn/end: dsh refuses the log.
    const lines = text.trimEnd().split('\n');
    lines.splice(4, 1, '{"broken');
    const s = summaryOf(new TextEncoder().encode(`${lines.join('\n')}\n`), 4);
    assert.equal(s.verdict.ok, false);
    assert.equal(s.live, 'refused');
    assert.doesNotMatch(s.liveText, /Live/);
    assert.equal(s.counts.closers, undefined);
    assert.ok(!s.facts.some((f) => f.name === 'closers'));
    assert.match(s.verdict.text, /^dsh refuses this log at the parse step: line 5 /);
    assert.match(s.verdict.dshText ?? '', /dsh counts lines after the header/);
    assert.match(s.stillReadable ?? '', /What could still be read/);
  });

  it('a log with no turn is not "every turn is closed"', () => {
    const s = summaryOf(new LogBuilder().bytes(), 0);
    assert.equal(s.live, 'noTurns');
    assert.equal(s.liveText, 'No turn yet; following appends');
  });

  it('with following turned off the live state says so', () => {
    const s = summaryOf(new LogBuilder().bytes(), 0, false);
    assert.equal(s.liveText, 'No turn yet; following appends is turned off');
    assert.doesNotMatch(s.liveText, /following appends$/);
  });

  it('bounds header strings and neutralises bidi; createdAt 0 is not a 1970 date', () => {
    const header = headerLine({ id: 'x\u202Egnp.exe', cwd: `/${'d'.repeat(200_000)}`, createdAt: 0 });
    const s = summaryOf(new TextEncoder().encode(`${header}\n`), 0);
    assert.equal(s.title, 'x\\u202Egnp.exe');
    for (const f of s.headerFields ?? []) assert.ok(f.value.length <= 120 && (f.full?.length ?? 0) <= 2000, f.name);
    assert.equal(s.headerFields?.find((f) => f.name === 'createdAt')?.value, '0 (not a date)');
  });

  it('a zstd log shows file size, text size and frame count', () => {
    const lines = new TextDecoder().decode(richLog().bytes()).trimEnd().split('\n');
    const s = summaryOf(encodeDshZstdLog(lines, { linesPerFrame: 10 }), 3);
    assert.ok(s.sizes.zstdFrames! > 1);
    const names = s.facts.map((f) => f.name);
    assert.ok(names.includes('fileBytes') && names.includes('textBytes') && names.includes('zstdFrames'));
    assert.equal(s.live, 'closed');
  });
});
