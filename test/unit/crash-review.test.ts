// Crash review: the open turn's pending calls and the closers tied to them, torn tails and damage,
// repairs already in a log, the write and the torn-tail removal plans, and session health — on logs
// built here and, when ../shared is present, on real dsh logs cut mid-turn, mid-line and mid-frame.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSession, planRepair } from '../../src/core';
import { loadSessionFile } from '../../src/core/read/load-file';
import { reviewOpenTurn } from '../../src/core/surface/crash-review';
import { reviewTornTail, TAIL_PREVIEW_CHARS } from '../../src/core/surface/torn-tail';
import { findRepairsMade, repairSeqs } from '../../src/core/surface/repairs-made';
import { openTurnActivity, STILL_AFTER_MS } from '../../src/core/surface/liveness';
import { sessionHealth } from '../../src/core/check/session-health';
import { bytesAfterWrite, planCrashRepairWrite } from '../../src/core/plan/crash-repair-write';
import { bytesAfterRemoval, planTornTailRemoval } from '../../src/core/plan/torn-tail-removal';
import { richLog } from '../support/build-log';
import { hasShared, sharedDir } from '../support/paths';
import { cutAtFirstToolCall, halfLine, plainBytes, zstdBytes, zstdWithTornFrame } from '../support/crash-tails';

const enc = new TextEncoder();

/** Every event of a loaded log, closers excluded. */
function events(bytes: Uint8Array): unknown[] {
  const { log } = loadSessionFile(bytes);
  return Array.from({ length: log.eventCount }, (_, seq) => log.event(seq));
}

describe('crash review: the open turn', () => {
  it('a recorded call gets TOOL_OUTCOME_UNKNOWN, tied to its tool/call and the message that asked for it', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const log = loadSession(b.bytes());
    const review = reviewOpenTurn(log)!;
    const callSeq = b.events.findIndex((e) => e.type === 'tool/call' && (e.data as any).callId === 'call-d');
    const messageSeq = b.events.findIndex((e) => e.type === 'assistant/message' && JSON.stringify(e.data).includes('"id":"call-d"'));
    const turnStart = b.events.map((e) => e.type).lastIndexOf('turn/start');
    assert.equal(review.turnStartSeq, turnStart);
    assert.equal(review.turn, (b.events[turnStart].data as any).turn);
    assert.equal(review.openStep, 1);
    assert.equal(review.stepStartSeq, b.events.map((e) => e.type).lastIndexOf('step/start'));
    assert.equal(review.lastSeq, b.events.length - 1);
    assert.deepEqual(review.pendingCalls, [
      { callId: 'call-d', toolName: 'read', step: 1, messageSeq, callSeq, code: 'TOOL_OUTCOME_UNKNOWN', closerSeq: b.events.length },
    ]);
    assert.deepEqual(
      review.closers.map((c) => [c.seq, c.type, c.code]),
      [
        [b.events.length, 'tool/result', 'TOOL_OUTCOME_UNKNOWN'],
        [b.events.length + 1, 'step/end', undefined],
        [b.events.length + 2, 'turn/end', undefined],
      ],
    );
    const plan = planRepair(log);
    assert.ok(plan.ok);
    assert.deepEqual(
      review.closers.map((c) => c.line),
      plan.lines,
    );
    assert.equal(review.closers[0].callSeq, callSeq);
    assert.equal(review.closers[0].messageSeq, messageSeq);
  });

  it('a call never recorded as started gets TOOL_NOT_STARTED and cites no tool/call', () => {
    const b = richLog({ openTail: 'unrecorded-call' });
    const review = reviewOpenTurn(loadSession(b.bytes()))!;
    assert.equal(review.pendingCalls.length, 1);
    assert.equal(review.pendingCalls[0].code, 'TOOL_NOT_STARTED');
    assert.equal(review.pendingCalls[0].callSeq, undefined);
    assert.equal(review.closers[0].event.sourceEventSeqs, undefined);
    assert.equal(review.closers[0].event.data.error.code, 'TOOL_NOT_STARTED');
  });

  it('an open step with no calls closes with step/end and turn/end only; a closed log has no review', () => {
    const review = reviewOpenTurn(loadSession(richLog({ openTail: 'open-step' }).bytes()))!;
    assert.deepEqual(review.pendingCalls, []);
    assert.deepEqual(
      review.closers.map((c) => c.type),
      ['step/end', 'turn/end'],
    );
    assert.equal(review.closers[1].event.data.reason.kind, 'interrupted');
    assert.equal(reviewOpenTurn(loadSession(richLog().bytes())), undefined);
  });

  it('two pending calls, one recorded: each closer names its own call and code, in the order the calls were asked', () => {
    const b = richLog();
    b.turnStart();
    b.user('two calls');
    b.stepStart();
    b.assistant({
      toolCalls: [
        { id: 'first', name: 'write' },
        { id: 'second', name: 'read' },
      ],
    });
    const second = b.toolCall('second');
    const review = reviewOpenTurn(loadSession(b.bytes()))!;
    assert.deepEqual(
      review.pendingCalls.map((c) => [c.callId, c.toolName, c.code, c.callSeq]),
      [
        ['first', 'write', 'TOOL_NOT_STARTED', undefined],
        ['second', 'read', 'TOOL_OUTCOME_UNKNOWN', second],
      ],
    );
  });
});

describe('crash review: open turn activity', () => {
  it('a file that changed recently is growing; one still for the threshold or longer looks like a crash', () => {
    assert.equal(openTurnActivity(0), 'growing');
    assert.equal(openTurnActivity(STILL_AFTER_MS - 1), 'growing');
    assert.equal(openTurnActivity(STILL_AFTER_MS), 'still');
    assert.equal(openTurnActivity(5_000, 2_000), 'still');
    assert.equal(openTurnActivity(Number.NaN), 'still');
  });
});

describe('crash review: torn tails', () => {
  it('a torn last line: its size, line and a bounded preview with control and bidi characters made visible', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const tail = '{"type":"tool/result","seq":99,"text":"\u202Egnp.exe\t' + 'x'.repeat(400);
    const bytes = b.bytes({ tornTail: tail });
    const log = loadSession(bytes);
    const torn = reviewTornTail(log, { fileBytes: bytes })!;
    assert.equal(torn.kind, 'torn-line');
    assert.equal(torn.droppedBytes, enc.encode(tail).length);
    assert.equal(torn.keptTextBytes, bytes.length - enc.encode(tail).length);
    assert.equal(torn.line, b.lines.length + 1);
    assert.equal(torn.previewTruncated, true);
    assert.ok(torn.preview.startsWith('{"type":"tool/result","seq":99,"text":"\\u202egnp.exe\\t'));
    assert.ok(!/[\u202e\t]/.test(torn.preview));
    assert.ok(torn.preview.length <= TAIL_PREVIEW_CHARS + 20);
    assert.equal(torn.refusesLog, false);
    assert.equal(reviewTornTail(loadSession(b.bytes()), { fileBytes: b.bytes() }), undefined);
  });

  it('a damaged line: the kept prefix, and which later lines dsh drops and why', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const damagedLine = b.lines.length - 2; // 0-based index: the assistant/message of the open turn
    const lines = [...b.lines];
    lines[damagedLine] = lines[damagedLine].slice(0, 30);
    const bytes = plainBytes(lines);
    const log = loadSession(bytes);
    assert.ok(log.verdict.ok);
    const torn = reviewTornTail(log, { fileBytes: bytes })!;
    assert.equal(torn.kind, 'damaged-line');
    assert.equal(torn.line, damagedLine + 1);
    assert.deepEqual(torn.damage && [torn.damage.line, torn.damage.rule], [damagedLine + 1, 'jsonl.damaged-line']);
    assert.equal(torn.keptTextBytes, plainBytes(lines.slice(0, damagedLine)).length);
    assert.equal(torn.droppedBytes, bytes.length - torn.keptTextBytes);
    assert.deepEqual(
      torn.linesBeyond!.lines.map((l) => [l.line, l.type, l.seq]),
      [[damagedLine + 2, 'tool/call', b.events.length - 1]],
    );
    assert.match(torn.why, /keeps only the events before it/);
    assert.equal(torn.refusesLog, false);
  });

  it('damage followed by a turn/end is inside committed history: dsh refuses, nothing is removed', () => {
    const b = richLog();
    const lines = [...b.lines];
    lines[3] = '{"broken';
    const bytes = plainBytes(lines);
    const log = loadSession(bytes);
    const torn = reviewTornTail(log, { fileBytes: bytes })!;
    assert.equal(torn.refusesLog, true);
    const removal = planTornTailRemoval(log, bytes, undefined);
    assert.equal(removal.ok, false);
  });
});

describe('crash review: writing the closers', () => {
  it('plain: the closers appended as lines give a file that loads closed, with the closers as its last events', () => {
    const bytes = richLog({ openTail: 'recorded-call' }).bytes();
    const loaded = loadSessionFile(bytes);
    const plan = planCrashRepairWrite(loaded.log, loaded.zstd);
    assert.ok(plan.ok);
    assert.equal(plan.container, 'plain');
    assert.deepEqual(plan.bytes, plainBytes(plan.lines));
    const after = bytesAfterWrite(bytes, plan);
    const reloaded = loadSessionFile(after).log;
    assert.deepEqual(reloaded.verdict, { ok: true, stage: 'done' });
    assert.equal(reloaded.lastTurnOpen, false);
    assert.deepEqual(events(after).slice(loaded.log.eventCount), loaded.log.closers);
    const repairs = findRepairsMade(reloaded);
    assert.equal(repairs.length, 1);
    assert.deepEqual(
      repairs[0].closerSeqs,
      plan.events.map((e) => e.seq),
    );
  });

  it('zstd: the closers appended as one new frame', () => {
    const b = richLog({ openTail: 'unrecorded-call' });
    const bytes = zstdBytes(b.lines, 5);
    const loaded = loadSessionFile(bytes);
    assert.ok(loaded.zstd);
    const plan = planCrashRepairWrite(loaded.log, loaded.zstd);
    assert.ok(plan.ok);
    assert.equal(plan.container, 'zstd');
    const after = loadSessionFile(bytesAfterWrite(bytes, plan));
    assert.equal(after.zstd!.frames, loaded.zstd.frames + 1);
    assert.deepEqual(after.log.verdict, { ok: true, stage: 'done' });
    assert.equal(after.log.lastTurnOpen, false);
    assert.equal(after.log.event(loaded.log.eventCount)!.data.error.code, 'TOOL_NOT_STARTED');
  });

  it('refuses while a torn tail follows the last line, and appends nothing for a closed turn', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const torn = b.bytes({ tornTail: '{"type":' });
    const plan = planCrashRepairWrite(loadSession(torn), undefined);
    assert.equal(plan.ok, false);
    assert.deepEqual(!plan.ok && plan.reasons.map((r) => r.rule), ['repair.torn-tail-first']);
    const closed = planCrashRepairWrite(loadSession(richLog().bytes()), undefined);
    assert.ok(closed.ok);
    assert.equal(closed.bytes.length, 0);
  });
});

describe('crash review: removing a torn tail', () => {
  it('plain: cuts after the last complete line; nothing before it changes', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const whole = b.bytes();
    const torn = b.bytes({ tornTail: '{"type":"tool/res' });
    const plan = planTornTailRemoval(loadSession(torn), torn, undefined);
    assert.ok(plan.ok);
    assert.equal(plan.cutAt, whole.length);
    assert.equal(plan.removedBytes, torn.length - whole.length);
    assert.deepEqual(bytesAfterRemoval(torn, plan), whole);
    const none = planTornTailRemoval(loadSession(whole), whole, undefined);
    assert.deepEqual(!none.ok && none.reasons.map((r) => r.rule), ['repair.no-torn-tail']);
  });

  it('zstd: a torn final frame is cut at its start and its complete lines are written again as one frame', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const n = b.lines.length;
    const { bytes, tornFrameStart } = zstdWithTornFrame(b.lines.slice(0, n - 3), b.lines.slice(n - 3, n - 1), b.lines[n - 1]);
    const loaded = loadSessionFile(bytes);
    assert.equal(loaded.zstd!.tornFrameStart, tornFrameStart);
    assert.equal(loaded.log.eventCount, b.events.length - 1, 'the two whole lines of the torn frame are recovered');
    const torn = reviewTornTail(loaded.log, { fileBytes: bytes, zstd: loaded.zstd })!;
    assert.equal(torn.kind, 'torn-frame');
    assert.equal(torn.tornFrameStart, tornFrameStart);
    assert.equal(torn.droppedBytes, bytes.length - tornFrameStart);
    assert.match(torn.preview, /^28 b5 2f fd/);
    assert.equal(planCrashRepairWrite(loaded.log, loaded.zstd).ok, false);
    const plan = planTornTailRemoval(loaded.log, bytes, loaded.zstd);
    assert.ok(plan.ok);
    assert.equal(plan.cutAt, tornFrameStart);
    const after = bytesAfterRemoval(bytes, plan);
    const reloaded = loadSessionFile(after);
    assert.equal(reloaded.zstd!.tornFrameStart, undefined);
    assert.deepEqual(events(after), events(bytes));
    // Then the closers can be written, and the result loads closed.
    const write = planCrashRepairWrite(reloaded.log, reloaded.zstd);
    assert.ok(write.ok);
    const repaired = loadSessionFile(bytesAfterWrite(after, write)).log;
    assert.deepEqual(repaired.verdict, { ok: true, stage: 'done' });
    assert.equal(repaired.lastTurnOpen, false);
  });
});

describe('crash review: repairs already made and session health', () => {
  it('lists a repair with its synthetic results, step/end, turn/end and the end-seed after them', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const log = loadSession(b.bytes());
    const plan = planRepair(log);
    assert.ok(plan.ok);
    const endSeed = `{"type":"session/end-seed","seq":${log.eventCount + plan.lines.length},"time":0,"data":{}}`;
    const repaired = loadSession(plainBytes([...b.lines, ...plan.lines, endSeed]));
    const [repair, ...others] = findRepairsMade(repaired);
    assert.deepEqual(others, []);
    const first = log.eventCount;
    assert.deepEqual(repair.closerSeqs, [first, first + 1, first + 2]);
    assert.deepEqual(
      repair.results.map((r) => [r.seq, r.callId, r.code, r.callSeq]),
      [[first, 'call-d', 'TOOL_OUTCOME_UNKNOWN', first - 1]],
    );
    assert.equal(repair.stepEndSeq, first + 1);
    assert.equal(repair.turnEndSeq, first + 2);
    assert.equal(repair.endSeedSeq, first + 3);
    assert.equal(repair.turnStartSeq, b.events.map((e) => e.type).lastIndexOf('turn/start'));
    assert.deepEqual([...repairSeqs([repair])], [first, first + 1, first + 2, first + 3]);
    assert.deepEqual(findRepairsMade(log), []);
  });

  it('a repair whose turn/end writes "interrupted" with a \\u escape is still found (only lines that cannot say it are skipped)', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const log = loadSession(b.bytes());
    const plan = planRepair(log);
    assert.ok(plan.ok);
    const lines = [...b.lines, ...plan.lines];
    const last = lines.length - 1;
    assert.ok(lines[last].includes('"interrupted"'));
    lines[last] = lines[last].replace('"interrupted"', '"\\u0069nterrupted"');
    const repaired = loadSession(plainBytes(lines));
    assert.equal((repaired.event(log.eventCount + plan.lines.length - 1) as any).data.reason.kind, 'interrupted');
    const [repair, ...others] = findRepairsMade(repaired);
    assert.deepEqual(others, []);
    assert.equal(repair.turnEndSeq, log.eventCount + plan.lines.length - 1);
  });

  it('a turn/end completed is no repair, nor a tool/result whose id only looks like one', () => {
    const b = richLog();
    b.turnStart();
    b.stepStart();
    b.assistant({ toolCalls: [{ id: 'x' }] });
    b.toolCall('x');
    b.toolResult('x', 'done');
    b.stepEnd();
    b.turnEnd();
    assert.deepEqual(findRepairsMade(loadSession(b.bytes())), []);
  });

  it('health of a crashed log: the open turn and its pending call at their places, and the torn tail', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const bytes = b.bytes({ tornTail: '{"ty' });
    const log = loadSession(bytes);
    const health = sessionHealth(log, { fileBytes: bytes });
    const kinds = health.entries.map((e) => e.kind);
    assert.ok(kinds.includes('open-turn') && kinds.includes('pending-call') && kinds.includes('torn-tail'), kinds.join());
    const pending = health.entries.find((e) => e.kind === 'pending-call')!;
    assert.equal(pending.seq, b.events.length - 1);
    assert.equal(pending.line, b.lines.length);
    assert.equal(pending.rule, 'repair.TOOL_OUTCOME_UNKNOWN');
    const tail = health.entries.find((e) => e.kind === 'torn-tail')!;
    assert.equal(tail.line, b.lines.length + 1);
    assert.equal(tail.offset, bytes.length - 4);
    assert.deepEqual(
      sessionHealth(loadSession(richLog().bytes()), { fileBytes: richLog().bytes() }).entries.filter((e) => e.kind !== 'invariant'),
      [],
    );
  });

  it('health names unknown event types (ignorable or not) and caps a kind', () => {
    const b = richLog();
    b.event('plugin/new-thing', {}, { ignorable: true });
    b.event('plugin/new-thing', {}, { ignorable: true });
    const health = sessionHealth(loadSession(b.bytes()), { fileBytes: b.bytes() }, { maxPerKind: 1 });
    const unknown = health.entries.filter((e) => e.kind === 'unknown-type');
    assert.equal(unknown.length, 1);
    assert.equal(unknown[0].seq, b.events.length - 2);
    assert.equal(unknown[0].severity, 'info');
    assert.match(unknown[0].message, /"plugin\/new-thing".*2 event/);
  });
});

describe('crash review on real dsh logs', function () {
  before(function () {
    if (!hasShared()) this.skip();
  });

  const real = (name: string) => join(sharedDir(), 'conformance', 'real', name);
  const REAL_LOGS = [
    'acp-agent_snapshots_advanced-toolchain_session.hdrfix.jsonl',
    'acp-agent_snapshots_pty-tools_session.hdrfix.jsonl',
    'web_snapshots_goal-multi-turn-actions_session.hdrfix.jsonl',
  ];

  it('recognises the repair dsh wrote in the crash fixture', () => {
    for (const path of [
      join(sharedDir(), 'fixtures', 'dsh-real', 'v0-crash-tail-repaired-tool-outcome-unknown.jsonl'),
      real('headless-agent_semantic-checkpoint-snapshots_tool-outcome-unknown_session-expected.hdrfix.jsonl'),
    ]) {
      const log = loadSession(new Uint8Array(readFileSync(path)));
      // The fixture keeps dsh's placeholders ("{{cwd}}"), which dsh refuses in a header; its .hdrfix twin loads.
      if (path.endsWith('.hdrfix.jsonl')) assert.ok(log.verdict.ok, path);
      const repairs = findRepairsMade(log);
      assert.equal(repairs.length, 1, path);
      assert.deepEqual(repairs[0].closerSeqs, [5, 6, 7]);
      assert.deepEqual(repairs[0].results, [{ seq: 5, callId: 'unknown-outcome-call', code: 'TOOL_OUTCOME_UNKNOWN', callSeq: 4 }]);
      assert.equal(repairs[0].endSeedSeq, 8);
      assert.equal(repairs[0].turnStartSeq, 0);
      assert.ok(
        sessionHealth(log, { fileBytes: new Uint8Array(readFileSync(path)) }).entries.some((e) => e.kind === 'repair-made' && e.seq === 5),
      );
    }
  });

  for (const name of REAL_LOGS) {
    for (const recorded of [true, false]) {
      const code = recorded ? 'TOOL_OUTCOME_UNKNOWN' : 'TOOL_NOT_STARTED';
      it(`${name}: cut mid-turn ${recorded ? 'after' : 'before'} the tool/call → ${code}; plain, mid-line and mid-frame`, () => {
        const original = readFileSync(real(name), 'utf8')
          .split('\n')
          .filter((l) => l.length > 0);
        assert.ok(loadSession(plainBytes(original)).verdict.ok, 'the real log loads');
        const cut = cutAtFirstToolCall(original, recorded)!;
        assert.ok(cut, 'the log has a tool/call');
        const next = original[cut.kept];

        // Mid-turn, ending on a whole line.
        const plain = plainBytes(cut.lines);
        const log = loadSession(plain);
        const review = reviewOpenTurn(log)!;
        const pending = review.pendingCalls.find((c) => c.callId === cut.callId)!;
        assert.equal(pending.code, code);
        assert.equal(pending.callSeq !== undefined, recorded);
        assert.equal(review.closers.at(-1)!.type, 'turn/end');
        const write = planCrashRepairWrite(log, undefined);
        assert.ok(write.ok);
        const repaired = loadSession(bytesAfterWrite(plain, write));
        assert.deepEqual(repaired.verdict, { ok: true, stage: 'done' });
        assert.equal(repaired.lastTurnOpen, false);
        assert.deepEqual(
          findRepairsMade(repaired).map((r) => r.closerSeqs),
          [review.closers.map((c) => c.seq)],
        );

        // Mid-line: the torn half line is reported, removed (plain cut), then the closers go on.
        const tornBytes = plainBytes(cut.lines, halfLine(next));
        const tornLog = loadSession(tornBytes);
        const torn = reviewTornTail(tornLog, { fileBytes: tornBytes })!;
        assert.equal(torn.kind, 'torn-line');
        assert.equal(torn.droppedBytes, enc.encode(halfLine(next)).length);
        const removal = planTornTailRemoval(tornLog, tornBytes, undefined);
        assert.ok(removal.ok);
        assert.deepEqual(bytesAfterRemoval(tornBytes, removal), plain);

        // Mid-zstd-frame: the last two whole lines and half the next in a torn frame.
        const { bytes: zbytes, tornFrameStart } = zstdWithTornFrame(cut.lines.slice(0, -2), cut.lines.slice(-2), next);
        const zloaded = loadSessionFile(zbytes);
        assert.equal(zloaded.zstd!.tornFrameStart, tornFrameStart);
        assert.equal(zloaded.log.eventCount, log.eventCount);
        assert.equal(reviewOpenTurn(zloaded.log)!.pendingCalls.find((c) => c.callId === cut.callId)!.code, code);
        assert.equal(reviewTornTail(zloaded.log, { fileBytes: zbytes, zstd: zloaded.zstd })!.kind, 'torn-frame');
        const zremoval = planTornTailRemoval(zloaded.log, zbytes, zloaded.zstd);
        assert.ok(zremoval.ok);
        const zcut = bytesAfterRemoval(zbytes, zremoval);
        const zreloaded = loadSessionFile(zcut);
        const zwrite = planCrashRepairWrite(zreloaded.log, zreloaded.zstd);
        assert.ok(zwrite.ok);
        assert.deepEqual(zwrite.lines, write.lines);
        const zrepaired = loadSessionFile(bytesAfterWrite(zcut, zwrite)).log;
        assert.deepEqual(zrepaired.verdict, { ok: true, stage: 'done' });
        assert.equal(zrepaired.lastTurnOpen, false);
      });
    }
  }
});

describe('crash repair as a pending edit, saved through the safe save path', () => {
  const { PendingEdits } = require('../../src/core/plan/pending-edits') as typeof import('../../src/core/plan/pending-edits');

  it('plans the closers of the open turn; refuses a closed turn and a torn tail; survives a JSON backup', () => {
    const b = richLog({ openTail: 'recorded-call' });
    const log = loadSession(b.bytes());
    const edits = new PendingEdits(log.eventCount);
    edits.push({ kind: 'repair' });
    const plan = edits.plan({ log });
    assert.ok(plan.ok);
    const direct = planRepair(log);
    assert.ok(direct.ok);
    assert.deepEqual(plan.lines, direct.lines);
    const restored = PendingEdits.fromJSON(JSON.parse(JSON.stringify(edits)));
    assert.ok(typeof restored !== 'string');
    const again = restored.plan({ log });
    assert.deepEqual(again.ok && again.lines, direct.lines);
    const closed = new PendingEdits(0);
    closed.push({ kind: 'repair' });
    const refused = closed.plan({ log: loadSession(richLog().bytes()) });
    assert.deepEqual(!refused.ok && refused.reasons.map((r) => r.rule), ['repair.nothing']);
    const torn = closed.plan({ log: loadSession(b.bytes({ tornTail: '{"ty' })) });
    assert.deepEqual(!torn.ok && torn.reasons.map((r) => r.rule), ['repair.torn-tail-first']);
  });

  it('a file an agent appended to since the review: the closers are planned again after its events, and written only when confirmed', async () => {
    const { mkdtempSync, writeFileSync, appendFileSync, readFileSync: read, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { saveEdits } = await import('../../src/files/append-save');
    const { editableFromBytes } = await import('../../src/files/editable');
    const dir = mkdtempSync(join(tmpdir(), 'repair-save-'));
    try {
      const b = richLog({ openTail: 'recorded-call' });
      const file = join(dir, 'session.jsonl');
      const bytes = b.bytes();
      writeFileSync(file, bytes);
      const loaded = loadSessionFile(bytes);
      const count = loaded.log.eventCount;
      const edits = () => {
        const e = new PendingEdits(count);
        e.push({ kind: 'repair' });
        return e;
      };
      // The agent was alive: it wrote one more event of the open step.
      const extra = `{"type":"request/context","seq":${count},"time":0,"data":{"provider":"p","model":"m"}}\n`;
      appendFileSync(file, extra);
      const declined = await saveEdits(file, editableFromBytes(loaded, bytes, 0), edits());
      assert.equal(declined.ok, false);
      assert.equal(!declined.ok && declined.stage, 'declined');
      assert.equal(read(file, 'utf8'), new TextDecoder().decode(bytes) + extra, 'nothing written');
      const fresh = loadSessionFile(bytes);
      const saved = await saveEdits(file, editableFromBytes(fresh, bytes, 0), edits(), { confirmReplan: () => true });
      assert.ok(saved.ok);
      assert.equal(saved.firstSeq, count + 1);
      const after = loadSession(new Uint8Array(read(file)));
      assert.deepEqual(after.verdict, { ok: true, stage: 'done' });
      assert.equal(after.lastTurnOpen, false);
      assert.equal(after.event(count + 1)!.data.message.id, `interrupted-tool-result-call-d-${count + 1}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
