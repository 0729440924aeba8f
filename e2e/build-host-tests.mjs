// Bundles the in-host mocha suite (test/host/*.ts) into out/test-host/, one CommonJS file per entry;
// `vscode` comes from the extension host and mocha from node_modules at run time.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './toolchain.mjs';

export const HOST_TESTS_OUT = join(REPO, 'out', 'test-host');
export const HOST_TESTS_ENTRY = join(HOST_TESTS_OUT, 'index.js');

export async function buildHostTests() {
  const dir = join(REPO, 'test', 'host');
  const entryPoints = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
  await esbuild.build({
    entryPoints,
    outdir: HOST_TESTS_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
}

if (process.argv[1]?.endsWith('build-host-tests.mjs')) await buildHostTests();
