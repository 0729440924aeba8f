// One-line event summaries, labels, header fields and verdict words from real core loads of logs
// built in code, including hostile values (deep nesting, huge strings, bidi, built-in member names).
import { strict as assert } from 'node:assert';
import { loadSession } from '../../../src/core';
import {
  eventSummary,
  eventUsage,
  Formatter,
  headerFields,
  liveState,
  liveText,
  messageSummary,
  quoteDsh,
  sessionTitle,
  SUMMARY_WIDTH,
  typeIcon,
  typeLabel,
  verdictWords,
} from '../../../src/present';
import { headerLine, LogBuilder, richLog } from '../../support/build-log';

const fmt = new Formatter({ locale: 'en-US', timeZone: 'UTC' });

describe('present: event summaries', () => {
  const b = richLog();
  const log = loadSession(b.bytes());

  it('summarises every event of a log on one bounded line', () => {
    for (let seq = 0; seq < log.eventCount; seq++) {
      const event = log.event(seq)!;
      const line = eventSummary(event, fmt);
      assert.ok(line.length <= SUMMARY_WIDTH, `seq ${seq}`);
      assert.doesNotMatch(line, /[\n\r\u202E]/);
    }
  });

  it('says what a message, a tool call and a turn are', () => {
    const user = [...Array(log.eventCount).keys()].find((s) => log.eventType(s) === 'user/message')!;
    assert.match(eventSummary(log.event(user)!, fmt), /^\[user\] "hello"$/);
    const call = [...Array(log.eventCount).keys()].find((s) => log.eventType(s) === 'tool/call')!;
    assert.match(eventSummary(log.event(call)!, fmt), /^read\(\{"path":"a"\}\) id call-a$/);
    assert.equal(eventSummary({ type: 'turn/end', data: { turn: 2, reason: { kind: 'completed' } } }, fmt), 'turn 2: completed');
    assert.equal(typeLabel('assistant/message', fmt), 'Assistant message');
    assert.equal(typeIcon('tool/call'), 'tools');
    assert.equal(typeLabel('x/unknown', fmt), 'x/unknown');
    assert.equal(typeIcon('constructor'), 'circle-small');
  });

  it('puts what a message says first in a row, leaving out the source its type always has', () => {
    const model = { kind: 'model', provider: 'deepseek-official', model: 'deepseek-v4-flash' };
    const said = (type: string, data: unknown) => eventSummary({ type, data }, fmt);
    assert.equal(
      said('assistant/message', { message: { content: [{ type: 'text', text: 'The entry point' }], source: model } }),
      '"The entry point"',
    );
    // Any other source tells something, so it stays.
    assert.equal(
      said('assistant/message', { message: { content: [{ type: 'text', text: 'hi' }], source: { kind: 'plugin', plugin: 'p' } } }),
      '[plugin:p] "hi"',
    );
    const result = (isError: boolean) => ({
      message: {
        content: [{ type: 'tool-result', toolCallId: 'call-7', isError, content: [{ type: 'text', text: 'main.ts util.ts' }] }],
        source: { kind: 'tool', callId: 'call-7' },
      },
    });
    assert.equal(said('tool/result', result(false)), '"main.ts util.ts"');
    assert.equal(said('tool/result', result(true)), '(error) "main.ts util.ts"');
    // The message as a list of derived messages shows it (source first, call id kept).
    assert.equal(messageSummary(result(false).message, fmt), '[tool call-7] tool-result for call-7: "main.ts util.ts"');
    assert.match(said('user/message', { content: [{ type: 'text', text: 'x' }], source: { kind: 'user' } }), /^\[user\] "x"$/);
  });

  it('stays bounded and inert on hostile values', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 5000; i++) deep = { deep };
    const hostile = [
      {
        type: 'user/message',
        data: { content: [{ type: 'text', text: `<script>alert(1)</script>${'a'.repeat(1_000_000)}` }], source: { kind: 'user' } },
      },
      { type: 'tool/call', data: { name: deep, arguments: deep, callId: deep } },
      {
        type: 'assistant/message',
        data: { message: { content: [{ type: 'tool-result', content: [{ type: 'tool-result', content: [deep] }] }], source: deep } },
      },
      { type: 'constructor', data: deep },
      { type: '__proto__', data: { toString: 1 } },
      { type: 'session/title', data: { title: 'report\u202Efdp.exe' } },
    ];
    for (const e of hostile) {
      const line = eventSummary(e, fmt);
      assert.ok(line.length <= SUMMARY_WIDTH);
      assert.doesNotMatch(line, /[\u202E\n]/);
    }
    assert.equal(messageSummary(null, fmt), '(no message)');
  });

  it('reads token usage of an assistant message', () => {
    const usage = eventUsage('assistant/message', { usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 3, reasoningTokens: 2 } });
    assert.deepEqual(usage, { input: 10, cachedInput: 3, output: 5, reasoning: 2, total: undefined });
    assert.equal(eventUsage('assistant/message', { usage: 'lots' }), undefined);
  });
});

describe('present: header and verdict words', () => {
  it('bounds a 200 KB cwd and neutralises bidi in the id', () => {
    const fields = headerFields({ type: 'session', version: 0, id: 'abc\u202Egnp.exe', createdAt: 0, cwd: '/x'.repeat(100_000) }, fmt)!;
    const byName = new Map(fields.map((f) => [f.name, f]));
    assert.equal(byName.get('id')!.value, 'abc\\u202Egnp.exe');
    assert.ok(byName.get('cwd')!.value.length <= 120);
    assert.ok(byName.get('cwd')!.full!.length <= 2000);
    assert.equal(byName.get('createdAt')!.value, '0 (not a date)');
    assert.equal(byName.get('delegationDepth')!.value, '(missing)');
    assert.equal(headerFields([1, 2], fmt), undefined);
    assert.equal(sessionTitle({ id: '' }, fmt), '(no readable header)');
  });

  it('never calls a refused log live, and says "closed" only when there is a turn', () => {
    const refused = loadSession(new TextEncoder().encode(`${headerLine({ cwd: 'relative' })}\n`));
    assert.equal(refused.verdict.ok, false);
    assert.equal(liveState(refused, 0), 'refused');
    assert.doesNotMatch(liveText('refused', 'following', fmt), /Live/);
    const empty = loadSession(new LogBuilder().bytes());
    assert.equal(liveState(empty, 0), 'noTurns');
    assert.equal(liveText('noTurns', 'stopped', fmt), 'No turn yet');
    const open = loadSession(richLog({ openTail: 'recorded-call' }).bytes());
    assert.equal(liveState(open, 4), 'live');
  });

  it('says following is off when the setting turned it off, never "following appends"', () => {
    assert.equal(liveText('closed', 'following', fmt), 'Every turn is closed; following appends');
    assert.equal(liveText('closed', 'off', fmt), 'Every turn is closed; following appends is turned off');
    assert.equal(liveText('live', 'off', fmt), 'Live — the last turn is still open; following appends is turned off');
    assert.equal(liveText('refused', 'off', fmt), 'Refused by dsh; following the file is turned off');
    for (const state of ['live', 'closed', 'noTurns', 'refused', 'unknown'] as const)
      assert.doesNotMatch(liveText(state, 'off', fmt), /following appends$|still followed/);
  });

  it('says whose line numbers a quoted dsh message uses', () => {
    assert.match(quoteDsh('corrupt session log: unparsable committed event at line 42', fmt), /dsh counts lines after the header/);
    assert.doesNotMatch(quoteDsh('event seq 3 is bad', fmt), /counts lines/);
    const words = verdictWords(
      {
        ok: false,
        stage: 'parse',
        rule: 'jsonl.damaged-line',
        line: 43,
        dshError: 'corrupt session log: unparsable committed event at line 42',
      },
      fmt,
    );
    assert.equal(words.text, 'dsh refuses this log at the parse step: line 43 breaks jsonl.damaged-line.');
    assert.match(words.dshText!, /line N is file line N \+ 1/);
  });
});
