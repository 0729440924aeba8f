// Developer aid: runs every conformance case through the core and prints the mismatches.
//   node scripts/conformance-report.mjs [filter]
import * as esbuild from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const out = 'out/conformance-report.cjs';
await esbuild.build({
  entryPoints: ['test/support/conformance.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: out,
  logLevel: 'warning',
});
const { compareCase } = createRequire(import.meta.url)('../' + out);
const root = process.env.SHARED_DIR ?? '../shared';
const filter = process.argv[2] ?? '';
let pass = 0,
  fail = 0;
for (const dir of ['conformance/real', 'conformance/mutations', 'conformance/scale']) {
  const full = join(root, dir);
  if (!existsSync(full)) continue;
  for (const name of readdirSync(full)
    .filter((n) => n.endsWith('.jsonl') && n.includes(filter))
    .sort()) {
    const result = compareCase(join(full, name));
    if (result.mismatches.length === 0) pass++;
    else {
      fail++;
      console.log(`FAIL ${dir}/${name}\n  ${result.mismatches.join('\n  ')}`);
    }
  }
}
console.log(`conformance: ${pass} passed, ${fail} failed`);
