// Playwright helpers for the VS Code workbench served by code-server: open it with the extension
// loaded from the working tree, run palette commands, open files, reach into the session webview.
import { chromium } from 'playwright-core';
import { browserPath } from './toolchain.mjs';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser() {
  const executablePath = browserPath();
  if (!executablePath) throw new Error('no Chrome or Chromium found: install one, or set CHROME_PATH to its executable');
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The workbench URL for `folder`. `extensionDevelopmentPath` and `extensionTestsPath` travel in the
 * URL payload as vscode-remote URIs whose authority is the server's host:port.
 */
export function workbenchUrl({ origin, folder, extensionPath, testsPath }) {
  const remote = (p) => `vscode-remote://${new URL(origin).host}${p}`;
  const payload = [];
  if (extensionPath) payload.push(['extensionDevelopmentPath', remote(extensionPath)]);
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  let url = `${origin}/?folder=${encodeURIComponent(folder)}`;
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

export async function openWorkbench(page, url) {
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 }); // a busy 2-core machine serves the workbench slowly
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view').first().waitFor({ timeout: 60_000 });
}

/**
 * Runs a palette command by its full title. The extension host scans contributions a few seconds
 * after the DOM is ready, and until then the palette offers fuzzy "similar" rows; so this retries
 * until the focused row is exactly the command, and never presses Enter on anything else.
 */
export async function runCommand(page, title, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  const input = page.locator('.quick-input-widget input');
  for (;;) {
    await focusWorkbench(page);
    await page.keyboard.press('F1');
    try {
      // On a busy 2-core machine a key press right after opening an editor is sometimes swallowed:
      // the palette then never shows, so try again instead of failing the test.
      await input.waitFor({ state: 'visible', timeout: 5_000 });
    } catch {
      if (Date.now() > deadline) throw new Error(`the command palette did not open within ${timeout} ms`);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
      continue;
    }
    try {
      await input.fill('>' + title, { timeout: 5_000 });
    } catch {
      // The workbench marks the palette inert while a modal dialog or another quick input is still
      // closing: dismiss it and open the palette again.
      if (Date.now() > deadline) throw new Error(`the command palette stayed inert for ${timeout} ms`);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
      continue;
    }
    // Fuzzy matching may rank a longer title first ("File: Compare Active File with Saved" for "File:
    // Save"): pick the row whose label is exactly the title, wherever it stands.
    const exact = page
      .locator('.quick-input-list .monaco-list-row')
      .filter({
        has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }),
      })
      .first();
    try {
      await exact.waitFor({ timeout: 3_000 });
      await exact.click();
      return;
    } catch {
      /* not registered yet */
    }
    if (Date.now() > deadline) throw new Error(`command "${title}" not in the palette after ${timeout} ms`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500);
  }
}

/**
 * Keys pressed while a webview iframe has focus go to the webview, not to the workbench: move focus
 * back to the workbench document first.
 */
export async function focusWorkbench(page) {
  await page.evaluate(() => {
    const active = document.activeElement;
    if (active && active.tagName === 'IFRAME') active.blur();
  });
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks a row of an open quick pick by its exact label. */
export async function pickQuickItem(page, label, timeout = 15_000) {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout });
  await row.click();
}

/**
 * Quick Open (Ctrl+P) a workspace file by name: it opens in its default editor (text for .jsonl).
 * The workbench indexes the folder's files in the background; on a busy machine the first search can
 * come back empty, so the search is typed again until the row appears.
 */
export async function quickOpen(page, fileName, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  const input = page.locator('.quick-input-widget input');
  // Click the row whose label is exactly the name: fuzzy matching also offers longer names
  // (session.jsonl.zstd for session.jsonl), and recently opened files come first.
  const exact = page
    .locator('.quick-input-list .monaco-list-row')
    .filter({
      has: page.locator('.label-name', { hasText: new RegExp(`^${fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    })
    .first();
  for (;;) {
    await focusWorkbench(page);
    await page.keyboard.press('Control+P');
    try {
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(fileName);
      await exact.waitFor({ timeout: 10_000 });
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
  await exact.click();
  await page.locator(`.tabs-container .tab`, { hasText: fileName }).first().waitFor({ timeout: 45_000 });
}

/**
 * Answers VS Code's simple file dialog (used by showOpenDialog in code-server) with an absolute path.
 * The dialog fills in its start folder asynchronously and may rewrite the value while it lists a
 * folder, so the path is typed again whenever it is not what the input holds, and Enter is pressed
 * until the dialog closes. With the path typed in full the dialog accepts it whether or not its
 * listing has caught up.
 */
export async function answerFileDialog(page, absolutePath, timeout = 60_000) {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await page
    .waitForFunction(() => document.querySelector('.quick-input-widget input')?.value.endsWith('/'), null, { timeout: 15_000 })
    .catch(() => {
      /* typed over below either way */
    });
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      if ((await input.inputValue({ timeout: 2_000 })) !== absolutePath) await input.fill(absolutePath, { timeout: 2_000 });
      await page.waitForTimeout(300);
      if ((await input.inputValue({ timeout: 2_000 })) !== absolutePath) throw new Error('the dialog rewrote the typed path');
      await input.press('Enter', { timeout: 2_000 });
      await input.waitFor({ state: 'hidden', timeout: 3_000 });
      return;
    } catch (err) {
      if (!(await input.isVisible())) return;
      if (Date.now() > deadline) {
        const value = await input.inputValue().catch(() => '?');
        const message = await page
          .locator('.quick-input-message')
          .textContent()
          .catch(() => '');
        throw new Error(
          `the file dialog did not accept ${absolutePath} within ${timeout} ms (value "${value}", message "${message}"): ${err.message}`,
        );
      }
    }
  }
}

export async function closeAllEditors(page) {
  if ((await page.locator('.tabs-container .tab').count()) === 0) return;
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 15_000 });
}

/** The content frame of the n-th webview (webviews are an iframe holding an #active-frame iframe). */
export const webviewFrame = (page, nth = 0) => page.frameLocator('iframe.webview').nth(nth).frameLocator('#active-frame');
