// The v4 mode of the shared log generator (test/support/log-generator-v4.mjs) writes logs the core's
// v4 restore accepts — plain and zstd — with the generator's own event count, cut and surface, and
// every v4 feature it claims (spec §4–§7: head, tool-role results, developer message, attempt, fork,
// compactions with startSeq/endSeq, embedded streams).
import { strict as assert } from 'node:assert';
import { readGeneration } from '../../src/core/format';
import { encodeZstdFrame } from '../../src/core/zstd';
import { scaleV4LogText } from '../support/log-generator-v4.mjs';

const utf8 = new TextEncoder();

describe('shared log generator, v4 mode', () => {
  it('generated v4 logs load as v4 with the generator’s event count and inherited cut, for several seeds', () => {
    for (const seed of [1, 2, 3]) {
      const { text, generator } = scaleV4LogText({ params: { targetEvents: 3_000 }, seed });
      const { verdict, artifact } = readGeneration(utf8.encode(text), { targetVersion: 4 });
      assert.equal(verdict.ok, true, `seed ${seed}: ${verdict.stage} ${verdict.dshError} (line ${verdict.line})`);
      assert.equal(verdict.headerVersion, 4);
      assert.equal(verdict.events, generator.seq);
      assert.equal(verdict.inheritedEventCount, generator.inheritedEventCount);
      const stats = generator.stats;
      assert.ok(
        stats.compactions > 0 && stats.prunes > 0 && stats.attempts > 0 && stats.developer > 0 && stats.systemReplacements > 0,
        JSON.stringify(stats),
      );
      assert.equal(stats.forkClosers, 2);
      const types = verdict.types!;
      for (const type of [
        'system/message',
        'developer/message',
        'assistant/attempt',
        'tool/result',
        'tool/ptc-dispatch',
        'compaction/summary',
        'compaction/prune',
      ])
        assert.ok(types[type] > 0, `${type} in seed ${seed}`);
      assert.equal(types['assistant/chunk'], undefined);
      const events = artifact!.events as { type: string; data: any; surfaceOp?: any }[];
      assert.ok(events.some((e) => e.type === 'turn/end' && e.data.reason.kind === 'forked'));
      assert.ok(events.some((e) => e.type === 'user/message' && e.data.source.kind === 'compact-checkpoint' && 'startSeq' in e.surfaceOp));
      assert.ok(events.every((e) => e.type !== 'tool/result' || e.data.message.role === 'tool'));
      assert.ok(events.every((e) => e.type !== 'assistant/message' || Array.isArray(e.data.stream)));
    }
  });

  it('is deterministic, and the seed changes the log', () => {
    const a = scaleV4LogText({ params: { targetEvents: 800 }, seed: 7 }).text;
    assert.equal(scaleV4LogText({ params: { targetEvents: 800 }, seed: 7 }).text, a);
    assert.notEqual(scaleV4LogText({ params: { targetEvents: 800 }, seed: 8 }).text, a);
  });

  it('a generated v4 log written as dsh writes zstd (a header frame, then frames of lines) loads the same', () => {
    const { text, generator } = scaleV4LogText({ params: { targetEvents: 1_500 }, seed: 4 });
    const bytes = utf8.encode(text);
    const headerEnd = bytes.indexOf(10) + 1;
    const frames = [
      encodeZstdFrame(bytes.subarray(0, headerEnd), { encoder: 'raw' }),
      encodeZstdFrame(bytes.subarray(headerEnd), { encoder: 'raw' }),
    ];
    const file = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const frame of frames) {
      file.set(frame, at);
      at += frame.length;
    }
    const { verdict } = readGeneration(file, { targetVersion: 4 });
    assert.equal(verdict.ok, true, verdict.dshError);
    assert.equal(verdict.events, generator.seq);
  });
});
