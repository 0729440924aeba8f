// What the core hands out cannot change what it holds, and closers report their own roles.
import { strict as assert } from 'node:assert';
import { loadSession, SurfaceRole } from '../../src/core';
import { LogBuilder, richLog } from '../support/build-log';

describe('core API safety', () => {
  it('event() returns a fresh object per call', () => {
    const log = loadSession(richLog().bytes());
    const first = log.event(1)!;
    (first.data as Record<string, unknown>).turn = 99;
    assert.notEqual(log.event(1)!.data.turn, 99);
  });

  it('closers are frozen', () => {
    const log = loadSession(richLog({ openTail: 'open-step' }).bytes());
    assert.ok(log.closers.length > 0);
    assert.throws(() => {
      (log.closers[0].data as Record<string, unknown>).step = 42;
    }, TypeError);
  });

  it('only tool/result closers are surface appends; turn() and step() read closers too', () => {
    const log = loadSession(richLog({ openTail: 'recorded-call' }).bytes());
    const roles = log.closers.map((c) => [c.type, log.surfaceRole(c.seq)]);
    for (const [type, role] of roles)
      assert.equal(role, type === 'tool/result' ? SurfaceRole.Append : SurfaceRole.None, `role of closer ${type}`);
    const turnEnd = log.closers[log.closers.length - 1];
    assert.equal(log.turn(turnEnd.seq), turnEnd.data.turn);
  });

  it('reads every member of a long packed row in linear time', () => {
    const builder = new LogBuilder();
    builder.turnStart();
    builder.stepStart();
    const texts = Array.from({ length: 20_000 }, (_, i) => `t${i}`);
    const seqs = builder.textChunks(texts, { dt: texts.slice(1).map(() => 1) });
    const log = loadSession(builder.bytes());
    // A quadratic member lookup takes seconds here; the check is on the values, the speed shows in the run time.
    let text = '';
    for (const seq of seqs) text += log.event(seq)!.data.chunk.text;
    assert.equal(text, texts.join(''));
    assert.equal(log.event(seqs[seqs.length - 1])!.time - log.event(seqs[0])!.time, texts.length - 1);
  });
});

describe('the view beyond a damaged line', () => {
  it('lists the readable lines after the damage that dsh does not keep', () => {
    const builder = richLog();
    const lines = builder
      .text()
      .split('\n')
      .filter((l) => l);
    const damagedAt = 6; // 0-based index in the file: line 7
    const text = [...lines.slice(0, damagedAt), '{not json', ...lines.slice(damagedAt)].join('\n') + '\n';
    const log = loadSession(new TextEncoder().encode(text));
    const beyond = log.linesBeyondDamage;
    assert.equal(log.place(log.eventCount - 1)!.line, damagedAt, 'the last kept event is on the line before the damage');
    assert.equal(beyond.count, lines.length - damagedAt);
    assert.equal(beyond.lines[0].line, damagedAt + 2);
    assert.equal(beyond.lines[0].seq, JSON.parse(lines[damagedAt]).seq ?? JSON.parse(lines[damagedAt]).seq0);
    // The log closes turns after the damage, so dsh refuses it; the view still names what follows.
    assert.equal(log.verdict.stage, 'parse');
  });
});

describe('related places on surface refusals', () => {
  it('a tool/result rewrite that changes more than content points at the result it targets', () => {
    const builder = new LogBuilder();
    const [resultSeq] = builder.toolTurn('read it', ['call_a']);
    const data = JSON.parse(JSON.stringify(builder.events[resultSeq].data));
    data.message.content[0].isError = true; // only the inner content may change
    // Written raw: the builder itself refuses to write an invalid event.
    builder.rawLine(
      JSON.stringify({
        type: 'tool/result',
        seq: builder.nextSeq,
        time: builder.lastTime,
        data,
        sourceEventSeqs: [resultSeq],
        surfaceOp: { op: 'replace', start: resultSeq, end: resultSeq },
      }),
    );
    const log = loadSession(builder.bytes());
    assert.equal(log.verdict.rule, 'toolresult-rewrite.content-only');
    const refusing = log.diagnostics.find((d) => d.refusing)!;
    assert.ok(refusing.related, 'the refusal names the targeted result');
    assert.equal(refusing.related![0].seq, resultSeq);
    assert.equal(refusing.related![0].line, log.place(resultSeq)!.line);
  });

  it('a replace whose endpoint was already shadowed points at the replacement that shadowed it', () => {
    const builder = new LogBuilder();
    builder.chatTurn('first');
    builder.chatTurn('second');
    const { replaceSeq, shadowed } = builder.compact();
    const stale = shadowed[0];
    builder.rawLine(
      JSON.stringify({
        type: 'user/message',
        seq: builder.nextSeq,
        time: builder.lastTime,
        data: { content: [{ type: 'text', text: 'again' }], source: { kind: 'user' }, role: 'user', id: 'again' },
        sourceEventSeqs: [stale],
        surfaceOp: { op: 'replace', start: stale, end: stale },
      }),
    );
    const log = loadSession(builder.bytes());
    assert.equal(log.verdict.rule, 'replace.endpoints-on-current-surface');
    const refusing = log.diagnostics.find((d) => d.refusing)!;
    assert.equal(refusing.related?.[0].seq, replaceSeq);
  });
});
