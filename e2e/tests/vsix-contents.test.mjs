// What the .vsix holds, listed by vsce itself (`vsce ls` through `node scripts/package.mjs --list`):
// anything outside the bundles, media, package.json, README, CHANGELOG and licence fails the test (no
// sources, maps, tests, logs, the CLI or editor settings). Then `npm run package`'s script writes the .vsix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_DIR } from '../harness.mjs';
import { REPO } from '../toolchain.mjs';

const ALLOWED = [
  /^package\.json$/,
  /^dist\/(extension|webview|web\/extension)\.js$/,
  /^dist\/codicons\/codicon\.(css|ttf)$/,
  /^media\/[^/]+\.(css|png|svg)$/,
  /^media\/walkthrough\/[^/]+\.(md|png|svg|jsonl)$/,
  /^l10n\/bundle\.l10n(\.[a-z-]+)?\.json$/,
  /^package\.nls(\.[a-z-]+)?\.json$/,
  /^(readme|changelog)\.md$/i,
  /^licen[cs]e(\.md|\.txt)?$/i,
];

test('the .vsix holds only bundles, media, l10n bundles, package.json (+ nls), README, CHANGELOG and licence', { timeout: 180_000 }, () => {
  const listing = execFileSync(process.execPath, [join(REPO, 'scripts', 'package.mjs'), '--list'], { cwd: REPO, encoding: 'utf8' });
  const names = listing
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  console.log(`# vsix: ${names.join(', ')}`);
  const unexpected = names.filter((n) => !ALLOWED.some((re) => re.test(n)));
  assert.deepEqual(unexpected, [], 'files outside the allowed set');
  for (const needed of [
    'package.json',
    'dist/extension.js',
    'dist/webview.js',
    'dist/web/extension.js',
    'media/session.css',
    'media/session-generations.css',
    'l10n/bundle.l10n.json',
    'l10n/bundle.l10n.zh-cn.json',
    'package.nls.json',
    'package.nls.zh-cn.json',
  ]) {
    assert.ok(names.includes(needed), `${needed} is packaged`);
  }

  mkdirSync(RUN_DIR, { recursive: true });
  const vsix = join(RUN_DIR, 'session-surface-studio.vsix');
  execFileSync(process.execPath, [join(REPO, 'scripts', 'package.mjs'), '--out', vsix], { cwd: REPO, stdio: 'pipe' });
  assert.ok(statSync(vsix).size > 10_000, 'vsce package wrote the .vsix');
});
