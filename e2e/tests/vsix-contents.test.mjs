// Packages the extension with `npm run package` and lists the .vsix: anything outside the bundles,
// media, package.json, README, CHANGELOG and licence fails the test (no sources, maps, tests, logs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_DIR } from '../harness.mjs';
import { REPO } from '../toolchain.mjs';

/** File names in a zip, read from its central directory (no unzip tool needed). */
export function zipEntries(buffer) {
  const eocd = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'zip end-of-central-directory record');
  const count = buffer.readUInt16LE(eocd + 10);
  let at = buffer.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buffer.readUInt32LE(at), 0x02014b50, 'central directory entry');
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    names.push(buffer.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

const ALLOWED = [
  /^extension\.vsixmanifest$/, /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/dist\/(extension|webview|web\/extension)\.js$/,
  /^extension\/media\/[^/]+\.(css|png|svg)$/,
  /^extension\/media\/walkthrough\/[^/]+\.(md|png|svg|jsonl)$/,
  /^extension\/l10n\/bundle\.l10n(\.[a-z-]+)?\.json$/,
  /^extension\/package\.nls(\.[a-z-]+)?\.json$/,
  /^extension\/(readme|changelog)\.md$/i,
  /^extension\/licen[cs]e(\.md|\.txt)?$/i,
];

test('the .vsix holds only bundles, media, l10n bundles, package.json (+ nls), README, CHANGELOG and licence', { timeout: 180_000 }, () => {
  mkdirSync(RUN_DIR, { recursive: true });
  const vsix = join(RUN_DIR, 'session-surface-studio.vsix');
  execFileSync(process.execPath, [join(REPO, 'scripts', 'package.mjs'), '--out', vsix], { cwd: REPO, stdio: 'pipe' });
  const names = zipEntries(readFileSync(vsix));
  console.log(`# vsix: ${names.join(', ')}`);
  const unexpected = names.filter((n) => !ALLOWED.some((re) => re.test(n)));
  assert.deepEqual(unexpected, [], 'files outside the allowed set');
  for (const needed of ['extension/package.json', 'extension/dist/extension.js', 'extension/dist/webview.js', 'extension/dist/web/extension.js', 'extension/media/session.css',
    'extension/l10n/bundle.l10n.json', 'extension/l10n/bundle.l10n.zh-cn.json', 'extension/package.nls.json', 'extension/package.nls.zh-cn.json']) {
    assert.ok(names.includes(needed), `${needed} is packaged`);
  }
});
