// The core's own messages in the display language: diagnostics, planner refusals, health entries and
// a torn tail's why keep their template and arguments (src/core/words.ts), so a Chinese formatter
// words them in Chinese while the default (the CLI's) formatter gives the core's English unchanged.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkInvariants, loadSession, planCompaction, planToolResultPrune, type Diagnostic, type Words } from '../../../src/core';
import { sessionHealth } from '../../../src/core/check/session-health';
import { reviewTornTail } from '../../../src/core/surface/torn-tail';
import { coreText, Formatter, logDiagnostics, tailWhy } from '../../../src/present';
import { LogBuilder } from '../../support/build-log';
import { bundle, bundleFormatter } from '../../support/l10n';
import { repoRoot } from '../../support/paths';

const en = new Formatter({ locale: 'en-US', timeZone: 'UTC' });
const zh = bundleFormatter('zh-cn');
const zhBundle = bundle('zh-cn');
const T = 1_786_000_000_000;

/** A closed turn, then a turn/start numbered 5 (an invariant warning), then a damaged last line. */
function troubledLog(): { bytes: Uint8Array; turnStartLine: number } {
  const b = new LogBuilder();
  b.chatTurn('one');
  b.rawLine(JSON.stringify({ type: 'turn/start', seq: b.nextSeq, time: T, data: { turn: 5 } }));
  const turnStartLine = b.text().split('\n').length - 1;
  b.rawLine('{"broken');
  return { bytes: b.bytes(), turnStartLine };
}

/** A closed turn, then a line whose seq jumps to 999. */
function seqGapLog(): Uint8Array {
  const b = new LogBuilder();
  b.chatTurn('one');
  b.rawLine(JSON.stringify({ type: 'turn/start', seq: 999, time: T, data: { turn: 2 } }));
  return b.bytes();
}

/** Every template in `words`, nested phrases included. */
function templates(words: Words | undefined): string[] {
  if (!words) return [];
  return [words.template, ...words.args.flatMap((arg) => (typeof arg === 'object' ? templates(arg) : []))];
}

const HAN = /[\u4e00-\u9fff]/;

describe('present: the core’s messages in the display language', () => {
  it('words a damaged line, an invariant warning and a seq gap in Chinese; English stays word for word', () => {
    const { bytes, turnStartLine } = troubledLog();
    const log = loadSession(bytes);
    const damaged = turnStartLine + 1;
    const english = logDiagnostics(log, en).map((d) => `${d.rule}: ${d.message}`);
    assert.deepEqual(english, [
      'invariant.turn-bracketing: turn/start numbers turn 5; the next turn is 2',
      `jsonl.damaged-line: line ${damaged} cannot be read`,
      `jsonl.damaged-line: dsh keeps only the events before line ${damaged}; a writable open would truncate the file at byte ${log.scan.committedBytes}`,
    ]);
    // The default formatter gives exactly the core's English.
    const core = [...log.diagnostics, ...checkInvariants(log)];
    for (const d of logDiagnostics(log, en))
      assert.ok(
        core.some((c) => c.message === d.message),
        d.message,
      );
    const chinese = logDiagnostics(log, zh).map((d) => `${d.rule}: ${d.message}`);
    assert.deepEqual(chinese, [
      'invariant.turn-bracketing: turn/start 的轮次编号是 5；下一轮应为 2',
      `jsonl.damaged-line: 第 ${damaged} 行无法读取`,
      `jsonl.damaged-line: dsh 只保留第 ${damaged} 行之前的事件；以可写方式打开会在第 ${log.scan.committedBytes} 字节处截断文件`,
    ]);

    const gap = loadSession(seqGapLog());
    const gapLines = logDiagnostics(gap, zh).map((d) => d.message);
    assert.ok(gapLines.includes('第 10 行的 seq 是 999，而预期是 seq 10'), gapLines.join('\n'));
    assert.ok(logDiagnostics(gap, en).some((d) => d.message === 'line 10 has seq 999 where seq 10 was expected'));
  });

  it('words planner refusals in Chinese, every reason of a refused plan', () => {
    const log = loadSession(troubledLog().bytes);
    const prune = planToolResultPrune(log, 0, []);
    assert.equal(prune.ok, false);
    const compaction = planCompaction(log, {
      start: 1,
      end: 3,
      compactionId: '',
      messageId: 'm',
      time: T,
      shadowedTokenCount: 1,
      provider: 'p',
      model: 'm',
      summary: [{ type: 'text', text: 's' }],
    });
    assert.equal(compaction.ok, false);
    const reasons = [...(prune.ok ? [] : prune.reasons), ...(compaction.ok ? [] : compaction.reasons)];
    assert.deepEqual(
      reasons.map((r) => coreText(r, en)),
      reasons.map((r) => r.message),
      'the default formatter gives the core’s English',
    );
    const chinese = reasons.map((r) => coreText(r, zh));
    assert.ok(chinese.includes('seq 0 是 turn/start，不是 tool/result'), chinese.join('\n'));
    assert.ok(chinese.includes('compactionId 必须是非空字符串'), chinese.join('\n'));
    assert.ok(
      chinese.includes('手动压缩只能在两轮之间进行，但最后一轮仍未结束（有写入者仍在运行，或发生了崩溃；请先修复）'),
      chinese.join('\n'),
    );
    for (const line of chinese) assert.match(line, HAN);
  });

  it('words health entries and a torn tail’s why, nested phrases included', () => {
    const { bytes } = troubledLog();
    const log = loadSession(bytes);
    const health = sessionHealth(log, { fileBytes: bytes });
    for (const e of health.entries) {
      assert.equal(coreText(e, en), e.message);
      assert.match(coreText(e, zh), HAN, e.message);
    }
    const tail = reviewTornTail(log, { fileBytes: bytes })!;
    assert.equal(tailWhy(tail, en), tail.why);
    const line = tail.line;
    // The line is not JSON: its diagnostic gives no reason, so none is put in brackets (once it was the
    // diagnostic's own sentence again: "line N cannot be read (line N cannot be read)").
    assert.equal(tail.why, `line ${line} cannot be read; dsh keeps only the events before it and drops every later line`);
    assert.equal(tailWhy(tail, zh), `第 ${line} 行无法读取；dsh 只保留该行之前的事件，并丢弃其后的每一行`);
    const entry = health.entries.find((e) => e.kind === 'damaged-line')!;
    assert.equal(coreText(entry, zh), `${tail.droppedBytes} 字节不属于会话：${tailWhy(tail, zh)}`);
  });

  it('gives a damaged packed row’s reason in a torn tail’s why', () => {
    const b = new LogBuilder();
    b.chatTurn('one');
    b.rawLine(JSON.stringify({ type: 'text-chunks', seq0: b.nextSeq, time0: T, data: {} }));
    const log = loadSession(b.bytes());
    const tail = reviewTornTail(log, { fileBytes: b.bytes() })!;
    assert.match(
      tail.why,
      new RegExp(`^line ${tail.line} cannot be read \\(malformed text-chunks storage row: data must be exactly .+\\); dsh keeps only`),
    );
    assert.match(
      tailWhy(tail, zh),
      new RegExp(`^第 ${tail.line} 行无法读取（malformed text-chunks storage row: data must be exactly .+）；dsh 只保留`),
    );
  });

  it('has a Chinese translation for every template these logs produce', () => {
    const { bytes } = troubledLog();
    const log = loadSession(bytes);
    const said: { words?: Words }[] = [
      ...log.diagnostics,
      ...checkInvariants(log),
      ...loadSession(seqGapLog()).diagnostics,
      ...sessionHealth(log, { fileBytes: bytes }).entries,
    ];
    const used = said.flatMap((d) => [...templates(d.words), ...((d as Diagnostic).related ?? []).flatMap((r) => templates(r.words))]);
    assert.ok(used.length > 5);
    for (const template of used) assert.ok(template in zhBundle, template);
  });

  it('has a Chinese translation for every say(…) template of src/core', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
      });
    // The literal first argument, as scripts/l10n-bundle.mjs reads it (single or double quotes).
    const found = files(join(repoRoot(), 'src', 'core')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bsay\(\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)")/g)].map((m) =>
        (m[1] ?? m[2]).replace(/\\(['"\\])/g, '$1'),
      ),
    );
    assert.ok(found.length > 150, `${found.length} templates`);
    const missing = found.filter((template) => !(template in zhBundle));
    assert.deepEqual(missing, []);
  });
});
