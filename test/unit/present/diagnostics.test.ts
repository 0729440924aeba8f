// One definition of a log's diagnostics: the CLI's `check` prints exactly `logDiagnostics`, in file
// order and in file lines, with a seq gap worded as a seq gap.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { loadSession } from '../../../src/core';
import { diagnosticLine, Formatter, logDiagnostics } from '../../../src/present';
import { LogBuilder, richLog } from '../../support/build-log';

const english = new Formatter();

describe("present: the one list of a log's diagnostics", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'present-diag-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('includes invariant and provenance warnings, and check prints exactly that list', async () => {
    const b = richLog();
    // Turn 7 after turn 3 breaks turn numbering: dsh loads the log, the invariant check warns.
    b.event('turn/start', { turn: 7 });
    b.event('turn/end', { turn: 7, reason: { kind: 'completed' } });
    const file = join(dir, 'warned.jsonl');
    writeFileSync(file, b.bytes());
    const log = loadSession(b.bytes());
    const list = logDiagnostics(log, english);
    assert.equal(log.verdict.ok, true);
    assert.ok(
      list.some((d) => d.rule.startsWith('invariant.')),
      'relational warnings are part of the list',
    );
    const out: string[] = [];
    await runCli(['check', file], { out: (l) => out.push(l), err: () => {} });
    assert.deepEqual(
      out,
      list.map((d) => diagnosticLine(file, d)),
    );
    const lines = list.map((d) => d.line ?? 0);
    assert.deepEqual(
      lines,
      [...lines].sort((x, y) => x - y),
    );
  });

  it('words a seq gap as a broken seq order, not as a damaged line', () => {
    const b = new LogBuilder();
    b.chatTurn('one');
    b.rawLine(JSON.stringify({ type: 'turn/start', seq: 999, time: 1_786_000_000_000, data: { turn: 2 } }));
    b.rawLine(JSON.stringify({ type: 'turn/end', seq: 1000, time: 1_786_000_000_000, data: { turn: 2, reason: { kind: 'completed' } } }));
    const log = loadSession(b.bytes());
    const list = logDiagnostics(log, english);
    assert.ok(list.length > 0);
    for (const d of list) assert.doesNotMatch(d.message, /is damaged/, d.message);
    assert.ok(list.some((d) => d.rule === 'seq.contiguity'));
    const refusal = list.find((d) => d.refusing);
    if (refusal) assert.match(refusal.message, /dsh counts lines after the header|breaks/);
  });
});
