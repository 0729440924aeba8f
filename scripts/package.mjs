// npm run package: a production build, then a .vsix with vsce (3.9.2 runs on Node 20; vsce 4 needs 22).
// Dependencies are bundled by esbuild, so the package carries no node_modules (--no-dependencies).
// Usage: node scripts/package.mjs [--out file.vsix]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const { name, version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? process.argv[outIndex + 1] : join(repo, `${name}-${version}.vsix`);

execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs'), '--production'], { cwd: repo, stdio: 'inherit' });
const vsce = join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out],
  { cwd: repo, stdio: 'inherit' });
console.log(`package: ${out}`);
