// Generation 4 over the shared material (../shared): the two logs dsh itself wrote at v3 and v4, and
// every log of ../shared/conformance-v3 that dsh's own code accepted, carried on to v4. The corpus
// lives outside this repository: without it the suite is skipped visibly, except under CI=true.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeArtifact, readGeneration, type Artifact } from '../../src/core/format';
import { restoreV4, v4Codec } from '../../src/core/format/v3-to-v4';
import { sharedDir } from '../support/paths';

const REAL = () => join(sharedDir(), 'fixtures', 'dsh-real');
const CORPUS = () => join(sharedDir(), 'conformance-v3');

function read(path: string, validation?: 'current' | 'transformed') {
  return readGeneration(new Uint8Array(readFileSync(path)), { targetVersion: 4, ...(validation ? { validation } : {}) });
}

/** The migrated artifact as dsh's v4 encoder writes it, read back as a v4 log. */
function roundTrip(artifact: Artifact): { text: string; back: Artifact } {
  const text = encodeArtifact(artifact, v4Codec, { keepText: true }).text!;
  const read = readGeneration(new TextEncoder().encode(text), { targetVersion: 4 });
  assert.equal(read.verdict.ok, true, `the migrated bytes do not read back as v4: ${read.verdict.dshError}`);
  return { text, back: read.artifact! };
}

/** The accepted logs of one corpus folder (its expected verdict says ok), with their paths. */
function acceptedCases(dir: string): string[] {
  const path = join(CORPUS(), dir);
  return readdirSync(path)
    .filter((name) => name.endsWith('.expected.json'))
    .map((name) => JSON.parse(readFileSync(join(path, name), 'utf8')))
    .filter((expected) => expected.ok === true)
    .map((expected) => join(path, expected.file as string))
    .sort();
}

describe('format v4 over the shared material (../shared)', function () {
  this.timeout(120_000);
  if (!existsSync(CORPUS()) || !existsSync(REAL())) {
    if (process.env.CI === 'true') {
      it('has the shared material', () => assert.fail(`../shared is required under CI=true (looked in ${sharedDir()}; set SHARED_DIR)`));
    } else {
      it(`is skipped: no shared material at ${sharedDir()} (set SHARED_DIR, or CI=true to require it)`, function () {
        this.skip();
      });
    }
    return;
  }

  it('the real v4 sample (dsh 0.1.7-rc.2) loads as v4, and dsh’s encoder writes its bytes back unchanged', () => {
    const path = join(REAL(), 'v4-catchup-sanitized-headless-run.jsonl');
    const { verdict, artifact } = read(path);
    assert.equal(verdict.ok, true, verdict.dshError);
    assert.equal(verdict.headerVersion, 4);
    assert.equal(verdict.events, 21);
    assert.equal(verdict.sha256, createHash('sha256').update(readFileSync(path)).digest('hex'));
    assert.deepEqual(
      artifact!.events.filter((event) => event.surfaceOp !== undefined).map((event) => event.type),
      ['system/message', 'user/message', 'user/message', 'user/message', 'assistant/message'],
    );
  });

  it('the real v3 sample (dsh 0.1.5-rc.3) migrates to v4; only the installed session’s check of its sanitized request/header refuses it', () => {
    const path = join(REAL(), 'v3-catchup-sanitized-excerpt.jsonl');
    const migrated = read(path, 'transformed');
    assert.equal(migrated.verdict.ok, true, migrated.verdict.dshError);
    assert.equal(migrated.verdict.events, 14);
    const events = migrated.artifact!.events as { type: string; data: any }[];
    assert.deepEqual(events[3].data.message.source, { kind: 'system-prompt' });
    assert.deepEqual(events[6].data.message.source, { kind: 'system-prompt' });
    // PROVENANCE.md: the sample's request/header was sanitized and lacks `reason`, which a v4 reader requires.
    assert.equal('reason' in events[7].data, false);
    const current = read(path, 'current');
    assert.equal(current.verdict.ok, false);
    assert.equal(current.verdict.stage, 'restore');
    assert.equal(current.verdict.dshError, 'format v4 request/header at seq 7 has an invalid reason');
    const repaired = {
      ...migrated.artifact!,
      events: migrated.artifact!.events.map((event, i) =>
        i === 7 ? { ...event, data: { ...(event.data as object), reason: 'initial' } } : event,
      ),
    };
    assert.equal(restoreV4(repaired), repaired);
  });

  for (const dir of ['v3', 'v3-mutations', 'v2', 'v1', 'v0-to-v3']) {
    it(`every ${dir} log dsh accepts migrates to v4, passes the v4 restore, and its migrated bytes read back as v4 to the same artifact`, () => {
      const cases = acceptedCases(dir);
      assert.ok(cases.length > 0, `no accepted cases in ${dir}`);
      const refused: string[] = [];
      for (const path of cases) {
        const { verdict, artifact } = read(path);
        if (!verdict.ok) {
          refused.push(`${path}: ${verdict.stage} ${verdict.dshError}`);
          continue;
        }
        const { text, back } = roundTrip(artifact!);
        // Compared as JSON: an embedded -0 (a v0 mutation's time) is written as 0, as JSON writes it.
        assert.equal(JSON.stringify(back), JSON.stringify(artifact), `${path}: read back differs`);
        assert.equal(encodeArtifact(back, v4Codec).sha256, createHash('sha256').update(text).digest('hex'));
      }
      assert.deepEqual(refused, []);
    });
  }

  it('a migrated tool result is a tool-role message, and no plugin source is left', () => {
    const path = acceptedCases('v3').find((p) => p.includes('parallel-tool-calls'))!;
    const { artifact } = read(path);
    const results = artifact!.events.filter((event) => event.type === 'tool/result') as { data: any }[];
    assert.ok(results.length >= 2);
    for (const result of results) {
      assert.equal(result.data.message.role, 'tool');
      assert.equal(result.data.message.toolCallId, result.data.message.source.callId);
    }
    assert.ok(!JSON.stringify(artifact!.events).includes('"kind":"plugin"'));
  });
});
