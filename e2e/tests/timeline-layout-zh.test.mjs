// The timeline's rows in the Chinese UI (`code-server --locale zh-cn`) at 1400 px with the inspector
// open: no label is cut to a stub ("被", "输"), and the column heads stand over their columns.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { RUN_DIR, SAMPLES, SHARED, sharedFile, startSuite, until } from '../harness.mjs';
import { languagePacksJson, writeLanguagePack } from '../language-pack.mjs';
import { closeAllEditors } from '../workbench.mjs';
import { openViaCommand, sessionView } from '../session-editor.mjs';
import { setOrder, waitForListAtRest, waitForTimeline, webviewContentFrame } from '../timeline-page.mjs';
import { openPageRetrying } from '../crash-tails.mjs';
import { cutLabelsThroughout, headOffsetsInFrame } from '../row-layout.mjs';

const REAL_LOGS = [
  'v0-compaction-replace-recovery.jsonl',
  'v0-crash-tail-repaired-tool-outcome-unknown.jsonl',
  'v0-subagent-fork-child-seeded.jsonl',
];

let suite;
let page;
before(
  async () => {
    const packs = join(RUN_DIR, 'timeline-layout-zh-packs');
    mkdirSync(packs, { recursive: true });
    const pack = writeLanguagePack(packs);
    const files = [join(SAMPLES, 'session-compaction.jsonl')];
    for (const name of REAL_LOGS)
      if (existsSync(join(SHARED, 'fixtures', 'dsh-real', name))) files.push(join(SHARED, 'fixtures', 'dsh-real', name));
    suite = await startSuite('timeline-layout-zh', {
      files,
      aged: true,
      args: ['--locale', 'zh-cn'],
      extensions: [pack],
      userDataFiles: {
        'languagepacks.json': languagePacksJson(join(RUN_DIR, 'timeline-layout-zh', 'server', 'extensions', basename(pack))),
      },
    });
    page = await openPageRetrying(suite);
  },
  { timeout: 300_000 },
);
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

for (const name of ['session-compaction.jsonl', ...REAL_LOGS]) {
  test(`${name} in Chinese: no label is cut to a stub, the heads stand over their columns`, { timeout: 300_000 }, async (t) => {
    if (REAL_LOGS.includes(name) && !sharedFile(t, 'fixtures', 'dsh-real', name)) return;
    await closeAllEditors(page);
    await openViaCommand(page, join(suite.workspace, name));
    await waitForTimeline(page, 180_000);
    await until(
      async () => (await sessionView(page).locator('html[lang="zh-cn"], html[lang="zh-CN"]').count()) > 0,
      60_000,
      'the webview speaks Chinese',
    );
    await setOrder(page, 'log');
    const toggle = sessionView(page).locator('#toggle-inspector');
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    await waitForListAtRest(page);
    const heads = await (await webviewContentFrame(page)).evaluate(headOffsetsInFrame);
    for (const [word, px] of Object.entries(heads)) assert.ok(Math.abs(px) <= 1, `the "${word}" head is ${px}px from its column`);
    const { problems, rows } = await cutLabelsThroughout(page);
    await suite.shot(page, `labels-zh-${name.slice(0, 30)}`);
    assert.ok(rows > 0);
    assert.deepEqual(problems, []);
  });
}
