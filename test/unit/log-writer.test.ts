// The log generator's one event writer (test/support/log-generator/event-writer.mjs), which writes the
// unit tests' logs, the committed samples and the benchmarks' logs, spells a line as dsh does: every
// line of the real dsh logs (../shared/fixtures/dsh-real), re-written through it from its parsed fields,
// comes out byte for byte — header, envelope key order, packed rows, v2+ range-encoded sources, v3+
// replace markers, and the closers dsh appends itself.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventWriter, headerLine } from '../support/log-generator.mjs';
import { sharedDir } from '../support/paths';

type Line = { [key: string]: any };

/** sourceEventSeqs as listed: v2+ files store runs of consecutive seqs as [start, end]. */
function decoded(sources: (number | [number, number])[]): number[] {
  return sources.flatMap((s) => (Array.isArray(s) ? Array.from({ length: s[1] - s[0] + 1 }, (_, k) => s[0] + k) : [s]));
}

/** The closers dsh's crash repair and fork seeding append carry ids of their own. */
const isCloser = (line: Line) => /^(interrupted|forked)-tool-result-/.test(line.data?.message?.id ?? '');

/** The line the writer gives for a parsed line of a log in format generation `generation`. */
function rewritten(line: Line, generation: number): string {
  if ('seq0' in line) {
    const writer = new EventWriter({ generation, seq: line.seq0, time: line.time0, advance: () => 0 });
    writer.packedRow(line.type, line.data);
    return writer.lines[0];
  }
  const { type, seq, time, data, ...envelope } = line;
  const writer = new EventWriter({ generation, seq });
  if (envelope.sourceEventSeqs) envelope.sourceEventSeqs = decoded(envelope.sourceEventSeqs);
  if (isCloser(line)) writer.closerAt(time, type, data, envelope.sourceEventSeqs);
  else writer.eventAt(time, type, data, envelope);
  return writer.lines[0];
}

describe('the log generator’s event writer', () => {
  const dir = join(sharedDir(), 'fixtures', 'dsh-real');
  if (!existsSync(dir)) {
    if (process.env.CI === 'true') it('has the real dsh logs', () => assert.fail(`../shared is required under CI=true (no ${dir})`));
    else
      it(`is skipped: no real dsh logs at ${dir} (set SHARED_DIR)`, function () {
        this.skip();
      });
    return;
  }
  const files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));

  it('finds the real logs of v0, v3 and v4', () => {
    assert.ok(files.filter((name) => name.startsWith('v0-')).length >= 10, files.join(', '));
    assert.ok(files.some((name) => name.startsWith('v3-')) && files.some((name) => name.startsWith('v4-')), files.join(', '));
  });

  for (const name of files) {
    it(`writes every line of ${name} as dsh wrote it`, () => {
      const [header, ...events] = readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean);
      const head = JSON.parse(header);
      // An older writer left delegationDepth out; the generator writes today's header only.
      if (head.delegationDepth !== undefined) assert.equal(headerLine(head), header);
      let packedRows = 0;
      events.forEach((text, i) => {
        const line = JSON.parse(text);
        if ('seq0' in line) packedRows++;
        assert.equal(rewritten(line, head.version), text, `${name} line ${i + 2}`);
      });
      if (name === 'v0-packed-chunk-rows.jsonl') assert.ok(packedRows >= 3, 'the packed-rows fixture has its rows');
    });
  }
});
