// The committed sample sessions (test/fixtures/sessions/) are what their scripts write: each is made
// again here, in memory, and compared byte for byte, so a change to a generator cannot leave a stale
// sample behind (and a hand edit of a sample is caught).
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { encodeDshZstdLog } from '../../src/core/zstd';
import { sampleSessions } from '../../e2e/make-sample-sessions.mjs';
import { repoRoot } from '../support/paths';
import { compactionSample } from '../../e2e/timeline-samples.mjs';

/** Every committed sample and how its bytes are made. */
function expectedSamples(): Map<string, Uint8Array> {
  const text = (lines: string[]) => new TextEncoder().encode(lines.join('\n') + '\n');
  const out = new Map<string, Uint8Array>();
  const { samples } = sampleSessions();
  for (const [name, lines] of Object.entries(samples)) out.set(name, text(lines));
  out.set('session-compaction.jsonl', text(compactionSample()));
  // The compressed sample is the small one as dsh stores it: the header frame, then four lines a frame.
  const small = samples['session-small.jsonl'] ?? [];
  out.set('session-small.jsonl.zstd', encodeDshZstdLog(small, { encoder: 'raw', linesPerFrame: 4 }));
  return out;
}

describe('committed sample sessions', () => {
  const SAMPLES_DIR = join(repoRoot(), 'test', 'fixtures', 'sessions');
  const expected = expectedSamples();
  const committed = readdirSync(SAMPLES_DIR).filter((name) => /\.jsonl(\.zstd)?$/.test(name));

  it('are all made by a script (no sample without its generator)', () => {
    assert.deepEqual([...committed].sort(), [...expected.keys()].sort());
  });

  for (const name of committed) {
    it(`${name} equals what its script writes`, () => {
      const bytes = new Uint8Array(readFileSync(join(SAMPLES_DIR, name)));
      const made = expected.get(name);
      assert.ok(made, `no script makes ${name}`);
      assert.ok(Buffer.from(bytes).equals(Buffer.from(made)), `${name} differs from its script's output: run the script again`);
    });
  }
});
