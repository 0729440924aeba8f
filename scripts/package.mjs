// npm run package: a production build, then a .vsix with vsce (3.9.2 runs on Node 20; vsce 4 needs 22).
// Dependencies are bundled by esbuild, so the package carries no node_modules (--no-dependencies).
//
//   node scripts/package.mjs [--out file.vsix]   writes the .vsix
//   node scripts/package.mjs --list              prints what the .vsix holds (`vsce ls`), one path a line
//
// One package.json describes both the extension and the `session-surface` npm package, whose `files`
// list names only what the CLI runs. vsce refuses a `files` list beside a .vscodeignore, so vsce runs in
// a staging folder holding the built files and package.json without `files`; .vscodeignore stays the
// .vsix's allow-list (e2e/tests/vsix-contents.test.mjs checks it).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({ options: { out: { type: 'string' }, list: { type: 'boolean' } } });
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const out = resolve(values.out ?? join(repo, `${manifest.name}-${manifest.version}.vsix`));

execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs'), '--production'], {
  cwd: repo,
  stdio: values.list ? 'ignore' : 'inherit',
});

const stage = mkdtempSync(join(tmpdir(), 'session-surface-vsix-'));
try {
  const { files: _npmFiles, ...extensionManifest } = manifest;
  writeFileSync(join(stage, 'package.json'), JSON.stringify(extensionManifest, null, 2) + '\n');
  const nls = readdirSync(repo).filter((name) => /^package\.nls(\.[a-z-]+)?\.json$/.test(name));
  for (const entry of [
    '.vscodeignore',
    'dist',
    'media',
    'l10n',
    ...nls,
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    'LICENSE.md',
    'LICENSE.txt',
  ]) {
    if (existsSync(join(repo, entry))) cpSync(join(repo, entry), join(stage, entry), { recursive: true });
  }
  const vsce = join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
  const common = ['--no-dependencies'];
  if (values.list) {
    process.stdout.write(execFileSync(process.execPath, [vsce, 'ls', ...common], { cwd: stage, encoding: 'utf8' }));
  } else {
    execFileSync(process.execPath, [vsce, 'package', ...common, '--allow-missing-repository', '--skip-license', '--out', out], {
      cwd: stage,
      stdio: 'inherit',
    });
    console.log(`package: ${out}`);
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}
