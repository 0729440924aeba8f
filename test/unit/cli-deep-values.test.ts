// A log value nested deeper than JSON.stringify can go (20,000 levels in a 40 KB line) never ends a
// command with a stack trace: the text views summarise it, `--json` views write it through the depth-safe writer and
// `check` gives the file its verdict.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { headerLine, SAMPLE_HEADER, TurnLogBuilder } from '../support/log-generator.mjs';

describe('CLI on a deeply nested log value', () => {
  let dir: string;
  let file: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'deep-'));
    file = join(dir, 'deep.jsonl');
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const lines = new TurnLogBuilder()
      .turnLines()
      .map((line) =>
        line.includes('"user/message"') ? line.replace('"source":{"kind":"user"}', `"source":{"kind":"user"},"extra":${deep}`) : line,
      );
    assert.ok(
      lines.some((line) => line.includes('"extra"')),
      'the deep value is in the log',
    );
    writeFileSync(file, [headerLine({ ...SAMPLE_HEADER, id: 'deep' }), ...lines].join('\n') + '\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, err };
  };

  it('derive --json prints the whole value through the depth-safe writer instead of throwing', async () => {
    const { code, out } = await run(['derive', '--json', file]);
    assert.equal(code, 0);
    assert.equal(out.length, 1);
    assert.ok(out[0].includes('['.repeat(20_000) + ']'.repeat(20_000)), 'the nested value is written in full');
    const view = JSON.parse(out[0].replace('['.repeat(20_000) + ']'.repeat(20_000), 'null'));
    assert.equal(view.file, file);
    assert.equal(view.verdict.ok, true);
    assert.equal(view.error, undefined);
  });

  it('check, surface and derive as text still answer', async () => {
    for (const args of [
      ['check', file],
      ['surface', file],
      ['derive', file],
      ['check', '--json', file],
    ]) {
      const { code, out, err } = await run(args);
      assert.equal(code, 0, `${args.join(' ')}: ${err.join('\n')}`);
      assert.ok(out.length + err.length > 0);
    }
  });
});
