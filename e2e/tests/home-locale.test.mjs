// The Chinese UI of the extension's own contributions under `code-server --locale zh-cn`: the Sessions
// view's container (package.nls.zh-cn.json) and rows, host strings from l10n/bundle.l10n.zh-cn.json
// (the status bar verdict), command titles in the palette, the webview's lang attribute, the words
// the presentation layer builds in the host (verdict sentence, header labels, row summaries), and the
// Time view's lanes and durations.
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

test(
  'the Sessions view speaks Chinese: container title, the workspace folder’s group and each row’s state',
  { timeout: 300_000 },
  async () => {
    const item = page.locator('.activitybar .action-item a[aria-label^="dsh 会话"]').first();
    await item.waitFor({ timeout: 240_000 });
    await item.click();
    // No sessions folder here, but the workspace folder holds a session log: it is listed, in Chinese.
    const group = page.locator('.monaco-list-row', { hasText: '此文件夹：workspace' }).first();
    await group.waitFor({ timeout: 240_000 });
    const row = page.locator('.monaco-list-row[aria-level="2"]').first();
    await row.waitFor({ timeout: 60_000 });
    // The listing reads a log's two ends: its state, then its turns, in Chinese.
    assert.match(await row.locator('.label-description').textContent(), /^(已结束|已拒绝|运行中) · \d+ 个轮次/);
    await suite.shot(page, 'sessions-view-zh');
  },
);

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

test('the Time view names its lanes and the span it shows in Chinese', { timeout: 300_000 }, async () => {
  const frame = webviewFrame(page);
  await frame.locator('#toggle-time').click();
  const canvas = frame.locator('#time-canvas');
  await until(async () => (await canvas.getAttribute('data-lanes')) !== null, 30_000, 'the time canvas drawn');
  assert.equal(await canvas.getAttribute('data-lanes'), '轮次|步骤|模型|工具');
  assert.match(await canvas.getAttribute('data-range-text'), /^显示 [\d.,]+ ?(毫秒|秒|分|小时)/);
  await suite.shot(page, 'time-view-zh');
  await frame.locator('#toggle-time').click();
});
