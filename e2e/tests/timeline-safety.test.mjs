// Session text is untrusted: the hostile-content sample (markup, scripts, javascript: links, bidi
// overrides, a 1 MB string in messages, tool arguments and results) must render inert and bounded.
// Nothing may run (no dialog, no injected global), no element may come from the log's text, and the
// webview's Content-Security-Policy must report no violation while every event is drawn and inspected.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite, until } from '../harness.mjs';
import { closeAllEditors, runCommand } from '../workbench.mjs';
import { openViaCommand, sessionView } from '../session-editor.mjs';
import { HOSTILE, HUGE_LENGTH, writeTimelineSamples } from '../timeline-samples.mjs';
import { inspector, setOrder, waitForTimeline, webviewContentFrame } from '../timeline-page.mjs';

const generated = mkdtempSync(join(tmpdir(), 'timeline-hostile-'));
const [hostile] = writeTimelineSamples(generated, ['session-hostile.jsonl']);

let suite;
let page;
const dialogs = [];
const cspConsole = [];
before(async () => {
  suite = await startSuite('timeline-safety', { files: [hostile] });
  ({ page } = await suite.openPage());
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) cspConsole.push(m.text());
  });
});
after(async () => {
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

test(
  'the hostile-content sample executes nothing, renders inert and bounded, and the CSP reports nothing',
  { timeout: 240_000 },
  async () => {
    await closeAllEditors(page);
    await openViaCommand(page, join(suite.workspace, 'session-hostile.jsonl'));
    // The first webview of a fresh code-server boots slowly on a busy machine.
    await waitForTimeline(page, 180_000);
    const frame = await webviewContentFrame(page);
    await frame.evaluate(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    // Draw everything again under the listener: reload from disk, then every order and every event.
    await runCommand(page, 'Session Surface: Reload Session from Disk');
    await waitForTimeline(page);
    for (const order of ['surface', 'transcript', 'log']) await setOrder(page, order);
    const view = sessionView(page);
    const seqs = await view
      .locator('#timeline-list .row:not(.placeholder)')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));
    assert.ok(seqs.length >= 11, `every event has a row (${seqs.length})`);
    for (const seq of seqs) {
      await view.locator(`#timeline-list .row[data-seq="${seq}"]`).click();
      await inspector(page)
        .locator('#inspector-title', { hasText: new RegExp(`^seq ${seq} `) })
        .waitFor({ timeout: 15_000 });
    }
    // The tool result with the 1 MB string: shown cut, with a note, inside a bounded box.
    await view.locator('#timeline-list .row[data-type="tool/result"]').first().click();
    await inspector(page)
      .locator('#inspector-title', { hasText: /tool\/result/ })
      .waitFor();
    await inspector(page).locator('.clamp-note').first().waitFor({ timeout: 15_000 });
    const facts = await frame.evaluate(() => ({
      pwned: 'pwned' in window || '__pwned' in window,
      // VS Code's webview host adds its own default stylesheet (#_defaultStyles) without a nonce.
      injected: [
        ...document.querySelectorAll('img[src="x"], iframe, b, style:not([nonce]):not(#_defaultStyles), a[href^="javascript:"]'),
      ].map((e) => e.outerHTML.slice(0, 200)),
      // Beside the bundle, the one inline script VS Code itself puts in every webview (its API bridge).
      scripts: [...document.scripts]
        .filter((s) => (s.src ? !/webview\.js/.test(s.src) : !/acquireVsCodeApi/.test(s.textContent ?? '')))
        .map((s) => s.src || (s.textContent ?? '').slice(0, 120)),
      longestText: Math.max(
        ...[...document.querySelectorAll('#app *')].map((e) => (e.childElementCount === 0 ? (e.textContent ?? '').length : 0)),
      ),
      rowNames: [...document.querySelectorAll('#timeline-list .row')].map((r) => r.getAttribute('aria-label') ?? ''),
      bodyText: document.body.innerText,
      violations: window.__violations,
    }));
    await suite.shot(page, 'hostile-inspected').catch(() => undefined);
    assert.deepEqual(dialogs, [], 'no dialog opened');
    assert.equal(facts.pwned, false, 'no script from the log ran');
    assert.deepEqual(facts.injected, [], "no element was made from the log's text");
    assert.deepEqual(facts.scripts, [], 'no script element beyond the bundle');
    assert.deepEqual(facts.violations, [], 'no securitypolicyviolation event');
    assert.deepEqual(cspConsole, [], 'no CSP message in the console');
    assert.ok(facts.longestText < HUGE_LENGTH / 4, `the 1 MB string is shown cut (longest text node ${facts.longestText})`);
    assert.ok(
      facts.rowNames.every((n) => n.length < 600),
      'accessible names are bounded',
    );
    assert.ok(facts.bodyText.includes('<script>alert(2)</script>'), 'markup is shown as text');
    assert.ok(!facts.bodyText.includes(HOSTILE.bidi), 'a bidi override is never shown raw');
    assert.ok(/\\u202E|U\+202E/i.test(facts.bodyText), 'the override is shown as its code point');
    await until(async () => (await page.locator('.monaco-dialog-box').count()) === 0, 1000, 'no workbench dialog');
  },
);
