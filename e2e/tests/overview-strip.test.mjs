// The overview strip of a realistic 300k-event log (a compaction every thousand turns, a prune every
// seventh: hundreds of prunes): the prunes, everywhere in the log, do not paint the strip one colour and
// hide everything else; each kind keeps a colour (and a lane) of its own; and a legend names the
// strip's colours and the rows' dots.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSuite } from '../harness.mjs';
import { closeAllEditors } from '../workbench.mjs';
import { openViaCommand, sessionView, waitForHeader } from '../session-editor.mjs';
import { waitForTimeline, webviewContentFrame } from '../timeline-page.mjs';
import { openPageRetrying } from '../crash-tails.mjs';
import { scaleLogText } from '../../test/support/log-generator.mjs';

const LOG = 'scale-300k.jsonl';

let suite;
let page;
before(
  async () => {
    suite = await startSuite('overview-strip', {});
    writeFileSync(join(suite.workspace, LOG), scaleLogText({ size: '300k' }).text);
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

/** Runs in the frame: the strip's painted pixels by colour (rgb), and how many were painted at all. */
function stripColours() {
  const canvas = document.getElementById('overview-strip');
  const { width, height } = canvas;
  const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const colours = {};
  let painted = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] === 0) continue;
    painted++;
    // Alpha (density) aside, a colour is its hue: group by the rgb rounded to a few steps.
    const key = [0, 1, 2].map((k) => Math.round(data[i + k] / 24)).join(',');
    colours[key] = (colours[key] ?? 0) + 1;
  }
  return { painted, colours, pixels: width * height };
}

test(
  'a 300k-event log with hundreds of prunes: no one colour covers the strip, and the kinds stay apart',
  { timeout: 400_000 },
  async () => {
    await closeAllEditors(page);
    await openViaCommand(page, join(suite.workspace, LOG));
    await waitForHeader(page, 240_000);
    await waitForTimeline(page, 240_000);
    const frame = await webviewContentFrame(page);
    const strip = sessionView(page).locator('#overview-strip');
    await strip.waitFor({ timeout: 60_000 });
    // The strip is drawn once the overview arrives.
    let seen;
    for (let i = 0; i < 120; i++) {
      seen = await frame.evaluate(stripColours);
      if (seen.painted > 0) break;
      await page.waitForTimeout(500);
    }
    await suite.shot(page, 'overview-300k');
    const shares = Object.values(seen.colours)
      .map((n) => n / seen.pixels)
      .sort((a, b) => b - a);
    assert.ok(shares[0] < 0.5, `one colour covers ${Math.round(shares[0] * 100)}% of the strip`);
    const kinds = Object.values(seen.colours).filter((n) => n / seen.pixels > 0.005).length;
    assert.ok(kinds >= 3, `${kinds} colours with a share of the strip: ${JSON.stringify(seen.colours)}`);
  },
);

test("the legend names the strip's colours and the rows' dots, in the colours they are drawn with", { timeout: 180_000 }, async () => {
  const view = sessionView(page);
  const toggle = view.getByRole('button', { name: 'Legend' });
  await toggle.click();
  const legend = view.getByRole('dialog', { name: 'Legend' });
  await legend.waitFor({ timeout: 15_000 });
  const words = await legend.innerText();
  for (const phrase of [
    /On the surface/,
    /Shadowed/,
    /Compactions/,
    /Prunes/,
    /Crash repairs/,
    /Errors/,
    /Warnings/,
    /The selected event/,
    /dot/,
  ]) {
    assert.match(words, phrase);
  }
  // Each lane's swatch has the colour the strip paints that lane with.
  const frame = await webviewContentFrame(page);
  const { swatches, inks } = await frame.evaluate(() => ({
    swatches: Object.fromEntries(
      [...document.querySelectorAll('#overview-legend [data-lane] .legend-swatch')].map((s) => [
        s.parentElement.dataset.lane,
        getComputedStyle(s).backgroundColor,
      ]),
    ),
    inks: Object.fromEntries(
      [...document.querySelectorAll('.overview-strip .strip-ink')].map((s) => [s.classList[1], getComputedStyle(s).color]),
    ),
  }));
  assert.ok(Object.keys(swatches).length >= 6, JSON.stringify(swatches));
  for (const [lane, colour] of Object.entries(swatches)) assert.equal(colour, inks[lane], `the ${lane} swatch`);
  const distinct = new Set(Object.values(swatches));
  assert.equal(distinct.size, Object.keys(swatches).length, `every kind has its own colour: ${JSON.stringify(swatches)}`);
  await suite.shot(page, 'overview-legend');
  await page.keyboard.press('Escape');
  await legend.waitFor({ state: 'detached', timeout: 10_000 });
});
