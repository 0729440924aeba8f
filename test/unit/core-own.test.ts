// Behaviour tests of the session core on logs built in code (test/support/build-log.ts). They need
// nothing outside this repository, so a fresh clone can run them. Expected messages are dsh's own
// wording as the spec (§1.6, §1.7, §3, §5) and the conformance README quote it.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession, type SessionLog, type Stage, type ErrorName, type NewEvent } from '../../src/core';
import { LogBuilder, headerLine, richLog, type Rec } from '../support/build-log';
import { exerciseLog } from '../support/exercise';
import { repoRoot } from '../support/paths';

const encoder = new TextEncoder();
const load = (input: string | Uint8Array): SessionLog => loadSession(typeof input === 'string' ? encoder.encode(input) : input);

interface ExpectedRefusal {
  stage: Stage;
  errorName?: ErrorName;
  /** dsh's message, exactly. */
  dshError: string;
  rule?: string;
  line?: number;
}

function assertRefused(log: SessionLog, expected: ExpectedRefusal): void {
  const verdict = log.verdict;
  assert.equal(verdict.ok, false, `expected a refusal, got ${JSON.stringify(verdict)}`);
  assert.equal(verdict.stage, expected.stage, `stage (${verdict.dshError})`);
  assert.equal(verdict.errorName, expected.errorName ?? 'Error');
  assert.equal(verdict.dshError, expected.dshError);
  if (expected.rule !== undefined) assert.equal(verdict.rule, expected.rule);
  if (expected.line !== undefined) assert.equal(verdict.line, expected.line);
  exerciseLog(log);
}

function assertOk(log: SessionLog): void {
  assert.deepEqual(log.verdict, { ok: true, stage: 'done' }, `expected ok, got ${JSON.stringify(log.verdict)}`);
  exerciseLog(log);
}

/** Rewrites the line holding `seq` (a whole-line event) through `edit`. */
function editEvent(b: LogBuilder, seq: number, edit: (event: Rec) => void): void {
  const line = b.lineOf[seq];
  const event = JSON.parse(b.lines[line]) as Rec;
  assert.equal(event.seq, seq, 'editEvent works on whole-line events only');
  edit(event);
  b.lines[line] = JSON.stringify(event);
}

/** A one-turn log with a tool round trip; returns the builder and the interesting seqs. */
function toolLog(): {
  b: LogBuilder;
  user: number;
  header: number;
  assistant: number;
  call: number;
  result: number;
  answer: number;
  turnEnd: number;
} {
  const b = new LogBuilder();
  b.turnStart();
  const user = b.user('hi');
  b.stepStart();
  const header = b.requestHeader();
  const assistant = b.assistant({ toolCalls: [{ id: 'call-1' }] });
  const call = b.toolCall('call-1');
  const result = b.toolResult('call-1', 'file contents');
  b.stepEnd();
  b.stepStart();
  const answer = b.assistant({ text: 'ok' });
  b.stepEnd();
  const turnEnd = b.turnEnd();
  return { b, user, header, assistant, call, result, answer, turnEnd };
}

describe('core on its own fixtures', () => {
  describe('builder logs load', () => {
    it('the rich log loads and the core agrees with the builder’s model', () => {
      const b = richLog();
      const log = load(b.bytes());
      assertOk(log);
      assert.equal(log.eventCount, b.events.length);
      assert.deepEqual([...log.surface()], b.surface);
      assert.deepEqual(log.replacements(), b.replacements);
      assert.deepEqual(log.transcript(), b.transcript);
      assert.deepEqual(log.deriveMessages(), b.derivedMessages());
      assert.deepEqual(log.balancedCuts(), b.balancedCuts());
      assert.deepEqual(log.closers, []);
      assert.equal(log.lastTurnOpen, false);
      // Events + the session/end-seed marker the constructor appends.
      assert.equal(log.sessionEventCount, b.events.length + 1);
      assert.deepEqual(log.header, {
        version: 0,
        id: 'test-session',
        createdAt: 1_786_000_000_000,
        cwd: '/work/project',
        delegationDepth: 0,
      });
    });
  });

  describe('stage header', () => {
    it('refuses an empty file', () => {
      assertRefused(load(''), { stage: 'header', dshError: 'empty or header-less session log', line: 1 });
    });

    it('refuses a file whose only line has no newline (no complete header)', () => {
      assertRefused(load(headerLine()), { stage: 'header', dshError: 'empty or header-less session log' });
    });

    it('refuses a log without a header line', () => {
      const b = toolLog().b;
      assertRefused(load(b.lines.slice(1).join('\n') + '\n'), {
        stage: 'header',
        dshError: 'corrupt session log: first line is not a session header',
        rule: 'header.line-shape',
        line: 1,
      });
    });

    it('refuses a UTF-8 BOM before the header as an unparsable header', () => {
      const b = toolLog().b;
      assertRefused(load('\uFEFF' + b.text()), { stage: 'header', dshError: 'corrupt session log: header line is not valid JSON' });
    });

    it("reads a later generation (v1) through dsh's format layer instead of refusing it", () => {
      const b = new LogBuilder({ version: 1, id: 'v1-session', cwd: '/x' });
      b.chatTurn('hi');
      const log = load(b.text());
      assert.equal(log.verdict.ok, true, JSON.stringify(log.verdict));
      assert.deepEqual(log.format.version, 1);
      assert.equal(log.deriveMessages().length, 2);
    });

    it("refuses a version newer than today's dsh writes, in dsh's words", () => {
      const b = new LogBuilder({ version: 5, id: 'v5-session', cwd: '/x' });
      b.chatTurn('hi');
      assertRefused(load(b.text()), {
        stage: 'header',
        errorName: 'readHeader:unsupported',
        dshError: 'stored Session uses newer format v5; this build writes v4',
      });
    });

    it('refuses version -1 as an older format without an upgrade path', () => {
      const b = new LogBuilder({ version: -1, id: 'old' });
      assertRefused(load(b.text()), {
        stage: 'header',
        errorName: 'SessionFormatUnsupportedError',
        dshError: 'session "old" uses log format v-1, older than the supported v0, and this build ships no upgrade path for it',
      });
    });

    it('refuses a header without delegationDepth and the retired policy fields', () => {
      const noDepth = JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 0, cwd: '/x' });
      assertRefused(load(noDepth + '\n'), { stage: 'header', dshError: 'corrupt session log: first line is not a session header' });
      const retired = JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 0, delegationDepth: 0, sandboxMode: 'read-only' });
      assertRefused(load(retired + '\n'), { stage: 'header', dshError: 'session header uses retired policy baseline fields' });
    });

    it('drops unknown header keys and keeps the writer order', () => {
      const line = JSON.stringify({
        type: 'session',
        version: 0,
        id: 's',
        createdAt: 5,
        agentPreset: 'code',
        title: 'dropped',
        delegationDepth: 2,
        origin: 'subagent',
      });
      const log = load(line + '\n');
      assertOk(log);
      assert.equal(
        JSON.stringify(log.header),
        '{"version":0,"id":"s","createdAt":5,"origin":"subagent","delegationDepth":2,"agentPreset":"code"}',
      );
      assert.equal(log.eventCount, 0);
      assert.deepEqual([...log.surface()], []);
      assert.deepEqual(log.balancedCuts(), { cuts: [0] });
    });
  });

  describe('stage parse', () => {
    it('refuses a damaged line when a later complete line is a turn/end', () => {
      const { b, answer } = toolLog();
      const damagedFileLine = b.lineOf[answer] + 1; // 1-based file line of the answer
      b.lines[b.lineOf[answer]] = '{"type":"assistant/message","seq":';
      // dsh counts lines from 1 after the header.
      assertRefused(load(b.text()), {
        stage: 'parse',
        dshError: `corrupt session log: unparsable committed event at line ${damagedFileLine - 1}`,
        rule: 'jsonl.damaged-line',
        line: damagedFileLine,
      });
    });

    it('keeps the prefix before a damaged line when no turn/end follows', () => {
      const b = richLog({ openTail: 'recorded-call' });
      const kept = b.events.length;
      const goodText = b.text();
      b.rawLine('{not json');
      b.rawLine(JSON.stringify({ type: 'step/end', seq: kept, time: 0, data: { turn: 4, step: 1 } }));
      const log = load(b.text());
      assertOk(log);
      assert.equal(log.eventCount, kept);
      const damagedLine = b.lines.length - 1; // 1-based file line of '{not json'
      assert.deepEqual(log.scan, {
        fileBytes: encoder.encode(b.text()).length,
        committedBytes: encoder.encode(goodText).length,
        endsWithNewline: true,
        packedRows: 3,
        stoppedAt: `corrupt session log: unparsable committed event at line ${damagedLine - 1}`,
      });
      // The kept prefix is still repaired: its last turn is open.
      assert.equal(log.closers.at(-1)?.type, 'turn/end');
      const warning = log.diagnostics.find((d) => d.rule === 'jsonl.damaged-line' && d.line === damagedLine);
      assert.ok(warning, `a diagnostic names line ${damagedLine}: ${JSON.stringify(log.diagnostics)}`);
    });

    it('truncates at a seq gap, and refuses a seq gap on a turn/end line', () => {
      const { b, turnEnd } = toolLog();
      editEvent(b, turnEnd, (e) => {
        e.seq = turnEnd + 5;
      });
      const fileLine = b.lineOf[turnEnd] + 1;
      assertRefused(load(b.text()), {
        stage: 'parse',
        dshError: `corrupt session log: seq gap in committed region at line ${fileLine - 1} (expected ${turnEnd}, got ${turnEnd + 5})`,
      });

      const gap = toolLog();
      editEvent(gap.b, gap.answer, (e) => {
        e.seq = 99;
      });
      editEvent(gap.b, gap.turnEnd, (e) => {
        e.type = 'step/start';
      });
      const log = load(gap.b.text());
      assertOk(log);
      assert.equal(log.eventCount, gap.answer);
      assert.match(log.scan.stoppedAt ?? '', /^corrupt session log: seq gap in committed region at line \d+ \(expected \d+, got 99\)$/);
    });

    it('throws dsh’s TypeError for a JSON null line, wherever it is', () => {
      const { b, answer } = toolLog();
      b.lines.splice(b.lineOf[answer], 0, 'null');
      assertRefused(load(b.text()), { stage: 'parse', errorName: 'TypeError', dshError: "Cannot read properties of null (reading 'seq')" });
      const after = toolLog().b;
      after.rawLine('{broken');
      after.rawLine('null');
      assertRefused(load(after.text()), {
        stage: 'parse',
        errorName: 'TypeError',
        dshError: "Cannot read properties of null (reading 'type')",
      });
    });
  });

  describe('stage adopt', () => {
    it('refuses a malformed legacy turn/end (reason completed with an extra key)', () => {
      const { b, turnEnd } = toolLog();
      editEvent(b, turnEnd, (e) => {
        (e.data as Rec).reason = { kind: 'completed', note: 'x' };
      });
      assertRefused(load(b.text()), {
        stage: 'adopt',
        dshError: `session "test-session" contains malformed pre-react-loop turn/end at seq ${turnEnd}`,
        rule: 'legacy.upgrade-or-malformed',
      });
    });

    it('refuses a turn/end whose data has an extra key', () => {
      const { b, turnEnd } = toolLog();
      editEvent(b, turnEnd, (e) => {
        (e.data as Rec).extra = 1;
      });
      assertRefused(load(b.text()), {
        stage: 'adopt',
        dshError: `session "test-session" contains malformed pre-react-loop turn/end at seq ${turnEnd}`,
      });
    });

    it('upgrades a legacy turn/start trigger in memory', () => {
      const { b } = toolLog();
      editEvent(b, 0, (e) => {
        (e.data as Rec).trigger = { kind: 'user' };
      });
      const log = load(b.text());
      assertOk(log);
      assert.deepEqual(log.upgradedSeqs, [0]);
      assert.deepEqual(log.event(0), { type: 'turn/start', seq: 0, time: b.events[0].time, data: { turn: 1 } });
    });

    it('refuses a retired request/header-delta event', () => {
      const { b } = toolLog();
      b.event('request/header-delta', { delta: {} });
      const seq = b.events.length - 1;
      assertRefused(load(b.text()), {
        stage: 'adopt',
        dshError: `session "test-session" contains unsupported legacy request/header-delta event at seq ${seq}`,
        rule: 'legacy.refused',
      });
    });

    const shapes: Array<[string, (t: ReturnType<typeof toolLog>) => [number, (e: Rec) => void], string]> = [
      [
        'user/message without id',
        (t) => [
          t.user,
          (e) => {
            delete (e.data as Rec).id;
          },
        ],
        'lacks an identified message',
      ],
      [
        'user/message with role assistant',
        (t) => [
          t.user,
          (e) => {
            (e.data as Rec).role = 'assistant';
          },
        ],
        'message must have role "user"',
      ],
      [
        'user/message without source',
        (t) => [
          t.user,
          (e) => {
            delete (e.data as Rec).source;
          },
        ],
        'message has invalid source',
      ],
      [
        'user/message with string content',
        (t) => [
          t.user,
          (e) => {
            (e.data as Rec).content = 'hi';
          },
        ],
        'message has invalid content',
      ],
      [
        'assistant/message with a user source',
        (t) => [
          t.answer,
          (e) => {
            ((e.data as Rec).message as Rec).source = { kind: 'user' };
          },
        ],
        'message must have model source',
      ],
      [
        'tool/result with an empty callId',
        (t) => [
          t.result,
          (e) => {
            (((e.data as Rec).message as Rec).source as Rec).callId = '';
          },
        ],
        'message must have tool source',
      ],
      [
        'tool/result with two blocks',
        (t) => [
          t.result,
          (e) => {
            const m = (e.data as Rec).message as Rec;
            (m.content as Rec[]).push((m.content as Rec[])[0]);
          },
        ],
        'message must contain one tool-result block',
      ],
      [
        'tool/result with mismatched ids',
        (t) => [
          t.result,
          (e) => {
            (((e.data as Rec).message as Rec).content as Rec[])[0].toolCallId = 'other';
          },
        ],
        'message has mismatched tool call ids',
      ],
    ];
    for (const [name, pick, message] of shapes) {
      it(`refuses a bad message shape: ${name}`, () => {
        const t = toolLog();
        const [seq, edit] = pick(t);
        editEvent(t.b, seq, edit);
        assertRefused(load(t.b.text()), { stage: 'adopt', dshError: `session event at seq ${seq} ${message}`, line: t.b.lineOf[seq] + 1 });
      });
    }

    it('reports the earliest failing stage when several stages object', () => {
      const t = toolLog();
      editEvent(t.b, t.user, (e) => {
        delete e.surfaceOp;
      }); // seed
      editEvent(t.b, t.answer, (e) => {
        ((e.data as Rec).message as Rec).role = 'user';
      }); // adopt, later in the log
      assertRefused(load(t.b.text()), { stage: 'adopt', dshError: `session event at seq ${t.answer} message must have role "assistant"` });
    });
  });

  describe('stage known-types', () => {
    it('refuses an unknown type not marked ignorable', () => {
      const { b } = toolLog();
      const seq = b.event('future/thing', { x: 1 });
      assertRefused(load(b.text()), {
        stage: 'known-types',
        errorName: 'SessionFormatUnsupportedError',
        dshError: `session "test-session" contains event type "future/thing" (seq ${seq}) unknown to this harness and not marked ignorable; refusing to interpret the log — it was likely written by a newer harness`,
        rule: 'vocabulary.unknown-types',
      });
    });

    it('accepts an unknown type marked ignorable: true', () => {
      const { b } = toolLog();
      const seq = b.event('future/thing', { x: 1 }, { ignorable: true });
      const log = load(b.text());
      assertOk(log);
      assert.equal(log.eventType(seq), 'future/thing');
      assert.equal(log.eventCount, seq + 1);
    });

    it('keeps the names of more than 65,535 distinct ignorable types', () => {
      const { b } = toolLog();
      const first = b.event('future/t0', {}, { ignorable: true });
      for (let i = 1; i < 70_000; i++) b.event(`future/t${i}`, {}, { ignorable: true });
      const log = load(b.text());
      assertOk(log);
      assert.equal(log.eventType(first), 'future/t0');
      assert.equal(log.eventType(first + 65_536), 'future/t65536');
      assert.equal(log.eventType(first + 69_999), 'future/t69999');
    });
  });

  describe('stage closers', () => {
    it('turn/start with data null is dsh’s TypeError in the repair step', () => {
      const { b } = toolLog();
      editEvent(b, 0, (e) => {
        e.data = null;
      });
      assertRefused(load(b.text()), {
        stage: 'closers',
        errorName: 'TypeError',
        dshError: "Cannot read properties of null (reading 'turn')",
      });
    });
  });

  describe('stage seed', () => {
    it('refuses a relative header cwd and a non-string cwd', () => {
      const b = new LogBuilder({ cwd: 'relative/dir' });
      b.chatTurn('hi');
      assertRefused(load(b.text()), {
        stage: 'seed',
        dshError: 'session header cwd must be an absolute path, got "relative/dir"',
        rule: 'header.session-fields',
        line: 1,
      });
      const windows = new LogBuilder({ cwd: 'C:\\work' });
      assertRefused(load(windows.text()), { stage: 'seed', dshError: 'session header cwd must be an absolute path, got "C:\\work"' });
      const line = JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 0, cwd: 7, delegationDepth: 0 });
      assertRefused(load(line + '\n'), { stage: 'seed', dshError: 'session header cwd must be a string' });
    });

    // [name, edit of the tool log, dsh's message (after "invalid seed event at index N: " unless raw)]
    type SeedCase = [
      string,
      (t: ReturnType<typeof toolLog>) => [number, (e: Rec) => void],
      (t: ReturnType<typeof toolLog>) => string,
      boolean?,
    ];
    const cases: SeedCase[] = [
      [
        'an extra envelope key',
        (t) => [
          t.call,
          (e) => {
            e.extra = 1;
          },
        ],
        (t) => `seed event at index ${t.call} has an invalid event envelope`,
        true,
      ],
      [
        'a surface type without surfaceOp',
        (t) => [
          t.user,
          (e) => {
            delete e.surfaceOp;
          },
        ],
        () => 'session event "user/message" is surface-eligible and requires a surfaceOp marker',
      ],
      [
        'surfaceOp on a non-surface type',
        (t) => [
          t.call,
          (e) => {
            e.surfaceOp = 'append';
          },
        ],
        () => 'session event "tool/call" is not surface-eligible and cannot carry surfaceOp',
      ],
      [
        'sourceEventSeqs on a non-surface type',
        (t) => [
          t.call,
          (e) => {
            e.sourceEventSeqs = [0];
          },
        ],
        () => 'session event "tool/call" is not surface-eligible and cannot carry sourceEventSeqs',
      ],
      [
        'an unknown surfaceOp string',
        (t) => [
          t.user,
          (e) => {
            e.surfaceOp = 'prepend';
          },
        ],
        () => 'session event "user/message" carries an invalid surfaceOp',
      ],
      [
        'surfaceOp null',
        (t) => [
          t.user,
          (e) => {
            e.surfaceOp = null;
          },
        ],
        () => 'session event "user/message" carries an invalid surfaceOp',
      ],
      [
        'surfaceOp {op:"append"}',
        (t) => [
          t.answer,
          (e) => {
            e.surfaceOp = { op: 'append' };
          },
        ],
        () => 'session event "assistant/message" carries an invalid replace surfaceOp',
      ],
      [
        'a replace with an extra key',
        (t) => [
          t.answer,
          (e) => {
            e.surfaceOp = { op: 'replace', start: t.user, end: t.user, why: 1 };
            e.sourceEventSeqs = [t.user];
          },
        ],
        () => 'session event "assistant/message" carries an invalid replace surfaceOp',
      ],
      [
        'a replace start not on the surface',
        (t) => [
          t.answer,
          (e) => {
            e.surfaceOp = { op: 'replace', start: t.call, end: t.result };
            e.sourceEventSeqs = [t.call];
          },
        ],
        (t) => `surface replace: start seq ${t.call} not found in surface`,
      ],
      [
        'a replace end not on the surface',
        (t) => [
          t.answer,
          (e) => {
            e.surfaceOp = { op: 'replace', start: t.user, end: t.call };
            e.sourceEventSeqs = [t.user];
          },
        ],
        (t) => `surface replace: end seq ${t.call} not found in surface`,
      ],
      [
        'a replace start after its end',
        (t) => [
          t.answer,
          (e) => {
            e.surfaceOp = { op: 'replace', start: t.result, end: t.user };
            e.sourceEventSeqs = [t.user, t.assistant, t.result];
          },
        ],
        (t) => `surface replace: start seq ${t.result} (index 2) is after end seq ${t.user} (index 0)`,
      ],
      [
        'a replace that does not cite a shadowed node',
        (t) => [
          t.answer,
          (e) => {
            e.surfaceOp = { op: 'replace', start: t.user, end: t.result };
            e.sourceEventSeqs = [t.user, t.result];
          },
        ],
        (t) => `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${t.assistant}`,
      ],
      [
        'a replace without sourceEventSeqs',
        (t) => [
          t.answer,
          (e) => {
            e.surfaceOp = { op: 'replace', start: t.user, end: t.user };
            delete e.sourceEventSeqs;
          },
        ],
        (t) => `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${t.user}`,
      ],
      [
        'sourceEventSeqs that is not an array',
        (t) => [
          t.user,
          (e) => {
            e.sourceEventSeqs = 3;
          },
        ],
        (t) => `sourceEventSeqs on event at seq ${t.user} must be an array when present`,
      ],
      [
        'empty sourceEventSeqs on a user/message',
        (t) => [
          t.user,
          (e) => {
            e.sourceEventSeqs = [];
          },
        ],
        () => 'sourceEventSeqs must not be empty except on assistant/message',
      ],
      [
        'duplicate sourceEventSeqs',
        (t) => [
          t.result,
          (e) => {
            e.sourceEventSeqs = [t.call, t.call];
          },
        ],
        () => 'sourceEventSeqs must not contain duplicates',
      ],
      [
        'a sourceEventSeqs entry citing itself',
        (t) => [
          t.result,
          (e) => {
            e.sourceEventSeqs = [t.result];
          },
        ],
        (t) => `sourceEventSeqs must reference earlier events: ${t.result} >= current seq ${t.result}`,
      ],
      [
        'a negative sourceEventSeqs entry',
        (t) => [
          t.result,
          (e) => {
            e.sourceEventSeqs = [-1];
          },
        ],
        () => 'session event "tool/result" sourceEventSeqs must densely contain non-negative safe integers',
      ],
      [
        'a tool/result rewrite over two nodes',
        (t) => [
          t.answer,
          (e) => {
            Object.assign(e, {
              type: 'tool/result',
              data: rewriteOf(t, 'short'),
              sourceEventSeqs: [t.assistant, t.result],
              surfaceOp: { op: 'replace', start: t.assistant, end: t.result },
            });
          },
        ],
        () => 'tool/result surface replacement must rewrite exactly one current node',
      ],
      [
        'a tool/result rewrite of a user/message',
        (t) => [
          t.answer,
          (e) => {
            Object.assign(e, {
              type: 'tool/result',
              data: rewriteOf(t, 'short'),
              sourceEventSeqs: [t.user],
              surfaceOp: { op: 'replace', start: t.user, end: t.user },
            });
          },
        ],
        () => 'tool/result surface replacement must target a current tool/result',
      ],
      [
        'a tool/result rewrite that flips isError',
        (t) => [
          t.answer,
          (e) => {
            const data = rewriteOf(t, 'short');
            ((data.message as Rec).content as Rec[])[0].isError = true;
            Object.assign(e, {
              type: 'tool/result',
              data,
              sourceEventSeqs: [t.result],
              surfaceOp: { op: 'replace', start: t.result, end: t.result },
            });
          },
        ],
        () => 'tool/result surface replacement may change only content',
      ],
      [
        'a request/header without a provider',
        (t) => [
          t.header,
          (e) => {
            delete (((e.data as Rec).header as Rec).config as Rec).provider;
          },
        ],
        (t) => `seed request/header at index ${t.header} lacks provider/model`,
        true,
      ],
    ];
    for (const [name, pick, message, raw] of cases) {
      it(`refuses ${name}`, () => {
        const t = toolLog();
        const [seq, edit] = pick(t);
        editEvent(t.b, seq, edit);
        const text = message(t);
        const log = load(t.b.text());
        assertRefused(log, {
          stage: 'seed',
          dshError: raw ? text : `invalid seed event at index ${seq}: ${text}`,
          line: t.b.lineOf[seq] + 1,
        });
        assert.equal(log.verdict.seq, seq);
        assert.deepEqual(log.strictSeed, { ok: false, error: log.verdict.dshError, errorName: 'Error' });
      });
    }

    it('accepts the valid forms: a content-only tool/result rewrite, [] sources on an assistant append, an absent source on a tool/result append', () => {
      const t = toolLog();
      editEvent(t.b, t.answer, (e) => {
        e.sourceEventSeqs = [];
      });
      editEvent(t.b, t.result, (e) => {
        delete e.sourceEventSeqs;
      });
      const log = load(t.b.text());
      assertOk(log);
      const b = t.b;
      b.turnStart();
      b.stepStart();
      const rewrite = b.prune(t.result, 'short');
      const pruned = load(b.text());
      assertOk(pruned);
      assert.deepEqual([...pruned.surface()], [t.user, t.assistant, rewrite, t.answer]);
      assert.deepEqual(pruned.replacements(), [{ seq: rewrite, start: t.result, end: t.result, shadowedSeqs: [t.result] }]);
    });

    it('loads -0 in data but the strict constructor refuses it', () => {
      const t = toolLog();
      // JSON.stringify cannot write -0, so the text is edited: JSON.parse of this line yields -0.
      t.b.lines[t.b.lineOf[t.call]] = t.b.lines[t.b.lineOf[t.call]].replace('"arguments":"{}"', '"arguments":"{}","n":-0');
      const log = load(t.b.text());
      assertOk(log);
      assert.deepEqual(log.strictSeed, {
        ok: false,
        error: `seed event at index ${t.call} is not losslessly JSON-serializable`,
        errorName: 'Error',
      });
      assert.ok(log.diagnostics.some((d) => d.rule === 'json.lossless-values' && d.line === t.b.lineOf[t.call] + 1));
    });

    it('finds -0 and overflowing numbers in a packed row by what its members hold', () => {
      const header = headerLine();
      const row = (seq0: string, time0: string, turn: string, step: string, index: string, dt: string) =>
        `{"type":"text-chunks","seq0":${seq0},"time0":${time0},"data":{"turn":${turn},"step":${step},"index":${index},"dt":[${dt}],"texts":["a","b","c"]}}`;
      const strict = (line: string) => load(`${header}\n${line}\n`).strictSeed.ok;
      assert.equal(strict(row('0', '5', '1', '1', '0', '1,2')), true);
      // Members carry turn, step and index: -0 or Infinity there is in every member.
      assert.equal(strict(row('0', '5', '-0', '1', '0', '1,2')), false);
      assert.equal(strict(row('0', '5', '1', '1e400', '0', '1,2')), false);
      assert.equal(strict(row('0', '5', '1', '1', '-0', '1,2')), false);
      // seq0, time0 and the gaps only reach the members through sums, which turn -0 into 0.
      assert.equal(strict(row('-0', '5', '1', '1', '0', '1,2')), true);
      assert.equal(strict(row('0', '-0', '1', '1', '0', '1,2')), false);
      assert.equal(strict(row('0', '5', '1', '1', '0', '-0,2')), true);
    });
  });

  describe('line endings and torn tails', () => {
    it('ignores a final line without a newline even when it is complete JSON', () => {
      const { b, turnEnd } = toolLog();
      const whole = b.text();
      const text = whole.slice(0, -1);
      const log = load(text);
      assertOk(log);
      assert.equal(log.eventCount, turnEnd, 'the turn/end on the torn line is not kept');
      assert.deepEqual(log.scan, {
        fileBytes: encoder.encode(text).length,
        committedBytes: encoder.encode(text).length - b.lines[b.lineOf[turnEnd]].length,
        endsWithNewline: false,
        packedRows: 0,
        stoppedAt: 'torn-tail',
      });
      // Without its turn/end the turn is open, so dsh would close it.
      assert.equal(log.lastTurnOpen, true);
      assert.deepEqual(
        log.closers.map((c) => c.type),
        ['turn/end'],
      );
      const info = log.diagnostics.find((d) => d.rule === 'jsonl.torn-tail');
      assert.equal(info?.line, b.lines.length);
    });

    it('accepts CRLF line endings with the same projection as LF', () => {
      const b = richLog();
      const lf = load(b.text());
      const crlf = load(b.text({ eol: '\r\n' }));
      assertOk(crlf);
      assert.equal(crlf.eventCount, lf.eventCount);
      assert.deepEqual([...crlf.surface()], [...lf.surface()]);
      assert.deepEqual(crlf.deriveMessages(), lf.deriveMessages());
      assert.equal(crlf.scan.committedBytes, crlf.scan.fileBytes);
    });
  });

  describe('packed chunk rows', () => {
    function rowLog(): { b: LogBuilder; text: number[]; tool: number[]; reasoning: number[] } {
      const b = new LogBuilder();
      b.turnStart();
      b.user('stream please');
      b.stepStart();
      b.time = 5000;
      const reasoning = b.textChunks(['think', 'ing'], { kind: 'reasoning', dt: [-3] });
      b.time = 6000;
      const text = b.textChunks(['a', 'b', 'c'], { dt: [5, -2], index: 1 });
      const tool = b.toolCallChunks('call-9', ['{', '}'], { name: 'read', dt: [0], index: 2 });
      b.assistant({ text: 'abc', toolCalls: [{ id: 'call-9', arguments: '{}' }] });
      b.toolCall('call-9');
      b.toolResult('call-9', 'x');
      b.stepEnd();
      b.turnEnd();
      return { b, text, tool, reasoning };
    }

    it('expands rows into assistant/chunk events with seqs, accumulated times and dsh’s key order', () => {
      const { b, text, tool, reasoning } = rowLog();
      const log = load(b.text());
      assertOk(log);
      assert.equal(log.eventCount, b.events.length);
      assert.equal(log.scan.packedRows, 3);
      assert.deepEqual(
        text.map((s) => log.event(s)?.time),
        [6000, 6005, 6003],
      );
      assert.deepEqual(
        reasoning.map((s) => log.event(s)?.time),
        [5000, 4997],
      );
      assert.equal(
        JSON.stringify(log.event(text[1])),
        `{"type":"assistant/chunk","seq":${text[1]},"time":6005,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":1,"text":"b"}}}`,
      );
      assert.equal(JSON.stringify(log.event(reasoning[0])?.data.chunk), '{"type":"reasoning-delta","index":0,"text":"think"}');
      assert.equal(
        JSON.stringify(log.event(tool[1])?.data.chunk),
        '{"type":"tool-call-delta","index":2,"id":"call-9","name":"read","argumentsDelta":"}"}',
      );
      for (const seq of [...reasoning, ...text, ...tool]) {
        assert.equal(JSON.stringify(log.event(seq)), JSON.stringify(b.events[seq]), `seq ${seq} as the builder expanded it`);
      }
      const places = text.map((s) => log.place(s));
      assert.deepEqual(
        places.map((p) => p?.packedMember),
        [0, 1, 2],
      );
      assert.deepEqual(new Set(places.map((p) => p?.line)), new Set([b.lineOf[text[0]] + 1]));
    });

    it('omits name on tool-call members when the row has none', () => {
      const b = new LogBuilder();
      b.turnStart();
      b.stepStart();
      const seqs = b.toolCallChunks('c', ['x', 'y', 'z']);
      const log = load(b.text());
      assertOk(log);
      assert.equal(JSON.stringify(log.event(seqs[2])?.data.chunk), '{"type":"tool-call-delta","index":0,"id":"c","argumentsDelta":"z"}');
    });

    it('treats a malformed row as damage: all of its events are dropped', () => {
      const { b, text } = rowLog();
      const line = b.lineOf[text[0]];
      const row = JSON.parse(b.lines[line]);
      row.data.dt = [1]; // 3 members need 2 gaps
      b.lines[line] = JSON.stringify(row);
      // A turn/end follows, so the damage is inside committed history.
      assertRefused(load(b.text()), { stage: 'parse', dshError: `corrupt session log: unparsable committed event at line ${line}` });
      const open = rowLog();
      open.b.lines[line] = JSON.stringify(row);
      open.b.lines.pop();
      const log = load(open.b.text());
      assertOk(log);
      assert.equal(log.eventCount, text[0], 'no member of the bad row is kept');
    });
  });

  describe('surface, replacements and projections', () => {
    it('folds compaction and pruning into the surface the model sees', () => {
      const b = richLog();
      const log = load(b.bytes());
      // Literal values: the builder's layout is fixed, so these can be checked by eye against the log text.
      assert.deepEqual([...log.surface()], [32, 35, 37, 41]);
      assert.equal(log.replaceGeneration(), 2);
      assert.deepEqual(log.replacements(), [
        { seq: 32, start: 1, end: 27, shadowedSeqs: [1, 7, 11, 20, 23, 24, 27] },
        { seq: 41, start: 39, end: 39, shadowedSeqs: [39] },
      ]);
      assert.deepEqual(log.transcript(), [1, 7, 11, 20, 23, 24, 27, 35, 37, 39]);
      const messages = log.deriveMessages();
      assert.deepEqual(
        messages.map((m) => m.id),
        ['checkpoint-9', 'user-10', 'assistant-11', 'result-12'],
      );
      assert.equal(JSON.stringify((messages[3].content as Rec[])[0].content), '[{"type":"text","text":"[pruned]"}]');
      assert.deepEqual(log.balancedCuts(), { cuts: [0, 1, 2, 4] });
      // The transcript keeps what the user saw: the original, unpruned result.
      assert.equal((log.event(39)?.data.message.content[0].content[0] as Rec).text, 'a long result that the pruner will shorten');
    });

    it('an assistant/message with empty content is on the surface but derives no message', () => {
      const b = new LogBuilder();
      b.turnStart();
      b.user('go');
      b.stepStart();
      const empty = b.assistant({ empty: true });
      b.stepEnd();
      b.turnEnd({ kind: 'max-tokens' });
      const log = load(b.text());
      assertOk(log);
      assert.deepEqual([...log.surface()], [1, empty]);
      assert.equal(log.deriveMessages().length, 1);
      assert.deepEqual(log.balancedCuts(), { cuts: [0, 1, 2] });
    });

    it('reports a compaction that splits a tool pair through balancedCuts, not the verdict', () => {
      const b = new LogBuilder();
      const [resultA] = b.toolTurn('two calls', ['call-a', 'call-b']);
      const assistantSeq = b.surface[1];
      const { replaceSeq } = b.compact({ start: b.surface[0], end: assistantSeq });
      const log = load(b.text());
      assertOk(log);
      assert.deepEqual([...log.surface()].slice(0, 2), [replaceSeq, resultA]);
      const cuts = log.balancedCuts();
      assert.ok('error' in cuts, 'the surface is corrupt for the tool-pairing helper');
      assert.match(cuts.error, new RegExp(`tool/result at surface seq ${resultA} has no matching tool-call`));
    });
  });

  describe('crash repair closers', () => {
    it('answers a recorded call with TOOL_OUTCOME_UNKNOWN citing the tool/call, then closes step and turn', () => {
      const b = richLog({ openTail: 'recorded-call' });
      const log = load(b.text());
      assertOk(log);
      const n = b.events.length;
      const callSeq = n - 1;
      const time = b.lastTime;
      const closers = log.closers;
      assert.deepEqual(
        closers.map((c) => [c.type, c.seq, c.time]),
        [
          ['tool/result', n, time],
          ['step/end', n + 1, time],
          ['turn/end', n + 2, time],
        ],
      );
      const result = closers[0];
      assert.deepEqual(Object.keys(result), ['type', 'seq', 'time', 'data', 'surfaceOp', 'sourceEventSeqs']);
      assert.deepEqual(result.sourceEventSeqs, [callSeq]);
      assert.equal(result.surfaceOp, 'append');
      assert.deepEqual(Object.keys(result.data), ['turn', 'step', 'message', 'error']);
      assert.deepEqual(result.data.error, { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' });
      assert.equal(result.data.turn, 4);
      assert.equal(result.data.step, 1);
      const message = result.data.message;
      assert.deepEqual(Object.keys(message), ['id', 'role', 'source', 'content']);
      assert.equal(message.id, `interrupted-tool-result-call-d-${n}`);
      assert.deepEqual(message.source, { kind: 'tool', callId: 'call-d' });
      assert.equal(message.content[0].toolCallId, 'call-d');
      assert.equal(message.content[0].isError, true);
      assert.deepEqual(closers[1].data, { turn: 4, step: 1 });
      assert.deepEqual(closers[2].data, { turn: 4, reason: { kind: 'interrupted' } });
      // Read-only views: the raw surface has no closers, the repaired one ends with the synthetic result.
      assert.deepEqual([...log.repairedSurface()], [...log.surface(), n]);
      assert.equal(log.sessionEventCount, n + 3 + 1);
      // The synthetic result balances the open call, so the cut after the tail becomes balanced.
      assert.deepEqual(log.balancedCuts(), { cuts: [0, 1, 2, 4, 5] });
      assert.deepEqual(log.balancedCuts(log.repairedSurface()), { cuts: [0, 1, 2, 4, 5, 7] });
    });

    it('answers a call never recorded as started with TOOL_NOT_STARTED and no sourceEventSeqs', () => {
      const b = richLog({ openTail: 'unrecorded-call' });
      const log = load(b.text());
      const [result] = log.closers;
      assert.equal(result.type, 'tool/result');
      assert.equal('sourceEventSeqs' in result, false);
      assert.deepEqual(result.data.error, { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' });
      assert.deepEqual(
        log.closers.map((c) => c.type),
        ['tool/result', 'step/end', 'turn/end'],
      );
    });

    it('closes an open step without calls with step/end and turn/end only', () => {
      const log = load(richLog({ openTail: 'open-step' }).text());
      assert.deepEqual(
        log.closers.map((c) => c.type),
        ['step/end', 'turn/end'],
      );
    });

    it('leaves calls of an already closed step unanswered', () => {
      const b = new LogBuilder();
      b.turnStart();
      b.stepStart();
      b.assistant({ toolCalls: [{ id: 'lost' }] });
      b.stepEnd();
      const log = load(b.text());
      assert.deepEqual(
        log.closers.map((c) => [c.type, c.data]),
        [['turn/end', { turn: 1, reason: { kind: 'interrupted' } }]],
      );
    });

    it('adds no session/end-seed when the log already ends with one', () => {
      const b = richLog();
      b.event('session/end-seed', {});
      const log = load(b.text());
      assertOk(log);
      assert.equal(log.sessionEventCount, b.events.length);
    });
  });

  describe('following a growing file', () => {
    it('extend() completes a partial line and then matches a whole load', () => {
      const b = richLog({ openTail: 'recorded-call' });
      const bytes = b.bytes();
      const whole = load(bytes);
      // Cut in the middle of the line holding the compaction's replacing user/message.
      const replaceLine = b.lineOf[32];
      const lineStart = encoder.encode(
        b.lines
          .slice(0, replaceLine)
          .map((l) => l + '\n')
          .join(''),
      ).length;
      const cut = lineStart + 20;
      const log = loadSession(bytes.slice(0, cut));
      assert.equal(log.eventCount, 32);
      assert.equal(log.scan.stoppedAt, 'torn-tail');
      const partial = log.extend(bytes.slice(cut, cut + 10));
      assert.deepEqual(partial, { added: 0, diagnostics: [] });
      const rest = log.extend(bytes.slice(cut + 10));
      assert.equal(rest.added, whole.eventCount - 32);
      assert.equal(log.eventCount, whole.eventCount);
      assert.deepEqual([...log.surface()], [...whole.surface()]);
      assert.deepEqual(log.replacements(), whole.replacements());
      assert.deepEqual(log.closers, whole.closers);
      assert.deepEqual(log.verdict, whole.verdict);
      assert.deepEqual(log.scan, whole.scan);
    });

    it('extend() reports problems found in the appended bytes', () => {
      const b = toolLog().b;
      const log = load(b.text());
      const appended = encoder.encode(
        JSON.stringify({
          type: 'user/message',
          seq: b.events.length,
          time: 1,
          data: { content: [], source: { kind: 'user' }, role: 'user', id: 'x' },
        }) + '\n',
      );
      const result = log.extend(appended);
      assert.equal(result.added, 1);
      assert.equal(log.verdict.ok, false);
      assert.ok(
        result.diagnostics.some((d) => d.rule === 'surface.eligible-requires-marker' && d.line === b.lines.length + 1),
        JSON.stringify(result.diagnostics),
      );
    });
  });

  describe('appending', () => {
    it('refuses a bad event and leaves the session untouched', () => {
      const b = richLog();
      const log = load(b.text());
      const before = { surface: [...log.surface()], count: log.eventCount, scan: log.scan, replacements: [...log.replacements()] };
      const n = log.eventCount;
      const bad = {
        type: 'user/message',
        seq: n,
        time: 1,
        data: { content: [], source: { kind: 'user' }, role: 'user', id: 'u' },
      } as unknown as NewEvent;
      const refused = log.append([bad]);
      assert.equal(refused.ok, false);
      assert.ok(
        !refused.ok && refused.problems.some((p) => p.rule === 'surface.eligible-requires-marker' && p.seq === n),
        JSON.stringify(refused),
      );
      // A good first event does not get in when the second of the batch is bad.
      const good: NewEvent = {
        type: 'user/message',
        seq: n,
        time: 1,
        data: { content: [{ type: 'text', text: 'more' }], source: { kind: 'user' }, role: 'user', id: 'u2' },
        surfaceOp: 'append',
      };
      const badRewrite: NewEvent = {
        type: 'tool/result',
        seq: n + 1,
        time: 1,
        data: { ...(log.event(41)?.data as Rec), turn: 9 },
        sourceEventSeqs: [41],
        surfaceOp: { op: 'replace', start: 41, end: 41 },
      };
      const batch = log.append([good, badRewrite]);
      assert.ok(
        !batch.ok && batch.problems[0].message.includes('tool/result surface replacement may change only content'),
        JSON.stringify(batch),
      );
      const gap = log.append([{ ...good, seq: n + 3 }]);
      assert.ok(!gap.ok && gap.problems[0].rule === 'seq.contiguity');
      assert.deepEqual(
        { surface: [...log.surface()], count: log.eventCount, scan: log.scan, replacements: [...log.replacements()] },
        before,
      );
      assertOk(log);
    });

    it('accepts a good batch, serializes it and folds it', () => {
      const b = richLog();
      const log = load(b.text());
      const n = log.eventCount;
      const user: NewEvent = {
        type: 'user/message',
        seq: n,
        time: 7,
        data: { content: [{ type: 'text', text: 'more' }], source: { kind: 'user' }, role: 'user', id: 'u2' },
        surfaceOp: 'append',
      };
      const checkpoint: NewEvent = {
        type: 'user/message',
        seq: n + 1,
        time: 8,
        data: {
          content: [{ type: 'text', text: 'all of it' }],
          source: { kind: 'plugin', plugin: 'compact', compactionId: 'c' },
          role: 'user',
          id: 'u3',
        },
        sourceEventSeqs: [32, 35, 37, 41, n],
        surfaceOp: { op: 'replace', start: 32, end: n },
      };
      const result = log.append([user, checkpoint]);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(
        result.lines[0],
        `{"type":"user/message","seq":${n},"time":7,"data":{"content":[{"type":"text","text":"more"}],"source":{"kind":"user"},"role":"user","id":"u2"},"surfaceOp":"append"}`,
      );
      assert.equal(log.eventCount, n + 2);
      assert.deepEqual([...log.surface()], [n + 1]);
      assert.equal(log.replaceGeneration(), 3);
      assert.deepEqual(log.event(n), user);
      assertOk(log);
      // The appended bytes are exactly what a reload reads back.
      const reloaded = load(b.text() + result.lines.map((l) => l + '\n').join(''));
      assert.deepEqual([...reloaded.surface()], [n + 1]);
    });

    it('refuses to append to a refused log or onto a torn tail', () => {
      const t = toolLog();
      const event: NewEvent = { type: 'feedback/record', seq: t.b.events.length, time: 0, data: { text: 'x' } };
      const torn = load(t.b.text({ tornTail: '{"type":' }));
      const tornResult = torn.append([event]);
      assert.ok(!tornResult.ok && tornResult.problems[0].rule === 'jsonl.torn-tail');
      editEvent(t.b, t.user, (e) => {
        delete e.surfaceOp;
      });
      const refused = load(t.b.text());
      const result = refused.append([event]);
      assert.ok(!result.ok && result.problems[0].rule === 'append.refused-log');
      assert.equal(refused.eventCount, t.b.events.length);
    });
  });

  describe('diagnostics', () => {
    it('name the line and rule of the refusal, once, marked refusing', () => {
      const t = toolLog();
      editEvent(t.b, t.result, (e) => {
        e.sourceEventSeqs = [t.call, t.call];
      });
      const log = load(t.b.text());
      const line = t.b.lineOf[t.result] + 1;
      const refusing = log.diagnostics.filter((d) => d.refusing);
      assert.equal(refusing.length, 1);
      assert.equal(refusing[0].line, line);
      assert.equal(refusing[0].rule, 'sources.no-duplicates');
      assert.equal(refusing[0].severity, 'error');
      assert.equal(
        log.verdict.error,
        `line ${line} (seq ${t.result}): sources.no-duplicates: invalid seed event at index ${t.result}: sourceEventSeqs must not contain duplicates`,
      );
    });

    it('stay consistent when the verdict moves to an earlier stage as the log grows', () => {
      // Regression: the getter used to mark the stored diagnostic as refusing, so after extend()
      // found an earlier-stage refusal, two diagnostics claimed to be the refusal.
      const { b } = toolLog();
      b.event('future/thing', {});
      const log = load(b.text());
      assert.equal(log.verdict.stage, 'known-types');
      assert.equal(log.diagnostics.filter((d) => d.refusing).length, 1);
      log.extend(encoder.encode('{broken\n{"type":"turn/end"}\n'));
      assert.equal(log.verdict.stage, 'parse');
      assert.deepEqual(
        log.diagnostics.filter((d) => d.refusing).map((d) => d.rule),
        ['jsonl.damaged-line'],
      );
    });

    it('a clean log has no diagnostics', () => {
      assert.deepEqual(load(richLog().text()).diagnostics, []);
    });
  });

  describe('the reader never throws', () => {
    const header = headerLine({ cwd: '/x' });
    const inputs: Array<[string, string | Uint8Array]> = [
      ['random bytes', Uint8Array.from({ length: 512 }, (_, i) => (i * 7919 + 13) % 256)],
      ['invalid UTF-8', new Uint8Array([0xff, 0xfe, 0x0a, 0xc3, 0x28, 0x0a])],
      ['only newlines', '\n\n\n'],
      ['header then JSON scalars', `${header}\n[]\n"x"\n42\ntrue\n`],
      [
        'events with missing fields',
        `${header}\n{"seq":0}\n{"type":"turn/start","seq":1}\n{"type":"assistant/message","seq":2,"time":0,"data":{"message":null},"surfaceOp":"append"}\n`,
      ],
      [
        'data of every wrong type',
        `${header}\n${['turn/start', 'step/start', 'assistant/message', 'tool/call', 'tool/result', 'turn/end', 'user/message'].map((type, seq) => JSON.stringify({ type, seq, time: 0, data: [1, 'x', null, {}][seq % 4] })).join('\n')}\n`,
      ],
      [
        'assistant content that is not an array',
        `${header}\n{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}\n{"type":"assistant/message","seq":1,"time":0,"data":{"turn":1,"step":1,"message":{"id":"a","role":"assistant","content":{"type":"tool-call"},"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}\n`,
      ],
      [
        'a replace surfaceOp with huge numbers',
        `${header}\n{"type":"user/message","seq":0,"time":0,"data":{"id":"u","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":{"op":"replace","start":1e308,"end":-1}}\n`,
      ],
      ['deeply nested data', `${header}\n{"type":"feedback/record","seq":0,"time":0,"data":${'['.repeat(5000)}${']'.repeat(5000)}}\n`],
      [
        'a packed row with hostile members',
        `${header}\n{"type":"text-chunks","seq0":0,"time0":9007199254740991,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b"]}}\n`,
      ],
      [
        'null tool-result blocks',
        `${header}\n{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}\n{"type":"tool/result","seq":1,"time":0,"data":{"message":{"id":"r","role":"user","source":{"kind":"tool","callId":"c"},"content":[null]}},"surfaceOp":"append"}\n`,
      ],
    ];
    for (const [name, input] of inputs) {
      it(`survives ${name}`, () => {
        const log = load(input);
        exerciseLog(log);
        log.extend(encoder.encode('garbage\n{"type":"turn/end"}\n'));
        exerciseLog(log);
      });
    }
  });
});

/** Data for a tool/result rewrite of the tool log's result with new inner content. */
function rewriteOf(t: ReturnType<typeof toolLog>, text: string): Rec {
  const data = JSON.parse(JSON.stringify(t.b.events[t.result].data)) as Rec;
  ((data.message as Rec).content as Rec[])[0].content = [{ type: 'text', text }];
  return data;
}

describe('session-surface CLI on files in a temp dir', function () {
  this.timeout(20_000);
  let dir: string;
  const root = repoRoot();
  const bin = join(root, 'bin', 'session-surface.js');
  const cli = join(root, 'dist', 'cli.js');
  const run = (script: string, ...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', cwd: dir });

  before(function () {
    // `npm run test:unit` builds dist/ before the tests; a bare mocha run after a clean checkout may not have.
    assert.ok(existsSync(cli), `dist/cli.js is missing: run \`npm run build\` first (looked in ${cli})`);
    dir = mkdtempSync(join(tmpdir(), 'session-surface-cli-'));
    writeFileSync(join(dir, 'good.jsonl'), richLog({ openTail: 'recorded-call' }).text());
    const t = toolLog();
    editEvent(t.b, t.user, (e) => {
      delete e.surfaceOp;
    });
    writeFileSync(join(dir, 'refused.jsonl'), t.b.text());
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('check exits 0 for a log dsh loads', () => {
    const result = run(bin, 'check', 'good.jsonl');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /good\.jsonl: loads \(49 events, last turn open\)/);
  });

  it('check exits 1 and prints file:line: rule when dsh refuses a log', () => {
    const result = run(bin, 'check', 'good.jsonl', 'refused.jsonl');
    assert.equal(result.status, 1, result.stderr);
    const line = toolLog().b.lineOf[toolLog().user] + 1;
    assert.match(result.stdout, new RegExp(`^refused\\.jsonl:${line}: surface\\.eligible-requires-marker: `, 'm'));
    assert.match(result.stderr, /refused\.jsonl: refused by dsh at stage seed/);
  });

  it('check exits 2 on usage errors and unreadable files', () => {
    assert.equal(run(bin, 'check').status, 2);
    assert.equal(run(bin, 'check', '--bogus', 'good.jsonl').status, 2);
    const missing = run(bin, 'check', 'missing.jsonl');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /missing\.jsonl: cannot read: ENOENT/);
    assert.equal(run(bin).status, 2);
  });

  it('inspect --json prints one JSON object per file per line', () => {
    const result = run(cli, 'inspect', '--json', 'good.jsonl', 'refused.jsonl');
    assert.equal(result.status, 1, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    const [good, refused] = lines.map((l) => JSON.parse(l));
    assert.equal(good.file, 'good.jsonl');
    assert.equal(good.ok, true);
    assert.equal(good.events, 49);
    assert.deepEqual(
      good.closers.map((c: Rec) => c.type),
      ['tool/result', 'step/end', 'turn/end'],
    );
    assert.equal(good.unrepaired.ok, true);
    assert.equal(refused.file, 'refused.jsonl');
    assert.equal(refused.ok, false);
    assert.equal(refused.stage, 'seed');
    const single = run(bin, 'inspect', '--json', 'good.jsonl');
    assert.equal(single.status, 0);
    assert.deepEqual(JSON.parse(single.stdout), good);
  });
});
