// Runs the real webview bundle (dist/webview.js, media/, dist/codicons/) in headless chromium outside
// VS Code, under the same Content-Security-Policy shape as the session editor, with `acquireVsCodeApi`
// wired to a Node function that plays the host: every message the webview posts goes to `onMessage`,
// and `post(message)` delivers a message to the webview as VS Code's postMessage would.
// Messages travel over this server (POST one way, an event stream the other), carried by a worker that
// hands them to the page with postMessage: as in VS Code, the page only ever sees message events and
// pays for neither the network nor JSON, and nothing goes through the browser's DevTools protocol,
// which would hold up the page's frames. The worker needs `worker-src` and `connect-src` to this
// server, the one difference from the editor's policy.
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import * as esbuild from 'esbuild';
import { browserPath } from '../e2e/toolchain.mjs';

const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.html': 'text/html',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

function page(origin, nonce, theme) {
  const csp = [
    "default-src 'none'",
    `img-src ${origin} data:`,
    `style-src ${origin} 'nonce-${nonce}'`,
    `font-src ${origin}`,
    `script-src 'nonce-${nonce}'`,
    `connect-src ${origin}`,
    `worker-src ${origin}`,
  ].join('; ');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="${origin}/dist/codicons/codicon.css">
<link rel="stylesheet" href="${origin}/media/session.css">
<link rel="stylesheet" href="${origin}/media/session-generations.css">
<style nonce="${nonce}">:root{${theme}}</style>
<script nonce="${nonce}">
  window.__state = undefined;
  const carrier = new Worker('${origin}/carrier.js');
  carrier.onmessage = (e) => window.dispatchEvent(new MessageEvent('message', { data: e.data }));
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => carrier.postMessage(m),
    getState: () => window.__state,
    setState: (s) => { window.__state = s; },
  });
</script>
</head><body><main id="app" aria-busy="true"></main>
<script nonce="${nonce}" src="${origin}/dist/webview.js"></script></body></html>`;
}

/** The worker between the page and this server: host messages in from the event stream, page messages out by POST. */
const CARRIER = `
new EventSource('/from-host').onmessage = (e) => postMessage(JSON.parse(e.data));
onmessage = (e) => void fetch('/to-host', { method: 'POST', body: JSON.stringify(e.data) });
`;

/** A few --vscode-* variables of a dark theme, so the page is drawn as in the editor. */
const DARK = [
  '--vscode-font-family: system-ui, sans-serif',
  '--vscode-font-size: 13px',
  '--vscode-editor-font-family: monospace',
  '--vscode-foreground: #cccccc',
  '--vscode-editor-background: #1f1f1f',
  '--vscode-descriptionForeground: #9d9d9d',
  '--vscode-list-hoverBackground: #2a2d2e',
  '--vscode-list-activeSelectionBackground: #04395e',
  '--vscode-list-inactiveSelectionBackground: #37373d',
  '--vscode-focusBorder: #0078d4',
  '--vscode-charts-green: #89d185',
  '--vscode-charts-purple: #b180d7',
  '--vscode-charts-blue: #3794ff',
  '--vscode-charts-orange: #d18616',
  '--vscode-charts-yellow: #cca700',
  '--vscode-errorForeground: #f85149',
  '--vscode-panel-border: #2b2b2b',
  '--vscode-button-background: #0078d4',
  '--vscode-button-foreground: #fff',
  '--vscode-button-hoverBackground: #026ec1',
  '--vscode-toolbar-hoverBackground: rgba(90, 93, 94, 0.31)',
  '--vscode-input-background: #313131',
  '--vscode-input-foreground: #ccc',
].join(';');

export async function startWebview({ repo, onMessage, viewport = { width: 1400, height: 900 }, extraArgs = [], bundle }) {
  const nonce = randomBytes(12).toString('base64');
  let toPage;
  let pageListening;
  const listening = new Promise((r) => {
    pageListening = r;
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/carrier.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(CARRIER);
      return;
    }
    if (url.pathname === '/from-host') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.flushHeaders();
      toPage = res;
      pageListening();
      return;
    }
    if (url.pathname === '/to-host' && req.method === 'POST') {
      const parts = [];
      req.on('data', (c) => parts.push(c));
      req.on('end', () => {
        res.writeHead(204);
        res.end();
        onMessage(JSON.parse(Buffer.concat(parts).toString('utf8')));
      });
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page(origin, nonce, DARK));
      return;
    }
    // `bundle` replaces dist/webview.js (a test build of it: see buildWebview).
    const file = bundle && url.pathname === '/dist/webview.js' ? bundle : normalize(join(repo, url.pathname));
    if ((file !== bundle && !file.startsWith(repo)) || !existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: browserPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info', ...extraArgs],
  });
  const context = await browser.newContext({ viewport });
  const p = await context.newPage();
  const violations = [];
  p.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  p.on('pageerror', (e) => console.error(`# webview error: ${e.message}`));
  const post = async (message) => {
    await listening;
    toPage.write(`data: ${JSON.stringify(message)}\n\n`);
  };
  await p.goto(`${origin}/`);
  return {
    page: p,
    post,
    violations,
    async stop() {
      await browser.close();
      server.close();
    },
  };
}

/**
 * Bundles the webview (webview/main.ts) into `outfile` as a test build: with the test hooks the
 * benchmark and the screenshots wait for (first rows painted). `minify` as the packaged build is.
 */
export async function buildWebview(repo, outfile, { minify = true } = {}) {
  await esbuild.build({
    entryPoints: [join(repo, 'webview', 'main.ts')],
    outfile,
    bundle: true,
    minify,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
    define: { SESSION_SURFACE_TEST_HOOKS: 'true' },
  });
  return outfile;
}

/**
 * The host side without VS Code: bundles bench/webview-timeline-host.ts (the extension's own request
 * handler over the core) for Node into `outDir` and imports it; `openTimeline(path)` loads a log.
 */
export async function timelineHost(repo, outDir) {
  const hostBundle = join(outDir, 'webview-timeline-host.mjs');
  await esbuild.build({
    entryPoints: [join(repo, 'bench', 'webview-timeline-host.ts')],
    outfile: hostBundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return import(hostBundle);
}
