// The browser entry point (package.json `browser`, dist/web/extension.js) runs in the workbench's web
// worker extension host and opens a session log through vscode.workspace.fs. The extension is loaded
// from a copy whose manifest has no `main`, so the workbench cannot pick the Node extension host.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_DIR, SAMPLES, startSuite } from '../harness.mjs';
import { REPO } from '../toolchain.mjs';
import { OPEN_SESSION, readSessionView, waitForHeader } from '../session-editor.mjs';
import { answerFileDialog, runCommand } from '../workbench.mjs';

const WEB_ONLY = join(RUN_DIR, 'home-web-extension');
let suite;
let page;
let hostLog = [];
before(async () => {
  rmSync(WEB_ONLY, { recursive: true, force: true });
  mkdirSync(join(WEB_ONLY, 'dist', 'web'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  delete manifest.main;
  writeFileSync(join(WEB_ONLY, 'package.json'), JSON.stringify(manifest, null, 1));
  cpSync(join(REPO, 'dist', 'web', 'extension.js'), join(WEB_ONLY, 'dist', 'web', 'extension.js'));
  cpSync(join(REPO, 'dist', 'webview.js'), join(WEB_ONLY, 'dist', 'webview.js'));
  for (const item of ['media', 'l10n', 'package.nls.json', 'package.nls.zh-cn.json'])
    cpSync(join(REPO, item), join(WEB_ONLY, item), { recursive: true });
  suite = await startSuite('home-web', { files: [join(SAMPLES, 'session-small.jsonl.zstd'), join(SAMPLES, 'session-small.jsonl')] });
  const context = await suite.browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.on('console', (m) => hostLog.push(m.text()));
  const { workbenchUrl, openWorkbench } = await import('../workbench.mjs');
  await openWorkbench(page, workbenchUrl({ origin: suite.origin, folder: suite.workspace, extensionPath: WEB_ONLY }));
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) {
    await suite.shot(page, 'FAILED').catch(() => {});
    console.log(
      `# console: ${hostLog
        .filter((l) => /session|extension|worker/i.test(l))
        .slice(-20)
        .join('\n# ')}`,
    );
  }
});

test('the web extension host opens a zstd log (fzstd, files through vscode.workspace.fs)', { timeout: 300_000 }, async () => {
  await runCommand(page, OPEN_SESSION, 240_000);
  // The worker extension host answers slowly on a busy machine: wait for its dialog before typing.
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: 120_000 });
  await answerFileDialog(page, join(suite.workspace, 'session-small.jsonl.zstd'));
  await waitForHeader(page, 120_000);
  const zstd = await readSessionView(page);
  assert.equal(zstd.id, 'sample-small-0001');
  assert.equal(zstd.events, 36);
  assert.equal(zstd.verdictOk, true);
  await suite.shot(page, 'web-host-zstd');
});
