// The shared log generator (test/support/log-generator.mjs) writes logs dsh loads: the realistic logs
// of the benchmarks, at any size and seed, and the uniform turns of the sample sessions and e2e tests.
// The core's verdict, event count and surface agree with what the generator tracked while writing.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession } from '../../src/core';
import { headerLine, SAMPLE_HEADER, scaleLogText, TurnLogBuilder, writeGeneratedLog } from '../support/log-generator.mjs';

const utf8 = new TextEncoder();

describe('shared log generator', () => {
  it('realistic logs load with the generator’s own event count and surface, for several seeds', () => {
    for (const seed of [1, 2, 3]) {
      const { text, generator } = scaleLogText({ params: { targetEvents: 2_000 }, seed });
      const log = loadSession(utf8.encode(text));
      assert.equal(log.verdict.ok, true, `seed ${seed}: ${log.verdict.error}`);
      assert.equal(log.eventCount, generator.seq);
      assert.deepEqual(
        log.surface(),
        generator.surface.map((node) => node.seq),
      );
      assert.ok(generator.stats.compactions > 0 && generator.stats.prunes > 0 && generator.stats.packedRows > 0);
    }
  });

  it('is deterministic, and the seed changes the log', () => {
    const a = scaleLogText({ params: { targetEvents: 500 }, seed: 7 }).text;
    assert.equal(scaleLogText({ params: { targetEvents: 500 }, seed: 7 }).text, a);
    assert.notEqual(scaleLogText({ params: { targetEvents: 500 }, seed: 8 }).text, a);
  });

  it('uniform turns: a closed log, an open last turn that closes, and a streamed file of a given size', async () => {
    const builder = new TurnLogBuilder();
    const lines = [headerLine({ ...SAMPLE_HEADER, id: 'uniform' }), ...builder.turnLines(), ...builder.turnLines({ open: true })];
    const open = loadSession(utf8.encode(lines.join('\n') + '\n'));
    assert.equal(open.verdict.ok, true, open.verdict.error);
    assert.equal(open.lastTurnOpen, true);
    const closed = loadSession(utf8.encode([...lines, ...builder.closeOpenTurnLines()].join('\n') + '\n'));
    assert.equal(closed.lastTurnOpen, false);
    assert.equal(closed.eventCount, builder.seq);

    const dir = mkdtempSync(join(tmpdir(), 'generator-'));
    try {
      const written = await writeGeneratedLog(join(dir, 'big.jsonl'), { sessionId: 'big', bytes: 200_000, payloadBytes: 500 });
      const bytes = readFileSync(written.file);
      assert.equal(bytes.length, written.bytes);
      assert.ok(written.bytes >= 200_000);
      const log = loadSession(new Uint8Array(bytes));
      assert.equal(log.verdict.ok, true, log.verdict.error);
      assert.equal(log.eventCount, written.events);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
