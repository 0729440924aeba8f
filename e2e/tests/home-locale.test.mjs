// The Chinese UI of the extension's own contributions under `code-server --locale zh-cn`: the Sessions
// view's container and welcome text (package.nls.zh-cn.json), host strings from l10n/bundle.l10n.zh-cn.json
// (the status bar verdict), command titles in the palette, the webview's lang attribute, and the words
// the presentation layer builds in the host (verdict sentence, header labels, row summaries).
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { RUN_DIR, SAMPLES, startSuite, until } from '../harness.mjs';
import { languagePacksJson, writeLanguagePack } from '../language-pack.mjs';
import { focusWorkbench, webviewFrame } from '../workbench.mjs';
import { answerFileDialog } from '../workbench.mjs';
import { waitForHeader } from '../session-editor.mjs';

let suite;
let page;
before(async () => {
  const packs = join(RUN_DIR, 'home-locale-packs');
  mkdirSync(packs, { recursive: true });
  const pack = writeLanguagePack(packs);
  suite = await startSuite('home-locale', {
    files: [join(SAMPLES, 'session-with-errors.jsonl')],
    args: ['--locale', 'zh-cn'],
    extensions: [pack],
    userDataFiles: { 'languagepacks.json': languagePacksJson(join(RUN_DIR, 'home-locale', 'server', 'extensions', basename(pack))) },
  });
  ({ page } = await suite.openPage());
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

test('the Sessions view speaks Chinese: container title and the welcome text for a missing folder', { timeout: 300_000 }, async () => {
  const item = page.locator('.activitybar .action-item a[aria-label^="dsh 会话"]').first();
  await item.waitFor({ timeout: 240_000 });
  await item.click();
  const welcome = page.locator('.welcome-view-content', { hasText: '未找到 dsh 会话文件夹' });
  await welcome.waitFor({ timeout: 240_000 });
  assert.match(await welcome.textContent(), /选择会话文件夹/);
  await suite.shot(page, 'sessions-view-zh');
});

test('palette titles, the status bar and the webview follow the display language', { timeout: 300_000 }, async () => {
  await focusWorkbench(page);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill('>Session Surface: 打开会话');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: '打开会话…' }).first();
  await row.waitFor({ timeout: 60_000 });
  await suite.shot(page, 'palette-zh');
  await row.click();
  await answerFileDialog(page, join(suite.workspace, 'session-with-errors.jsonl'));
  await waitForHeader(page, 120_000);
  const status = page.locator('.statusbar-item', { hasText: 'dsh 拒绝此日志' }).first();
  await status.waitFor({ timeout: 60_000 });
  const lang = await until(async () => webviewFrame(page).locator('html').getAttribute('lang'), 30_000, 'the webview has a lang');
  assert.equal(lang, 'zh-cn');
  await suite.shot(page, 'status-bar-zh');
});

test('the timeline speaks Chinese: toolbar, list and the health header', { timeout: 300_000 }, async () => {
  const frame = webviewFrame(page);
  // The order buttons, the type filter, the inspector toggle and the search box of the toolbar.
  await until(
    async () => (await frame.locator('#order-surface').textContent())?.trim() === '模型视图' || undefined,
    30_000,
    'the order buttons in Chinese',
  );
  assert.equal((await frame.locator('#order-log').textContent()).trim(), '完整日志');
  assert.equal((await frame.locator('#order-transcript').textContent()).trim(), '对话记录');
  assert.match(await frame.locator('#order-surface').getAttribute('title'), /^模型视图 \(Alt\+1\)$/);
  assert.match(await frame.locator('#toggle-inspector').textContent(), /检查器/);
  assert.match(await frame.locator('#toggle-time').textContent(), /时间/);
  assert.match(await frame.locator('label.filter').textContent(), /类型/);
  assert.equal(await frame.locator('#type-filter option[value=""]').textContent(), '所有类型');
  assert.equal(await frame.locator('#search-input').getAttribute('placeholder'), '搜索整个日志 (/)');
  assert.equal(await frame.locator('#nav-back').getAttribute('aria-label'), '后退');
  // The health header: its region name, the verdict pill, the count labels and the list's name.
  assert.equal(await frame.locator('#health').getAttribute('aria-label'), '会话健康状况');
  assert.match(await frame.locator('#verdict').textContent(), /dsh 拒绝此日志/);
  const labels = await frame.locator('#count-fields dt').allTextContents();
  assert.ok(labels.includes('事件') && labels.includes('轮次'), `count labels in Chinese: ${labels.join(', ')}`);
  assert.match(await frame.locator('#timeline-list').getAttribute('aria-label'), /^事件，完整日志|^事件，模型视图|^事件，对话记录/);
  assert.match(await frame.locator('.list-head').textContent(), /序号.*轮次.*时间.*类型.*摘要/s);
  if ((await frame.locator('#toggle-inspector').getAttribute('aria-pressed')) !== 'true') await frame.locator('#toggle-inspector').click();
  await frame.locator('#inspector').waitFor({ state: 'attached', timeout: 30_000 });
  assert.equal(await frame.locator('#inspector').getAttribute('aria-label'), '事件检查器');
  await suite.shot(page, 'timeline-zh');
});

test('the host words the verdict, what a refused log still shows and the rows in Chinese', { timeout: 300_000 }, async () => {
  const frame = webviewFrame(page);
  // dsh's verdict as a sentence (the stage and the rule keep dsh's names), and what could still be read.
  assert.match(await frame.locator('#refusal-message').textContent(), /dsh 在 \S+ 阶段拒绝此日志：第 \d+ 行/);
  assert.match(await frame.locator('#still-readable').textContent(), /^仍可读取的内容：会话头，\d+ 个事件，/);
  await frame.locator('#health-details > summary').click();
  const headerLabels = await frame.locator('#header-fields dt').allTextContents();
  assert.ok(headerLabels.includes('会话 ID') && headerLabels.includes('创建时间'), `header labels in Chinese: ${headerLabels.join(', ')}`);
  // A row summary: the turn a turn/start opens.
  await frame.locator('#order-log').click();
  await frame.locator('#timeline-list[data-order="log"]').waitFor({ timeout: 30_000 });
  const turnStart = frame.locator('#timeline-list .row[data-type="turn/start"]').first();
  await turnStart.waitFor({ timeout: 30_000 });
  assert.match(await turnStart.locator('.summary').textContent(), /^第 \d+ 轮/);
  assert.equal((await turnStart.locator('.label').textContent()).trim(), '轮次开始');
  await turnStart.click();
  await frame.locator('#inspector-title', { hasText: /turn\/start/ }).waitFor({ timeout: 30_000 });
  await suite.shot(page, 'present-words-zh');
});
