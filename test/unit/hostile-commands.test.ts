// Crafted files against the commands: deep values in an open turn (the closer path), log strings and
// file names holding terminal controls, closers dsh's writer cannot write, deep data under compact and
// prune, a summary file that is a device or a FIFO, a file name that is not UTF-8, a deep tool-result
// replacement, and one event citing a hundred thousand sources. Every command answers with 0, 1 or 2,
// no internal error, nothing a terminal would act on, and in time.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { loadSession } from '../../src/core';
import { LogBuilder, richLog } from '../support/build-log';
import { runCliChild } from '../support/child-process';

const DEEP = '['.repeat(20_000) + '1' + ']'.repeat(20_000);
const DEEP_OBJECT = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
/** What a terminal acts on: C0 (newline and tab too), DEL, C1, line separators, bidi controls. */
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

async function run(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runCli(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  return { code, lines };
}

/** The open-tail log with its last occurrence of `pattern` replaced. */
function openTail(pattern: string, replacement: string): string {
  const text = richLog({ openTail: 'recorded-call' }).text();
  const at = text.lastIndexOf(pattern);
  assert.ok(at >= 0, `the log holds ${pattern}`);
  return text.slice(0, at) + replacement + text.slice(at + pattern.length);
}

/** The open-tail log with `pattern` replaced in every line of its open turn. */
function inOpenTurn(pattern: string, replacement: string): string {
  const lines = richLog({ openTail: 'recorded-call' }).text().trim().split('\n');
  let start = lines.length - 1;
  while (!lines[start].includes('"type":"turn/start"')) start--;
  return [...lines.slice(0, start), ...lines.slice(start).map((l) => l.split(pattern).join(replacement))].join('\n') + '\n';
}

const VIEWS = [
  ['check'],
  ['check', '--json'],
  ['inspect', '--json'],
  ['surface'],
  ['surface', '--repaired', '--json'],
  ['derive'],
  ['derive', '--repaired'],
  ['provenance'],
  ['repair'],
  ['repair', '--json'],
  ['repair', '--dry-run'],
  ['repair', '--dry-run', '--json'],
];

describe('hostile input, round three: the commands', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hostile-3-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  describe('deep values in an open turn reach the closers', () => {
    const spots: Record<string, string> = {
      'pending call id (array)': openTail('"call-d"', DEEP).split('"call-d"').join(DEEP),
      'pending call id (object)': openTail('"call-d"', DEEP_OBJECT).split('"call-d"').join(DEEP_OBJECT),
      'open turn number': inOpenTurn('"turn":4', `"turn":${DEEP}`),
      'open step number': inOpenTurn('"step":1', `"step":${DEEP}`),
    };
    for (const [spot, text] of Object.entries(spots)) {
      it(`at the ${spot}: every command answers, and check gives the same verdict on one thread and on two`, async () => {
        const path = file(`${spot.replace(/\W+/g, '-')}.jsonl`, text);
        for (const args of VIEWS) {
          const { code, lines } = await run([...args, path]);
          assert.ok(code === 0 || code === 1, `${args.join(' ')} exits ${code}: ${lines.join('\n').slice(0, 300)}`);
          assert.ok(
            !lines.some((l) => /internal error|Maximum call stack/.test(l)),
            `${args.join(' ')}: ${lines.join('\n').slice(0, 300)}`,
          );
        }
        const folder = join(dir, `dir-${spot.replace(/\W+/g, '-')}`);
        mkdirSync(folder);
        copyFileSync(path, join(folder, 'a.jsonl'));
        copyFileSync(path, join(folder, 'b.jsonl'));
        const one = runCliChild(['check', '--json', '--jobs', '1', folder]);
        const two = runCliChild(['check', '--json', '--jobs', '2', folder]);
        const verdicts = (r: typeof one) =>
          r.stdout
            .trim()
            .split('\n')
            .slice(0, 2)
            .map((l) => JSON.parse(l).status);
        assert.deepEqual(verdicts(one), verdicts(two));
        assert.equal(one.code, two.code);
        assert.deepEqual(verdicts(one), ['loads', 'loads']);
      });
    }

    it('the closer of a call id nested 20,000 levels deep is named as the engine names it, without recursion', () => {
      const log = loadSession(new TextEncoder().encode(spots['pending call id (array)']));
      assert.equal(log.verdict.ok, true, log.verdict.error);
      assert.equal(log.closers[0].data.message.id, `interrupted-tool-result-1-${log.eventCount}`);
    });

    it('a call id whose own toString is no function is the TypeError dsh meets making the closer', () => {
      const text = openTail('"call-d"', '{"toString":1}').split('"call-d"').join('{"toString":1}');
      const log = loadSession(new TextEncoder().encode(text));
      assert.equal(log.verdict.stage, 'closers');
      assert.equal(log.verdict.errorName, 'TypeError');
      assert.equal(log.verdict.dshError, 'Cannot convert object to primitive value');
    });
  });

  describe('terminal controls in log strings and file names', () => {
    const evil = '2\u001b]0;PWNED\u0007\u001b[2J\u009b1m\u202e\u0000\n/etc/passwd:1: forged: rule:';
    it('every command prints them visible, as \\uXXXX, and --json lines stay JSON with the same values', async () => {
      const b = richLog({ openTail: 'recorded-call' });
      const lines = b.text().trim().split('\n');
      // A damaged line whose seq holds the sequence, a type name and a block kind holding it, a tool name.
      lines.splice(8, 0, `{"type":${JSON.stringify(evil)},"seq":${JSON.stringify(evil)}}`);
      const text = lines.join('\n').replace('"name":"read"', `"name":${JSON.stringify(evil)}`) + '\n';
      const named = join(dir, `evil\u001b]0;T\u0007\nx.jsonl`);
      writeFileSync(named, text);
      const everything: string[] = [];
      for (const args of [...VIEWS, ['compact', '--dry-run', '--start', '1', '--end', '7', '--summary-file', named]]) {
        const { lines: printed } = await run([...args, named]);
        for (const line of printed) {
          assert.doesNotMatch(line, UNSAFE, `${args.join(' ')} printed ${JSON.stringify(line.slice(0, 200))}`);
          if (args.includes('--json') && line.startsWith('{')) assert.doesNotThrow(() => JSON.parse(line), line.slice(0, 200));
        }
        everything.push(...printed);
      }
      // Shown, not dropped: the file name and the log's strings with their controls as escapes.
      assert.ok(everything.some((l) => l.includes('evil\\u001B]0;T\\u0007\\u000Ax.jsonl')));
      assert.ok(everything.some((l) => l.includes('2\\u001B]0;PWNED\\u0007\\u001B[2J\\u009B1m\\u202E\\u0000\\u000A/etc/passwd')));
    });

    it('a damaged line whose seq holds an escape sequence, checked in a folder: the verdict line shows it visible', async () => {
      const folder = join(dir, 'evil-folder');
      mkdirSync(folder);
      const lines = richLog().text().trim().split('\n');
      lines.splice(5, 0, `{"type":"turn/end","seq":${JSON.stringify(evil)}}`);
      writeFileSync(join(folder, 'x\u001b[2J.jsonl'), lines.join('\n') + '\n');
      const { code, lines: printed } = await run(['check', folder]);
      assert.equal(code, 1);
      assert.ok(printed.every((l) => !UNSAFE.test(l)));
      assert.ok(printed.some((l) => l.includes('x\\u001B[2J.jsonl')));
    });
  });

  describe('closers dsh cannot write', () => {
    const cases: Record<string, string> = {
      'the last event without time': openTail('"time":1786000000048,', ''),
      'a time of 1e400': openTail('"time":1786000000048', '"time":1e400'),
      'a tool-call id that is an object': openTail('"call-d"', '{"x":1}').split('"call-d"').join('{"x":1}'),
    };
    for (const [what, text] of Object.entries(cases)) {
      it(`${what}: repair, its dry run and its JSON answer with reasons, never an internal error`, async () => {
        const path = file(`closers-${what.replace(/\W+/g, '-')}.jsonl`, text);
        for (const args of [['repair'], ['repair', '--json'], ['repair', '--dry-run'], ['repair', '--dry-run', '--json']]) {
          const { code, lines } = await run([...args, path]);
          assert.ok(code === 0 || code === 1, `${args.join(' ')} exits ${code}: ${lines.join('\n').slice(0, 300)}`);
          assert.ok(!lines.some((l) => /internal error/.test(l)));
        }
      });
    }
  });

  describe('compact, prune and derive on deep data', () => {
    /** A chat turn and a tool turn, nothing compacted: every event is on the surface. */
    function plainTurns(): { text: string; resultSeq: number } {
      const b = new LogBuilder();
      b.chatTurn('hello');
      const [resultSeq] = b.toolTurn('read it', ['call-a'], 'done');
      return { text: b.text(), resultSeq };
    }

    it('a deep event data and a deep tool result are estimated, pruned and compacted without JSON.stringify', async () => {
      const { text: plain, resultSeq } = plainTurns();
      const text = plain
        .replace(/("type":"tool-result","toolCallId":"call-a","content":)\[[^\]]*\]/, `$1[{"type":"text","text":"x","deep":${DEEP}}]`)
        .replace('"text":"hello"', `"text":"hello","deep":${DEEP_OBJECT}`);
      assert.ok(text.includes(DEEP) && text.includes(DEEP_OBJECT));
      const path = file('deep-data.jsonl', text);
      const nodes = loadSession(new TextEncoder().encode(text)).surface();
      writeFileSync(join(dir, 'summary.txt'), 'summary\n');
      for (const args of [
        ['compact', path, '--start', String(nodes[0]), '--end', String(nodes[2]), '--summary-file', join(dir, 'summary.txt'), '--dry-run'],
        ['prune', path, '--seq', String(resultSeq), '--dry-run'],
      ]) {
        const { code, lines } = await run(args);
        assert.ok(code === 0 || code === 1, `${args[0]} exits ${code}: ${lines.join('\n').slice(0, 300)}`);
        assert.ok(!lines.some((l) => /internal error/.test(l)));
      }
    });

    it('derive prints a message id nested deep as bounded text', async () => {
      const { text } = plainTurns();
      const path = file('deep-id.jsonl', text.replace(/"id":"user-\d+"/, `"id":${DEEP}`));
      const { code, lines } = await run(['derive', path]);
      assert.ok(code === 0 || code === 1, lines.join('\n').slice(0, 300));
      assert.ok(lines.every((l) => l.length < 2000));
    });
  });

  describe('compact --summary-file', () => {
    for (const [what, path] of [
      ['/dev/zero', () => '/dev/zero'],
      [
        'a FIFO with no writer',
        () => {
          const fifo = join(dir, 'fifo');
          execFileSync('mkfifo', [fifo]);
          return fifo;
        },
      ],
      ['a directory', () => dir],
    ] as const) {
      it(`${what} is refused at once (exit 2), never read`, () => {
        const log = file('for-summary.jsonl', richLog().text());
        const r = runCliChild(['compact', log, '--start', '1', '--end', '7', '--summary-file', path(), '--dry-run'], 20_000);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /not a regular file/);
        assert.ok(r.ms < 10_000, `${r.ms} ms`);
      });
    }
  });

  it('a file under a folder whose name is not UTF-8 is read by its bytes and shown with \\xNN', async () => {
    const folder = join(dir, 'names');
    mkdirSync(folder);
    const name = Buffer.concat([Buffer.from(`${folder}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.jsonl')]);
    writeFileSync(name, richLog().text());
    for (const jobs of ['1', '2']) {
      const r = runCliChild(['check', '--jobs', jobs, folder]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /bad-\\xFF\\xFE\.jsonl: loads/);
    }
  });

  it('a tool-result replacement nested deep is compared without recursion: loads, and a real change is dsh’s refusal', () => {
    const b = new LogBuilder();
    const [resultSeq] = b.toolTurn('read it', ['call_a']);
    const data = JSON.parse(JSON.stringify(b.events[resultSeq].data));
    // Lines are written as text: JSON.stringify itself cannot write a value this deep.
    const withExtra = (line: string, extra: string) => line.replace(/"data":\{/, `"data":{"extra":${extra},`);
    const replacement = (extra: string) =>
      withExtra(
        JSON.stringify({
          type: 'tool/result',
          seq: b.nextSeq,
          time: b.lastTime,
          data,
          sourceEventSeqs: [resultSeq],
          surfaceOp: { op: 'replace', start: resultSeq, end: resultSeq },
        }),
        extra,
      );
    const base = b.text().trim().split('\n');
    // The original carries the same deep value: only content may change, and it did not.
    const at = base.findIndex((l) => l.includes(`"seq":${resultSeq},`));
    base[at] = withExtra(base[at], DEEP);
    const same = loadSession(new TextEncoder().encode([...base, replacement(DEEP)].join('\n') + '\n'));
    assert.equal(same.verdict.ok, true, same.verdict.error);
    const changed = loadSession(new TextEncoder().encode([...base, replacement(`[${DEEP},2]`)].join('\n') + '\n'));
    assert.equal(changed.verdict.rule, 'toolresult-rewrite.content-only');
    assert.doesNotMatch(changed.verdict.error ?? '', /call stack/);
  });

  it('the provenance text of one event citing 100,000 chunks takes linear time', () => {
    const b = new LogBuilder();
    b.turnStart();
    b.user('go');
    b.stepStart();
    b.assistant({ chunks: Array.from({ length: 100_000 }, () => 'a') });
    b.stepEnd();
    b.turnEnd();
    const path = file('many-sources.jsonl', b.text());
    const r = runCliChild(['provenance', path], 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.ms < 15_000, `${r.ms} ms`);
  });
});
