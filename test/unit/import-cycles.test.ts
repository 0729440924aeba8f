// The import-cycle check of `npm run lint` (scripts/check-cycles.mjs): a cycle of modules fails it and is
// named, a type-only cycle included (it ties two modules together as much as any); a tree without one
// passes; and src/ and webview/ as they are have none.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/paths';

function check(...folders: string[]): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [join(repoRoot(), 'scripts', 'check-cycles.mjs'), ...folders], {
    cwd: repoRoot(),
    encoding: 'utf8',
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('lint: import cycles', function () {
  this.timeout(60_000);
  let dir = '';

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    mkdirSync(join(dir, 'panels'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on a cycle through a type-only import, naming the modules and one loop', () => {
    writeFileSync(
      join(dir, 'app.ts'),
      "import { AsOfPanel } from './panels/as-of';\nexport class App { panel = new AsOfPanel(this); selected = 0; }\n",
    );
    writeFileSync(
      join(dir, 'panels', 'as-of.ts'),
      "import type { App } from '../app';\nexport class AsOfPanel { constructor(readonly app: App) {} }\n",
    );
    writeFileSync(join(dir, 'panels', 'index.ts'), "export * from './as-of';\n");
    writeFileSync(join(dir, 'leaf.ts'), "import { AsOfPanel } from './panels';\nexport const p = AsOfPanel;\n");
    const { status, out } = check(dir);
    assert.equal(status, 1, out);
    assert.match(out, /import cycle among 2 modules: .*app\.ts, .*panels\/as-of\.ts/);
    assert.match(out, /for example .*app\.ts → .*as-of\.ts → .*app\.ts/);
    assert.match(out, /1 import cycle in /);
  });

  it('passes a tree whose modules depend one way (a folder index and re-exports included)', () => {
    writeFileSync(join(dir, 'host.ts'), 'export interface Host { say(text: string): void }\n');
    writeFileSync(
      join(dir, 'panels', 'as-of.ts'),
      "import type { Host } from '../host';\nexport class AsOfPanel { constructor(readonly host: Host) {} }\n",
    );
    writeFileSync(join(dir, 'panels', 'index.ts'), "export { AsOfPanel } from './as-of';\n");
    writeFileSync(
      join(dir, 'app.ts'),
      "import { AsOfPanel } from './panels';\nimport type { Host } from './host';\nexport const make = (h: Host) => new AsOfPanel(h);\n",
    );
    const { status, out } = check(dir);
    assert.equal(status, 0, out);
    assert.match(out, /no import cycles in 4 modules/);
  });

  it('src/ and webview/ have none', () => {
    const { status, out } = check();
    assert.equal(status, 0, out);
  });
});
