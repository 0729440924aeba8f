// What the benchmarks share: the repository root, `--name value` options, the generated scale logs
// (made by bench/generate.mjs when missing) and a bundle of the TypeScript modules a benchmark runs
// (built with esbuild into bench/out/.build, then loaded).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const argv = process.argv.slice(2);

/** The value after `--name` on the command line, or `fallback`. */
export function option(name, fallback) {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
}

/** Makes sure a generated log exists: runs `bench/generate.mjs` with `args` when `file` is missing. */
export function ensureGenerated(file, args) {
  if (existsSync(file)) return;
  console.log(`${file} is missing: generating it`);
  execFileSync(process.execPath, [join(root, 'bench', 'generate.mjs'), ...args], { stdio: 'inherit' });
}

/**
 * Bundles `exportLines` (ES `export … from './src/…'` lines, relative to the root) and loads the bundle.
 * `alias` maps module names to files (relative to the root), e.g. `vscode` to a stand-in for host code.
 */
export async function bundleModules(name, exportLines, alias = {}) {
  const outfile = join(root, 'bench', 'out', '.build', `${name}.cjs`);
  mkdirSync(dirname(outfile), { recursive: true });
  const esbuild = await import('esbuild');
  await esbuild.build({
    stdin: { contents: exportLines.join('\n'), resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    alias: Object.fromEntries(Object.entries(alias).map(([module, file]) => [module, join(root, file)])),
  });
  return createRequire(import.meta.url)(outfile);
}
