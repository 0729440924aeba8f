// Builds the bundles with esbuild. Types are checked separately by `npm run typecheck`.
//   node scripts/build.mjs               host + webview + CLI bundles into dist/
//   node scripts/build.mjs --tests       also every test/unit/**/*.test.ts into out/test/
//   node scripts/build.mjs --test-hooks  a webview with the marks the end-to-end tests read (webview/test-hooks.ts)
//   node scripts/build.mjs --watch       rebuild on change
//   node scripts/build.mjs --production  minified, for the .vsix (never with test hooks)
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
if (production && args.has('--test-hooks')) throw new Error('--test-hooks is for test builds; the production build never has them');
const testHooks = args.has('--test-hooks');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };

const targets = [
  // Extension host: Node, CommonJS, `vscode` provided by the host at run time.
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  // Command-line tool on the system Node 20.
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20' },
  // Extension host in VS Code for the Web (a web worker): its own entry point, which installs no Node
  // platform, so nothing of Node is bundled; node:path (posix helpers on URI paths) has a browser stand-in.
  {
    ...common,
    entryPoints: ['src/extension-web.ts'],
    outfile: 'dist/web/extension.js',
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    alias: { 'node:path': './src/host/web/path.ts' },
    define: { 'process.env.NODE_ENV': '"production"' },
  },
  // Webview: a browser bundle; it never sees node or vscode modules. Its test hooks are compiled in only
  // for the end-to-end tests (--test-hooks); otherwise the flag is false and the minifier drops them.
  {
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    define: { SESSION_SURFACE_TEST_HOOKS: String(testHooks) },
  },
].filter((t) => existsSync(t.entryPoints[0]));

function listTests(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...listTests(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

if (args.has('--tests')) {
  const entryPoints = listTests('test/unit');
  if (entryPoints.length) {
    targets.push({
      ...common,
      sourcemap: true,
      entryPoints,
      outdir: 'out/test',
      outbase: 'test',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['mocha', 'fast-check'],
    });
  }
}

// The webview's icon font ships beside its bundle (loaded through asWebviewUri like every asset).
function copyCodicons() {
  const from = 'node_modules/@vscode/codicons/dist';
  mkdirSync('dist/codicons', { recursive: true });
  for (const name of ['codicon.css', 'codicon.ttf']) copyFileSync(join(from, name), join('dist/codicons', name));
}
copyCodicons();

if (args.has('--watch')) {
  // One "[watch] build started" / "[watch] build finished" pair per round of rebuilds across all bundles:
  // the background problem matcher of .vscode/tasks.json waits for the finish line before F5 launches.
  let pending = 0;
  let errors = 0;
  const announce = {
    name: 'announce-rounds',
    setup(build) {
      build.onStart(() => {
        if (pending++ === 0) {
          errors = 0;
          console.log('[watch] build started');
        }
      });
      build.onEnd((result) => {
        errors += result.errors.length;
        if (--pending === 0) console.log(`[watch] build finished with ${errors} error${errors === 1 ? '' : 's'}`);
      });
    },
  };
  const contexts = await Promise.all(targets.map((t) => esbuild.context({ ...t, plugins: [...(t.plugins ?? []), announce] })));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log(`watching ${targets.length} bundles`);
} else {
  const started = Date.now();
  await Promise.all(targets.map((t) => esbuild.build(t)));
  console.log(`built ${targets.map((t) => t.outfile ?? relative('.', t.outdir)).join(', ')} in ${Date.now() - started} ms`);
}
