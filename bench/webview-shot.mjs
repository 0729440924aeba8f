// Draws the timeline webview for one log at a given size in headless chromium and saves a PNG, so the
// view can be looked at without VS Code (narrow editors, long logs):
//   node bench/webview-shot.mjs --log path.jsonl --width 700 --height 800 --out shot.png [--select SEQ]
//     [--click SELECTOR]   (clicked after the selection: a panel's toggle, an order button, …)
import { join, resolve, dirname } from 'node:path';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildWebview, startWebview, timelineHost } from './webview-harness.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(REPO, 'bench', 'out');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
mkdirSync(OUT, { recursive: true });
const { openTimeline } = await timelineHost(REPO, OUT);
const host = openTimeline(resolve(arg('log', join(REPO, 'test', 'fixtures', 'sessions', 'session-compaction.jsonl'))));
let ready;
const readyPromise = new Promise((r) => (ready = r));
const webview = await startWebview({
  repo: REPO,
  bundle: await buildWebview(REPO, join(OUT, 'webview-shot.js'), { minify: false }),
  viewport: { width: Number(arg('width', '700')), height: Number(arg('height', '800')) },
  onMessage: async (m) => {
    if (m.type === 'ready') return ready();
    if (m.type !== 'request') return;
    const answer = await host.answer(m, () => {});
    if (answer) await webview.post(answer);
  },
});
await readyPromise;
await webview.post(host.summary());
// A log with no rows (empty, refused at its first line) never paints rows: drawn as it is after a while.
await webview.page
  .waitForFunction(() => document.body.dataset.firstRowsPainted === 'true', null, { timeout: 10_000 })
  .catch(() => console.log('no rows painted within 10 s; the picture shows the page as it is'));
const select = arg('select', '');
if (select) await webview.page.evaluate((seq) => document.querySelector('timeline-app').c.navigation.jumpTo(seq), Number(select));
const click = arg('click', '');
if (click) await webview.page.click(click);
await webview.page.waitForTimeout(500);
await webview.page.screenshot({ path: resolve(arg('out', join(OUT, 'shot.png'))) });
await webview.stop();
