// Every icon of the timeline meets WCAG's 3:1 for graphical objects against the row it is drawn on, in
// VS Code's light, dark and high-contrast themes (the Modern themes new users get and the older ones),
// in the rows' states: plain and alternate turns, selected (list focused or not), linked to the
// selection (provenance), in a Shift range, the closers a repair would append. The figures go to
// icon-contrast.json in the artifacts.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, SAMPLES, SHARED, startSuite, until } from '../harness.mjs';
import { closeAllEditors, focusWorkbench } from '../workbench.mjs';
import { openViaCommand, sessionView } from '../session-editor.mjs';
import { rowBySeq, selectSeq, setOrder, waitForTimeline, webviewContentFrame } from '../timeline-page.mjs';
import { cutAtFirstToolCall, openPageRetrying, text } from '../crash-tails.mjs';
import { measureIconContrast } from '../icon-contrast.mjs';

const THEMES = [
  ['Default Light Modern', /\bvs\b(?!-)/],
  ['Default Dark Modern', /\bvs-dark\b/],
  ['Default High Contrast', /\bhc-black\b/],
  ['Default High Contrast Light', /\bhc-light\b/],
  ['Default Light+', /\bvs\b(?!-)/],
  ['Default Dark+', /\bvs-dark\b/],
];
const REAL = 'acp-agent_snapshots_advanced-toolchain_session.hdrfix.jsonl';

let suite;
let page;
const figures = {};
before(
  async () => {
    suite = await startSuite('icon-contrast', {
      files: [join(SAMPLES, 'session-compaction.jsonl'), join(SAMPLES, 'session-with-errors.jsonl')],
    });
    const real = join(SHARED, 'conformance', 'real', REAL);
    if (existsSync(real)) {
      const cut = cutAtFirstToolCall(readFileSync(real, 'utf8').split('\n').filter(Boolean), true);
      writeFileSync(join(suite.workspace, 'crash-tail.jsonl'), text(cut.lines));
    }
    mkdirSync(join(suite.workspace, '.vscode'), { recursive: true });
    page = await openPageRetrying(suite);
  },
  { timeout: 300_000 },
);
after(async () => {
  const out = join(ARTIFACTS, 'icon-contrast');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'icon-contrast.json'), JSON.stringify(figures, null, 1));
  await suite?.stop();
});
afterEach(async (t) => {
  if (page && !t.passed) await suite.shot(page, 'FAILED').catch(() => {});
});

async function setTheme(name, cls) {
  writeFileSync(join(suite.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': name }));
  await until(async () => cls.test((await page.locator('.monaco-workbench').getAttribute('class')) ?? ''), 30_000, `the ${name} theme`);
  await page.waitForTimeout(1500);
}

/** Measures the icons now drawn, with the list focused and not; returns those under 3:1. */
async function measure(theme, state) {
  const frame = await webviewContentFrame(page);
  const failing = [];
  for (const focus of ['list focused', 'list not focused']) {
    if (focus === 'list focused') await sessionView(page).locator('#timeline-list').focus();
    else await focusWorkbench(page);
    await page.waitForTimeout(300);
    const icons = await frame.evaluate(measureIconContrast);
    assert.ok(icons.length > 0, 'icons were measured');
    const key = `${theme} / ${state} / ${focus}`;
    const lowest = icons.reduce((a, b) => (b.ratio < a.ratio ? b : a));
    figures[key] = { icons: icons.length, lowest: lowest.ratio, at: `${lowest.type} ${lowest.icon} [${lowest.state}]` };
    for (const i of icons.filter((x) => x.ratio < 3))
      failing.push(`${key}: seq ${i.seq} ${i.type} ${i.icon} [${i.state}] ${i.ink} on ${i.background} = ${i.ratio}:1`);
  }
  return failing;
}

test(
  'every icon against its row, in light, dark and high-contrast themes, in every row state: at least 3:1',
  { timeout: 600_000 },
  async () => {
    const failing = [];
    await closeAllEditors(page);
    await openViaCommand(page, join(suite.workspace, 'session-compaction.jsonl'));
    await waitForTimeline(page);
    await setOrder(page, 'log');
    for (const [theme, cls] of THEMES) {
      await setTheme(theme, cls);
      // The assistant's message streamed from chunks: selecting it links its chunk run.
      await selectSeq(page, 50);
      failing.push(...(await measure(theme, 'selected, linked')));
      await rowBySeq(page, 40).click({ modifiers: ['Shift'] });
      failing.push(...(await measure(theme, 'range')));
      await suite.shot(page, `icons-${theme.replace(/\W+/g, '-')}`);
    }
    if (existsSync(join(suite.workspace, 'crash-tail.jsonl'))) {
      await closeAllEditors(page);
      await openViaCommand(page, join(suite.workspace, 'crash-tail.jsonl'));
      await waitForTimeline(page);
      await setOrder(page, 'log');
      await sessionView(page).locator('#ghost-rows .ghost-row').first().waitFor({ timeout: 30_000 });
      for (const [theme, cls] of THEMES) {
        await setTheme(theme, cls);
        failing.push(...(await measure(theme, 'crash tail, ghost rows')));
      }
    }
    await closeAllEditors(page);
    await openViaCommand(page, join(suite.workspace, 'session-with-errors.jsonl'));
    await waitForTimeline(page);
    await setOrder(page, 'log');
    for (const [theme, cls] of THEMES) {
      await setTheme(theme, cls);
      failing.push(...(await measure(theme, 'problems')));
    }
    writeFileSync(join(suite.workspace, '.vscode', 'settings.json'), '{}');
    console.log(`# icon contrast: ${JSON.stringify(figures, null, 1)}`);
    assert.deepEqual(failing, []);
  },
);
