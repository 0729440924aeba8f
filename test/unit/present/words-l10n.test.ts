// The presentation layer's words in the display language: the host hands it a translator (vscode.l10n.t,
// here the same bundle lookup), and verdicts, live states, header labels, row summaries and counts come
// out in Simplified Chinese, while the default formatter (the CLI's) keeps every English word as it was.
import { strict as assert } from 'node:assert';
import { loadSession, loadSessionFile } from '../../../src/core';
import { buildSummary } from '../../../src/host/timeline/summary';
import { handleRequest } from '../../../src/host/timeline/request-handlers';
import { SessionTimeline } from '../../../src/host/timeline/session-timeline';
import {
  eventSummary,
  Formatter,
  headerFields,
  liveText,
  logDiagnostics,
  messageSummary,
  sessionTitle,
  stillReadable,
  typeLabel,
  verdictWords,
  type FollowWord,
  type LiveWord,
} from '../../../src/present';
import { editTitle } from '../../../src/present/edit-preview';
import { bytesWords, closerCodeLabel, durationWords } from '../../../src/present/repair-words';
import type { TimelineRow } from '../../../src/protocol';
import { LogBuilder, richLog } from '../../support/build-log';
import { bundleFormatter } from '../../support/l10n';

const en = new Formatter({ locale: 'en-US', timeZone: 'UTC' });
const zh = bundleFormatter('zh-cn');
const HAN = /[\u4e00-\u9fff]/;

const refusal = {
  ok: false,
  stage: 'parse',
  rule: 'jsonl.damaged-line',
  line: 43,
  seq: 41,
  dshError: 'corrupt session log: unparsable committed event at line 42',
} as const;

/** A log dsh refuses: a damaged committed line with a turn/end after it. */
function refusedLog(): Uint8Array {
  const lines = new TextDecoder().decode(richLog().bytes()).trimEnd().split('\n');
  lines.splice(4, 1, '{"broken');
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

describe('present: words in the display language', () => {
  it('keeps the English of the default formatter word for word', () => {
    assert.equal(en.t('seq {0} (not in the log)', 7), 'seq 7 (not in the log)');
    assert.equal(en.t('{0} of {1}', 'a'), 'a of {1}', 'a placeholder without an argument stays');
    assert.equal(verdictWords(refusal, en).text, 'dsh refuses this log at the parse step: line 43 (seq 41) breaks jsonl.damaged-line.');
    assert.equal(verdictWords({ ok: false, stage: 'header' }, en).text, 'dsh refuses this log at the header step: the log is refused.');
    assert.equal(
      verdictWords(refusal, en).dshText,
      "dsh's own message (dsh counts lines after the header, so its line N is file line N + 1): “corrupt session log: unparsable committed event at line 42”",
    );
    assert.equal(liveText('live', 'following', en), 'Live — the last turn is still open; following appends');
    assert.equal(eventSummary({ type: 'turn/start', data: { turn: 3, step: 1 } }, en), 'turn 3 step 1');
    assert.equal(eventSummary({ type: 'turn/end', data: { turn: 3, reason: { kind: 'interrupted' } } }, en), 'turn 3: interrupted');
    assert.equal(eventSummary({ type: 'todo/write', data: { todos: [{ status: 'completed' }, {}] } }, en), '2 item(s), 1 completed');
    assert.equal(
      messageSummary({ content: [{ type: 'reasoning', text: 'abc' }], source: { kind: 'user' } }, en),
      '[user] reasoning (3 chars)',
    );
    assert.equal(typeLabel('tool/result', en), 'Tool result');
    assert.equal(sessionTitle(undefined, en), '(no readable header)');
    assert.equal(en.counted(1, '{0} event', '{0} events'), '1 event');
    assert.equal(en.counted(1200, '{0} event', '{0} events'), '1,200 events');
    assert.equal(en.duration(185_000), '3 min 05 s');
    assert.equal(bytesWords(1, en), '1 byte');
    assert.equal(bytesWords(1000, en), '1000 bytes', 'the CLI writes byte counts without grouping');
    assert.equal(durationWords(90_000, en), '2 min');
    assert.equal(closerCodeLabel('TOOL_OUTCOME_UNKNOWN', en), 'outcome unknown');
    const fields = headerFields({ type: 'session', version: 1, id: 's', createdAt: 0 }, en)!;
    assert.deepEqual(
      fields.map((f) => f.label),
      ['Session id', 'Format version', 'Created', 'Delegation depth'],
    );
  });

  it('words the verdict, dsh’s quoted message and the live state in Chinese', () => {
    const words = verdictWords(refusal, zh);
    assert.equal(words.text, 'dsh 在 parse 阶段拒绝此日志：第 43 行（seq 41）违反了 jsonl.damaged-line。');
    assert.equal(
      words.dshText,
      'dsh 自己的消息（dsh 从会话头之后开始计行，因此它的第 N 行是文件的第 N + 1 行）：“corrupt session log: unparsable committed event at line 42”',
    );
    assert.equal(verdictWords({ ok: true, stage: 'done' }, zh).text, 'dsh 可以打开此日志。');
    const states: LiveWord[] = ['live', 'closed', 'noTurns', 'refused', 'unknown'];
    const follows: FollowWord[] = ['following', 'off', 'stopped'];
    for (const state of states)
      for (const follow of follows) {
        const text = liveText(state, follow, zh);
        assert.match(text, HAN, `${state} ${follow}`);
        assert.notEqual(text, liveText(state, follow, en));
      }
    assert.equal(liveText('live', 'following', zh), '运行中 — 最后一轮仍未结束；正在跟随追加内容');
  });

  it('labels header fields and event types, and summarises rows in Chinese; dsh’s own names stay', () => {
    const fields = headerFields({ type: 'session', version: 1, id: 's', createdAt: 0, cwd: '/w' }, zh)!;
    const byName = new Map(fields.map((f) => [f.name, f]));
    assert.equal(byName.get('id')!.label, '会话 ID');
    assert.equal(byName.get('cwd')!.label, '工作目录');
    assert.equal(byName.get('createdAt')!.value, '0（不是日期）');
    assert.equal(byName.get('delegationDepth')!.value, '（缺失）');
    assert.equal(sessionTitle(undefined, zh), '（没有可读的会话头）');
    assert.equal(typeLabel('assistant/message', zh), '助手消息');
    assert.equal(typeLabel('x/unknown', zh), 'x/unknown');
    assert.equal(eventSummary({ type: 'turn/start', data: { turn: 3, step: 1 } }, zh), '第 3 轮第 1 步');
    assert.equal(eventSummary({ type: 'turn/end', data: { turn: 3, reason: { kind: 'interrupted' } } }, zh), '第 3 轮：interrupted');
    assert.equal(eventSummary({ type: 'todo/write', data: { todos: [{ status: 'completed' }, {}] } }, zh), '2 项，已完成 1 项');
    assert.equal(
      eventSummary(
        {
          type: 'assistant/message',
          data: { interrupted: true, message: { content: [], source: { kind: 'model', provider: 'p', model: 'm' } } },
        },
        zh,
      ),
      '（已中断）（空）',
    );
    assert.equal(
      eventSummary(
        {
          type: 'tool/result',
          data: {
            message: {
              content: [{ type: 'tool-result', toolCallId: 'c1', isError: true, content: [{ type: 'text', text: 'boom' }] }],
              source: { kind: 'tool', callId: 'c1' },
            },
          },
        },
        zh,
      ),
      '（出错）"boom"',
    );
    assert.equal(
      messageSummary(
        {
          content: [
            { type: 'reasoning', text: 'abc' },
            { type: 'tool-result', toolCallId: 'c1', isError: true, content: [] },
          ],
        },
        zh,
      ),
      '[?] reasoning（3 个字符） + tool-result（对应 c1，出错）：',
    );
    assert.equal(messageSummary(null, zh), '（无消息）');
  });

  it('counts, sizes, durations and titles in Chinese, one form for one and many', () => {
    assert.equal(zh.counted(1, '{0} event', '{0} events'), '1 个事件');
    assert.equal(zh.counted(1200, '{0} event', '{0} events'), '1,200 个事件');
    assert.equal(zh.duration(340), '340 毫秒');
    assert.equal(zh.duration(185_000), '3 分 05 秒');
    assert.equal(zh.tokens(12_345), '12.3k 个 token');
    assert.equal(bytesWords(3, zh), '3 字节');
    assert.equal(durationWords(90_000, zh), '2 分钟');
    assert.equal(closerCodeLabel('TOOL_NOT_STARTED', zh), '从未开始');
    assert.equal(editTitle({ kind: 'prune', seq: 7, result: [] } as never, zh), '修剪 tool/result seq 7');
    const refused = loadSession(refusedLog());
    assert.match(stillReadable(refused, zh, 1000), /^仍可读取的内容：会话头，\d+ 个事件，/);
  });

  it('words the diagnostics in Chinese, its own sentences and the core’s alike; dsh’s message stays as dsh wrote it', () => {
    const seqGap = (closed: boolean) => {
      const b = new LogBuilder();
      b.chatTurn('one');
      b.rawLine(JSON.stringify({ type: 'turn/start', seq: 999, time: 1_786_000_000_000, data: { turn: 2 } }));
      if (closed)
        b.rawLine(
          JSON.stringify({ type: 'turn/end', seq: 1000, time: 1_786_000_000_000, data: { turn: 2, reason: { kind: 'completed' } } }),
        );
      return loadSession(b.bytes());
    };
    // Refused: dsh's message quoted, and the damage reworded as a broken seq order.
    const refused = seqGap(true);
    const zhList = logDiagnostics(refused, zh).map((d) => d.message);
    const enList = logDiagnostics(refused, en).map((d) => d.message);
    assert.equal(zhList.length, enList.length);
    assert.ok(enList.includes('line 10 breaks the seq order, but line 11 closes a turn after it: the damage is inside committed history'));
    assert.ok(zhList.includes('第 10 行打破了 seq 顺序，但其后的第 11 行结束了一个轮次：损坏位于已提交的历史中'));
    assert.ok(enList.some((m) => m.startsWith("dsh refuses the log. dsh's own message (dsh counts lines after the header")));
    assert.ok(zhList.some((m) => m.startsWith('dsh 拒绝此日志。dsh 自己的消息（dsh 从会话头之后开始计行')));
    assert.ok(enList.includes('line 10 has seq 999 where seq 10 was expected'));
    assert.ok(zhList.includes('第 10 行的 seq 是 999，而预期是 seq 10'), 'the core’s diagnostics through their words');
    // Loaded up to the gap: what dsh keeps.
    const kept = logDiagnostics(seqGap(false), zh).map((d) => d.message);
    assert.ok(
      kept.some((m) => /^dsh 只保留第 10 行之前的事件，seq 顺序在该行中断；以可写方式打开会在第 \d+ 字节处截断文件$/.test(m)),
      kept.join('\n'),
    );
  });

  it('the host sends a summary and rows worded in Chinese', async () => {
    const bytes = refusedLog();
    const source = loadSessionFile(bytes);
    const s = buildSummary(
      source.log,
      {
        fileName: 'x.jsonl',
        filePath: '/tmp/x.jsonl',
        turns: 1,
        file: { state: 'following', size: bytes.length, mtimeMs: 0 },
        followLiveLogs: true,
        fileBytes: bytes.length,
        restrictedMode: false,
        loadMs: 1234,
        generation: { events: source.log.eventCount, replaceGeneration: 0, load: 1 },
        diagnostics: source.log.diagnostics,
      },
      zh,
    );
    assert.match(s.verdict.text, /^dsh 在 parse 阶段拒绝此日志：第 5 行/);
    assert.equal(s.liveText, '被 dsh 拒绝；仍在跟随该文件');
    assert.match(s.stillReadable ?? '', /^仍可读取的内容/);
    const facts = new Map(s.facts.map((f) => [f.name, f]));
    assert.equal(facts.get('events')!.label, '事件');
    assert.equal(facts.get('loadMs')!.label, '读取用时');
    assert.equal(facts.get('loadMs')!.value, '1.2 秒');
    assert.equal(s.headerFields!.find((f) => f.name === 'id')!.label, '会话 ID');

    const good = richLog().bytes();
    const t = new SessionTimeline(loadSessionFile(good), 1, zh, {
      summaryContext: () => ({
        fileName: 'r.jsonl',
        filePath: '/tmp/r.jsonl',
        turns: 0,
        file: { state: 'following', size: good.length, mtimeMs: 0 },
        followLiveLogs: true,
        fileBytes: good.length,
        restrictedMode: false,
        loadMs: 1,
      }),
      reveal: async () => true,
      reload: () => {},
    });
    const response = await handleRequest(
      t,
      { type: 'request', id: 1, method: 'rows', params: { order: 'log', start: 0, count: 200 } },
      () => {},
    );
    assert.ok(response?.ok);
    const rows = (response.result as { rows: TimelineRow[] }).rows;
    const turnStart = rows.find((r) => r.type === 'turn/start')!;
    assert.equal(turnStart.label, '轮次开始');
    assert.match(turnStart.summary, /^第 \d+ 轮/);
    assert.ok(
      rows.some((r) => r.kind === 'chunkRun' && /^流式输出了 \d+ 个块$/.test(r.summary)) || !rows.some((r) => r.kind === 'chunkRun'),
    );
  });
});
