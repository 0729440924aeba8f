// Every user-visible string has its Simplified Chinese translation: the host's vscode.l10n.t strings, the
// presentation layer's messages and the webview strings table (l10n/bundle.l10n*.json), and
// package.json's %keys% (package.nls*.json).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Formatter, liveText, typeLabel, type FollowWord, type LiveWord } from '../../src/present';
import { localize } from '../../src/protocol';
import { bundleFormatter } from '../support/l10n';
import { repoRoot } from '../support/paths';

const repo = repoRoot();

describe('l10n bundles', () => {
  it('are in step with the code, and zh-cn translates every string and package.json key', () => {
    const run = spawnSync(process.execPath, [join(repo, 'scripts', 'l10n-bundle.mjs'), '--check'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
  });

  it('keep every {n} placeholder of the English in the translation', () => {
    const zh = JSON.parse(readFileSync(join(repo, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
    for (const [en, translated] of Object.entries(zh)) {
      const holes = (s: string) => (s.match(/\{\d+\}/g) ?? []).sort().join();
      assert.equal(holes(translated), holes(en), en);
    }
  });

  it('fill placeholders and fall back to the English in the webview', () => {
    assert.equal(localize({ 'Session {0}': '会话 {0}' }, 'Session {0}', 'abc'), '会话 abc');
    assert.equal(localize(undefined, 'Session {0}', 7), 'Session 7');
    assert.equal(localize({}, 'Verdict'), 'Verdict');
  });

  it('carry the presentation layer’s messages: .t(…), both forms of .counted(…) and phrase(…) tables', () => {
    const en = JSON.parse(readFileSync(join(repo, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    for (const message of [
      'dsh refuses this log at the {0} step: {1} breaks {2}.',
      'Live — the last turn is still open; following appends',
      '{0} event',
      '{0} events',
      '{0} chunk streamed',
      '{0} chunks streamed',
      'User message',
      'Session id',
      'Events',
    ])
      assert.ok(message in en, message);
  });

  it('translate every event type the views label, and every live state', () => {
    const zh = bundleFormatter('zh-cn');
    const en = new Formatter();
    for (const type of [
      'user/message',
      'assistant/message',
      'assistant/chunk',
      'tool/call',
      'tool/result',
      'turn/start',
      'turn/end',
      'step/start',
      'step/end',
      'compaction/start',
      'compaction/summary',
      'compaction/end',
      'compaction/prune',
      'session/end-seed',
    ]) {
      assert.notEqual(typeLabel(type, zh), typeLabel(type, en), type);
    }
    const states: LiveWord[] = ['live', 'closed', 'noTurns', 'refused', 'unknown'];
    const follows: FollowWord[] = ['following', 'off', 'stopped'];
    for (const state of states)
      for (const follow of follows) assert.notEqual(liveText(state, follow, zh), liveText(state, follow, en), `${state} ${follow}`);
  });
});
