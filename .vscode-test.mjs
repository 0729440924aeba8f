// For machines that can download VS Code: `npx vscode-test` runs the in-host mocha suite
// (test/host, bundled to out/test-host by `node e2e/build-host-tests.mjs`) in VS Code desktop through
// @vscode/test-cli and @vscode/test-electron. On machines without that download, `npm run e2e`
// runs the same suite inside code-server instead. Build the extension as a test build first
// (`node scripts/build.mjs --test-hooks`): the suite waits for the webview's `rendered` report, which
// only test builds send.
import { defineConfig } from '@vscode/test-cli';

export default defineConfig({
  label: 'extension-host',
  files: 'out/test-host/**/*.test.js',
  version: '1.139.1',
  workspaceFolder: './test/fixtures/sessions',
  mocha: { ui: 'tdd', timeout: 30000 },
});
