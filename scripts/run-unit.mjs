// Runs the bundled unit, conformance and property tests (out/test/**/*.test.js) with mocha and
// prints a closing `unit: N passed, M failed` line. Exit code 1 on any failure.
import Mocha from 'mocha';
import { mkdtempSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The CLI's code cache (bin/session-surface.js) of the runs under test goes to a folder of this run, not the user's.
const codeCache = mkdtempSync(join(tmpdir(), 'session-surface-code-cache-'));
process.env.SESSION_SURFACE_CACHE_DIR ??= codeCache;
process.on('exit', () => rmSync(codeCache, { recursive: true, force: true }));

function list(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? list(path) : name.endsWith('.test.js') ? [path] : [];
  });
}

const files = list('out/test/unit').sort();
const grep = process.argv[2];
const mocha = new Mocha({ reporter: process.env.MOCHA_REPORTER ?? 'dot', timeout: 60_000, ...(grep ? { grep } : {}) });
for (const file of files) mocha.addFile(join(process.cwd(), file));
const runner = mocha.run((failures) => {
  const { passes = 0, failures: failed = 0, pending = 0 } = runner.stats ?? {};
  console.log(`unit: ${passes} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
  process.exitCode = failures > 0 || passes === 0 ? 1 : 0;
});
