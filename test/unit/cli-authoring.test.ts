// `session-surface compact` and `prune` through runCli on copies in a temp dir, plain and zstd, and (when
// the shared corpus is there) on a real `.hdrfix` log: a dry run prints the exact lines and writes
// nothing; a save appends exactly those lines, and the file then passes `check`; refusals exit 1 with
// every reason; usage errors exit 2.
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { appendBytes, loadSession, loadSessionFile, type SessionLog } from '../../src/core';
import { concatBytes, decodeZstdLog, encodeDshZstdLog } from '../../src/core/zstd';
import { LogBuilder } from '../support/build-log';
import { hasShared, sharedDir } from '../support/paths';

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

const T = '1786000999000';

/**
 * Makes a file look still for ten minutes. A generation-0 log that changed in the last minute may have
 * a live agent writing it (dsh before 0.1.3 takes no lock), so the CLI refuses it without --force.
 */
function still(path: string): void {
  const past = new Date(Date.now() - 10 * 60_000);
  utimesSync(path, past, past);
}
const IDS = ['--compaction-id', 'cmp-cli', '--message-id', 'chk-cli', '--time', T];

function threeTurns(): LogBuilder {
  const b = new LogBuilder();
  b.chatTurn('one');
  b.toolTurn('two', ['a', 'b']);
  b.chatTurn('three');
  return b;
}

/** The first balanced span of at least two surface nodes (start, end seqs), if the log has one. */
function balancedSpan(log: SessionLog): [number, number] | undefined {
  const nodes = log.surface();
  const balance = log.balancedCuts();
  if ('error' in balance) return undefined;
  const cuts = balance.cuts;
  for (const a of cuts) for (const b of cuts) if (b - a >= 2 && b <= nodes.length && a < b) return [nodes[a], nodes[b - 1]];
  return undefined;
}

describe('CLI compact and prune', () => {
  let dir: string;
  let summaryFile: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sss-cli-edit-'));
    summaryFile = join(dir, 'summary.txt');
    writeFileSync(summaryFile, 'They said hello twice.\nNothing else happened.\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const bytesOf = (path: string) => new Uint8Array(readFileSync(path));

  function copies(b = threeTurns()): { plain: string; zstd: string; log: SessionLog } {
    const plain = join(dir, 'session.jsonl');
    writeFileSync(plain, b.bytes());
    const zstd = join(dir, 'session.jsonl.zstd');
    writeFileSync(
      zstd,
      encodeDshZstdLog(
        b
          .text()
          .split('\n')
          .filter((l) => l !== ''),
        { encoder: 'raw' },
      ),
    );
    still(plain);
    still(zstd);
    return { plain, zstd, log: loadSession(b.bytes()) };
  }

  /** Dry run, then the real save: the file is the original plus exactly the dry run's lines, and check passes. */
  async function dryRunThenSave(file: string, args: string[]): Promise<string[]> {
    still(file);
    const original = bytesOf(file);
    const dry = await run([...args, '--dry-run']);
    assert.equal(dry.code, 0, dry.err.join('\n'));
    // One line is "1 line, seq N"; more are "K lines, seqs N–M".
    const lines = dry.out.length;
    const span = lines === 1 ? '1 line, seq \\d+' : `${lines} lines, seqs \\d+–\\d+`;
    assert.match(dry.err.at(-1)!, new RegExp(`holds: ${span}; dry run, nothing written$`));
    assert.deepEqual(bytesOf(file), original, 'a dry run writes nothing');
    const saved = await run(args);
    assert.equal(saved.code, 0, saved.err.join('\n'));
    assert.deepEqual(saved.out, dry.out);
    const savedSpan = lines === 1 ? '1 line \\(seq \\d+' : `${lines} lines \\(seqs \\d+–\\d+`;
    assert.match(saved.err.at(-1)!, new RegExp(`appended ${savedSpan}, \\d+ bytes\\); the log loads \\(\\d+ events\\)$`));
    const file2 = bytesOf(file);
    assert.deepEqual(file2.subarray(0, original.length), original);
    const tail = file2.subarray(original.length);
    const text = loadSessionFile(original).zstd ? decodeZstdLog(tail, { expectHeaderFrame: false }).text : tail;
    assert.deepEqual(text, appendBytes(dry.out));
    const check = await run(['check', file]);
    assert.equal(check.code, 0, check.out.join('\n'));
    assert.deepEqual(
      check.out.filter((l) => !/warning: /.test(l)),
      [],
      'no new error',
    );
    return dry.out;
  }

  for (const kind of ['plain', 'zstd'] as const) {
    describe(kind, () => {
      it('compact: dry run prints the exact lines; the save appends them and check passes', async () => {
        const c = copies();
        const nodes = c.log.surface();
        const lines = await dryRunThenSave(c[kind], [
          'compact',
          c[kind],
          '--start',
          String(nodes[0]),
          '--end',
          String(nodes[2]),
          '--summary-file',
          summaryFile,
          ...IDS,
        ]);
        assert.equal(lines.length, 4);
        const summary = JSON.parse(lines[1]);
        assert.deepEqual(summary.data.summary, [{ type: 'text', text: 'They said hello twice.\nNothing else happened.' }]);
        assert.deepEqual(summary.data.shadowedSeqs, nodes.slice(0, 3));
        assert.equal(summary.data.compactionId, 'cmp-cli');
        assert.equal(JSON.parse(lines[2]).data.id, 'chk-cli');
      });

      it('prune: default content says how much was cut, every other field kept', async () => {
        const c = copies();
        const result = c.log.surface()[4];
        const lines = await dryRunThenSave(c[kind], ['prune', c[kind], '--seq', String(result), '--time', T]);
        assert.equal(lines.length, 2);
        assert.deepEqual(JSON.parse(lines[0]).data, {
          shadowedRange: { start: result, end: result },
          shadowedSeqs: [result],
          shadowedTokenCount: JSON.parse(lines[0]).data.shadowedTokenCount,
        });
        const rewrite = JSON.parse(lines[1]);
        const original = JSON.parse(c.log.lineText(result)!);
        assert.match(rewrite.data.message.content[0].content[0].text, /^\[pruned: \d+ B\]$/);
        original.data.message.content[0].content = rewrite.data.message.content[0].content;
        assert.deepEqual(rewrite.data, original.data);
      });

      it('prune --content: the given text', async () => {
        const c = copies();
        const result = c.log.surface()[5];
        const lines = await dryRunThenSave(c[kind], ['prune', c[kind], '--seq', String(result), '--content', 'gone', '--time', T]);
        assert.deepEqual(JSON.parse(lines[1]).data.message.content[0].content, [{ type: 'text', text: 'gone' }]);
      });

      it('refusals: exit 1 with every reason, file untouched', async () => {
        const c = copies();
        const nodes = c.log.surface();
        const original = bytesOf(c[kind]);
        // A cut between the call of b (nodes[3]) and its result (nodes[5]), and a reversed span at once is
        // not possible: one refusal names the call and the result; a second run names a shadow.
        const split = await run([
          'compact',
          c[kind],
          '--start',
          String(nodes[0]),
          '--end',
          String(nodes[4]),
          '--summary-file',
          summaryFile,
          ...IDS,
        ]);
        assert.equal(split.code, 1);
        assert.ok(
          split.err.some((l) =>
            new RegExp(
              `compaction\\.balanced-cut: the cut after seq ${nodes[4]} \\(end\\) is not balanced: tool call "b" of assistant/message seq ${nodes[3]} is unanswered there; its tool/result is seq ${nodes[5]}, after the cut`,
            ).test(l),
          ),
          split.err.join('\n'),
        );
        assert.match(split.err.at(-1)!, /compaction not saved: the edit does not hold on .+; nothing was written$/);
        const notResult = await run(['prune', c[kind], '--seq', String(nodes[0])]);
        assert.equal(notResult.code, 1);
        assert.ok(notResult.err.some((l) => /prune\.not-tool-result: seq \d+ is a user\/message, not a tool\/result/.test(l)));
        const dry = await run([
          'compact',
          c[kind],
          '--start',
          String(nodes[2]),
          '--end',
          String(nodes[0]),
          '--summary-file',
          summaryFile,
          '--dry-run',
        ]);
        assert.equal(dry.code, 1);
        assert.ok(dry.err.some((l) => /replace\.endpoint-order: start seq \d+ \(surface index 2\) comes after end seq \d+/.test(l)));
        assert.match(dry.err.at(-1)!, /compaction refused \(1 reason\); dry run, nothing written$/);
        assert.deepEqual(bytesOf(c[kind]), original);
      });
    });
  }

  it('refuses an open turn and an open compaction bracket in plain words', async () => {
    const b = threeTurns();
    b.event('compaction/start', { compactionId: 'crashed', turn: null });
    b.turnStart();
    b.user('still typing');
    const { plain, log } = copies(b);
    const nodes = log.surface();
    const r = await run(['compact', plain, '--start', String(nodes[0]), '--end', String(nodes[2]), '--summary-file', summaryFile]);
    assert.equal(r.code, 1);
    assert.ok(
      r.err.some((l) =>
        /compaction\.in-progress: compaction already in progress: compaction\/start at seq \d+ has no compaction\/end/.test(l),
      ),
      r.err.join('\n'),
    );
    assert.ok(r.err.some((l) => /compaction\.turn-open: a manual compaction runs between turns, but the last turn is open/.test(l)));
  });

  it('usage errors exit 2', async () => {
    const { plain } = copies();
    for (const args of [
      ['compact', plain, '--start', '1', '--summary-file', summaryFile],
      ['compact', plain, '--start', 'x', '--end', '2', '--summary-file', summaryFile],
      ['compact', plain, '--start', '1', '--end', '2'],
      ['compact', plain, '--start', '1', '--end', '2', '--summary-file', join(dir, 'missing.txt')],
      ['compact', '--start', '1', '--end', '2', '--summary-file', summaryFile],
      ['prune', plain],
      ['prune', plain, '--seq', '3', '--bogus'],
      ['prune', plain, plain, '--seq', '3'],
      ['prune', join(dir, 'missing.jsonl'), '--seq', '3'],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err.join('\n')}`);
    }
    writeFileSync(summaryFile, '\n');
    const empty = await run(['compact', plain, '--start', '1', '--end', '2', '--summary-file', summaryFile]);
    assert.equal(empty.code, 2);
    assert.match(empty.err[0], /is empty/);
  });

  it('a writer appending between read and save is detected by the save path; the CLI plans on the file as it reads it', async () => {
    // The race window of one CLI run is too short to hit from outside, so the test appends from the
    // confirmation itself: the CLI reads, another writer appends, then the save must notice.
    const b = threeTurns();
    const { plain, log } = copies(b);
    const nodes = log.surface();
    const before = b.lines.length;
    b.chatTurn('four');
    const foreign = b.lines
      .slice(before)
      .map((l) => `${l}\n`)
      .join('');
    const { loadForEdit } = await import('../../src/files/load-for-edit');
    const { saveEdits } = await import('../../src/files/append-save');
    const { PendingEdits, compactionEdit } = await import('../../src/core');
    const target = await loadForEdit(plain);
    const edits = new PendingEdits(target.loaded.log.eventCount);
    edits.push(
      compactionEdit(target.loaded.log, { start: nodes[0], end: nodes[2], summaryText: 's', compactionId: 'c', messageId: 'm', time: 1 }),
    );
    appendFileSync(plain, foreign);
    const refused = await saveEdits(plain, target, edits);
    assert.ok(!refused.ok);
    assert.equal(refused.stage, 'declined');
    // The CLI on the grown file plans on the new tail directly (it reads after the append).
    // The append was moments ago, so the file is taken for a live agent's unless --force.
    const args = ['compact', plain, '--start', String(nodes[0]), '--end', String(nodes[2]), '--summary-file', summaryFile, ...IDS];
    const live = await run(args);
    assert.equal(live.code, 1);
    assert.match(live.err.join('\n'), /changed \d+ s ago: an agent may still be writing it.*--force/);
    const r = await run([...args, '--force']);
    assert.equal(r.code, 0, r.err.join('\n'));
    assert.equal(JSON.parse(r.out[0]).seq, log.eventCount + 10);
    assert.equal((await run(['check', plain])).code, 0);
  });

  describe('a real .hdrfix log (shared corpus)', () => {
    before(function () {
      if (!hasShared()) this.skip();
    });

    /** Real logs that dsh loads, closed, with a balanced span to compact and a tool result to prune. */
    function realCandidates(): { path: string; log: SessionLog; span: [number, number]; result?: number }[] {
      const root = join(sharedDir(), 'conformance', 'real');
      const out = [];
      for (const name of readdirSync(root)
        .filter((n) => n.endsWith('.hdrfix.jsonl'))
        .sort()) {
        const path = join(root, name);
        const log = loadSession(bytesOf(path));
        if (!log.verdict.ok || log.lastTurnOpen) continue;
        const span = balancedSpan(log);
        if (!span) continue;
        const result = log.surface().find((s) => log.eventType(s) === 'tool/result');
        out.push({ path, log, span, result });
        if (out.length >= 3) break;
      }
      return out;
    }

    it('compact and prune on copies: original bytes plus exactly the lines, check passes (plain and zstd)', async () => {
      const found = realCandidates();
      assert.ok(found.length > 0, 'no real log to compact');
      for (const { path, log, span, result } of found) {
        const plain = join(dir, 'real.jsonl');
        writeFileSync(plain, bytesOf(path));
        await dryRunThenSave(plain, [
          'compact',
          plain,
          '--start',
          String(span[0]),
          '--end',
          String(span[1]),
          '--summary-file',
          summaryFile,
          ...IDS,
        ]);
        const zstd = join(dir, 'real.jsonl.zstd');
        const lines = new TextDecoder()
          .decode(bytesOf(path))
          .split('\n')
          .filter((l) => l !== '');
        writeFileSync(zstd, encodeDshZstdLog(lines, { encoder: 'raw', linesPerFrame: 5 }));
        await dryRunThenSave(zstd, [
          'compact',
          zstd,
          '--start',
          String(span[0]),
          '--end',
          String(span[1]),
          '--summary-file',
          summaryFile,
          ...IDS,
        ]);
        if (result !== undefined) {
          const pruneCopy = join(dir, 'real-prune.jsonl');
          writeFileSync(pruneCopy, bytesOf(path));
          await dryRunThenSave(pruneCopy, ['prune', pruneCopy, '--seq', String(result), '--time', T]);
        }
        assert.ok(log.eventCount > 0);
      }
    });

    it('refuses a split tool call on a real log, naming the call and the result', async () => {
      for (const { path, log } of realCandidates()) {
        const nodes = log.surface();
        const balance = log.balancedCuts();
        if ('error' in balance) continue;
        const unbalanced = nodes.findIndex((_, k) => k > 0 && !balance.cuts.includes(k + 1));
        if (unbalanced < 0) continue;
        const copy = join(dir, 'real-refused.jsonl');
        writeFileSync(copy, bytesOf(path));
        const r = await run([
          'compact',
          copy,
          '--start',
          String(nodes[0]),
          '--end',
          String(nodes[unbalanced]),
          '--summary-file',
          summaryFile,
        ]);
        assert.equal(r.code, 1);
        assert.ok(
          r.err.some((l) => /compaction\.balanced-cut: .*tool call ".+" of assistant\/message seq \d+ is unanswered there/.test(l)),
          r.err.join('\n'),
        );
        assert.deepEqual(bytesOf(copy), bytesOf(path));
        return;
      }
      assert.fail('no real log with an unbalanced cut');
    });
  });

  it('the bytes appended to a zstd copy are one frame', async () => {
    const c = copies();
    const original = bytesOf(c.zstd);
    const nodes = c.log.surface();
    const r = await run(['compact', c.zstd, '--start', String(nodes[7]), '--end', String(nodes[8]), '--summary-file', summaryFile, ...IDS]);
    assert.equal(r.code, 0, r.err.join('\n'));
    const decoded = decodeZstdLog(bytesOf(c.zstd).subarray(original.length), { expectHeaderFrame: false });
    assert.equal(decoded.frames, 1);
    assert.deepEqual(bytesOf(c.zstd).subarray(0, original.length), original);
    assert.deepEqual(concatBytes([decoded.text]), appendBytes(r.out));
  });
});
