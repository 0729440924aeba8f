// The runner the extension host loads from `extensionTestsPath`: runs every *.test.js next to it with
// mocha and writes the results as JSON (to SESSION_SURFACE_TEST_RESULTS, or into the workspace), so
// the end-to-end runner can count them. Rejecting makes the workbench report exit code 1.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export interface HostTestResults {
  passes: string[];
  failures: { title: string; error: string }[];
}

export const RESULTS_FILE_NAME = '.session-surface-host-tests.json';

export function run(): Promise<void> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const out = process.env.SESSION_SURFACE_TEST_RESULTS || path.join(workspace, RESULTS_FILE_NAME);
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000 });
  for (const f of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js'))) mocha.addFile(path.join(__dirname, f));
  const results: HostTestResults = { passes: [], failures: [] };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      fs.writeFileSync(out, JSON.stringify(results, null, 1));
      console.log(`[host-tests] ${results.passes.length} passed, ${failures} failed`);
      if (failures) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
    runner.on('pass', (t) => {
      results.passes.push(t.fullTitle());
      console.log(`[host-tests] ok   ${t.fullTitle()}`);
    });
    runner.on('fail', (t, err) => {
      results.failures.push({ title: t.fullTitle(), error: String((err as Error)?.stack ?? err) });
      console.log(`[host-tests] FAIL ${t.fullTitle()}: ${err}`);
    });
  });
}
