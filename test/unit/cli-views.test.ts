// The view commands (surface, derive, repair, provenance) through runCli on files written to a temp
// dir: readable text by default, one JSON object per file with --json, exit codes as `check`.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { withoutWords } from '../../src/cli/english';
import { planRepair, provenanceIndex } from '../../src/core';
import { LogBuilder, richLog } from '../support/build-log';
import { load } from '../support/stream-helpers';

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('CLI views', () => {
  let dir: string;
  let file: string;
  let refusedFile: string;
  const b = richLog({ openTail: 'recorded-call' });
  const log = load(b);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'views-'));
    file = join(dir, 'session.jsonl');
    writeFileSync(file, b.bytes());
    const bad = new LogBuilder({ cwd: 'relative' });
    bad.chatTurn('hi');
    refusedFile = join(dir, 'refused.jsonl');
    writeFileSync(refusedFile, bad.bytes());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('surface: one line per node with seq, line, type and summary; the replacements', async () => {
    const { code, out } = await run(['surface', file]);
    assert.equal(code, 0);
    assert.match(out[0], /loads \(\d+ events, last turn open\)$/);
    assert.equal(out[1], `surface: ${log.surface().length} nodes`);
    const rows = out.filter((l) => /^ {2}#\d+ seq /.test(l));
    assert.equal(rows.length, log.surface().length);
    const checkpoint = log.replacements()[0].seq;
    assert.ok(
      rows[0].startsWith(`  #0 seq ${checkpoint} (line ${b.lineOf[checkpoint] + 1}) user/message [replace] [plugin:compact`),
      rows[0],
    );
    assert.ok(out.some((l) => l.startsWith(`  seq ${checkpoint} (line `) && l.includes('shadowing seq')));
    const repaired = await run(['surface', '--repaired', file]);
    assert.equal(repaired.out.filter((l) => /^ {2}#\d+ seq /.test(l)).length, log.repairedSurface().length);
    assert.ok(repaired.out.some((l) => l.includes('(closer) tool/result')));
  });

  it('surface --json: the nodes, cuts and replacements', async () => {
    const { out } = await run(['surface', '--json', file]);
    assert.equal(out.length, 1);
    const view = JSON.parse(out[0]);
    assert.equal(view.file, file);
    assert.equal(view.verdict.ok, true);
    assert.deepEqual(
      view.surface.map((n: { seq: number }) => n.seq),
      log.surface(),
    );
    assert.deepEqual(view.balancedCuts, (log.balancedCuts() as { cuts: number[] }).cuts);
    assert.deepEqual(view.replacements, log.replacements());
  });

  it('derive: the derived messages, as text and as JSON', async () => {
    const messages = log.deriveMessages();
    const text = await run(['derive', file]);
    assert.equal(text.out[1], `derived messages: ${messages.length}`);
    assert.equal(text.out.filter((l) => /^ {2}\[\d+\] /.test(l)).length, messages.length);
    const json = JSON.parse((await run(['derive', '--json', file])).out[0]);
    assert.deepEqual(json.messages, messages);
  });

  it('repair: the closers and the exact lines dsh would append', async () => {
    const plan = planRepair(log);
    assert.ok(plan.ok);
    const { out } = await run(['repair', file]);
    assert.ok(out.includes('  append 3 closers:'));
    assert.deepEqual(out.slice(-3), plan.lines);
    const json = JSON.parse((await run(['repair', '--json', file])).out[0]);
    assert.deepEqual(json.repair.lines, plan.lines);
  });

  it('provenance: the links and the warnings', async () => {
    const index = provenanceIndex(log);
    const { out } = await run(['provenance', file]);
    assert.match(out[1], /^provenance: \d+ chunks in \d+ attempts/);
    const chat = b.events.find((e) => e.type === 'assistant/message')!;
    assert.ok(
      out.some((l) => l.startsWith(`  seq ${chat.seq} (line `) && l.includes('assistant/message ← stream ')),
      'chat message row',
    );
    assert.ok(out.includes(`warnings: 0, notes: ${index.summary().infos}`));
    const json = JSON.parse((await run(['provenance', '--json', file])).out[0]);
    assert.deepEqual(json.summary, index.summary());
    // The JSON keeps the English messages and leaves out the words kept for other languages.
    assert.deepEqual(json.diagnostics, withoutWords(index.diagnostics));
  });

  it('still shows a refused log, says so, and exits 1; usage errors exit 2', async () => {
    const { code, out } = await run(['surface', refusedFile]);
    assert.equal(code, 1);
    assert.match(out[0], /REFUSED by dsh at stage seed/);
    assert.ok(out.some((l) => l.startsWith('  #0 seq ')));
    assert.equal((await run(['derive', '--bogus', file])).code, 2);
    assert.equal((await run(['provenance'])).code, 2);
  });
});
