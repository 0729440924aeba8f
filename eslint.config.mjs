// `npm run lint`: the layer boundaries, checked by a tool instead of by convention.
//
//   src/core/     the session core: pure — no vscode, no Node modules, no other layer of this project
//   src/present/  words people read, built from core facts: pure like the core, and no DOM
//   src/protocol/ the message types shared by host and webview: no vscode, no Node, core types only
//   src/cli/      the command-line tool: never the extension host or vscode
//   src/files/    the write layer (file adapter, dsh's lock, checked appends, saves, torn-tail cuts, crash
//                 repair), shared by CLI and host: neither
//   webview/      a browser bundle: never vscode, Node or the host; core data types only, never core code
//   webview/timeline/controllers/, webview/host-client.ts  the webview's state and behaviour, run under
//                 Node by the unit tests: besides the webview's rules, no DOM and no view (lit for its types)
//
// Import cycles are not a zone's matter: scripts/check-cycles.mjs (run by `npm run lint` after eslint)
// fails on any cycle in src/ and webview/.
//
// Each rule matches import specifiers by path pattern (relative paths are matched by the folder names
// they reach), so `src/core/tsconfig.json` (no DOM, no Node types) and this file together keep the core
// runnable anywhere. test/unit/lint-boundaries.test.ts proves each zone refuses a forbidden import.
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

/** A `(../)*layer` path reaching one of this project's folders, written as a regex. */
const reaching = (...folders) => `^(\\.\\.?/)+(src/)?(${folders.join('|')})(/|$)`;

const forbid = {
  vscode: { name: 'vscode', message: 'only the extension host talks to the vscode API' },
  node: [
    { regex: '^node:', message: 'Node modules are handed in by the CLI or the host, never imported here' },
    { regex: `^(${nodeBuiltins.join('|')})(/|$)`, message: 'Node modules are handed in by the CLI or the host, never imported here' },
  ],
  layer: (folders, message, allowTypeImports = false) => ({ regex: reaching(...folders), message, allowTypeImports }),
};

/** One zone: the files it covers and the imports they may not make. */
function zone(name, files, { paths = [], patterns = [], globals = [] }) {
  return {
    name: `boundaries/${name}`,
    files,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }],
      ...(globals.length ? { 'no-restricted-globals': ['error', ...globals] } : {}),
    },
  };
}

// Browser globals a pure module must not reach for (the pure tsconfig has no DOM types; this names the
// mistake in the editor as well).
const domGlobals = [
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'HTMLElement',
  'customElements',
  'requestAnimationFrame',
  'acquireVsCodeApi',
].map((name) => ({ name, message: 'the pure layers run outside the browser: no DOM' }));
const nodeGlobals = ['process', 'Buffer', 'require', '__dirname', '__filename', 'global'].map((name) => ({
  name,
  message: 'the pure layers run outside Node: whatever needs Node is handed in',
}));

const webviewPatterns = [
  ...forbid.node,
  forbid.layer(['host', 'cli', 'extension'], 'the webview is a projection: it talks to the host through src/protocol only'),
  forbid.layer(['core'], 'the webview may name core data types (import type), never bundle core code', true),
];

export default defineConfig(
  { ignores: ['node_modules/', 'dist/', 'out/', '.e2e/', '.vscode-test/', 'bench/out/', 'test-artifacts/'] },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  zone('core', ['src/core/**/*.ts'], {
    paths: [forbid.vscode],
    patterns: [
      ...forbid.node,
      forbid.layer(['host', 'cli', 'protocol', 'present', 'webview', 'extension'], 'the core is the floor: it imports no other layer'),
    ],
    globals: [...domGlobals, ...nodeGlobals],
  }),
  zone('present', ['src/present/**/*.ts'], {
    paths: [forbid.vscode],
    patterns: [
      ...forbid.node,
      forbid.layer(['host', 'cli', 'webview', 'extension'], 'the presentation layer is used by the CLI and the host: it imports neither'),
    ],
    globals: [...domGlobals, ...nodeGlobals],
  }),
  zone('protocol', ['src/protocol/**/*.ts'], {
    paths: [forbid.vscode],
    patterns: [
      ...forbid.node,
      forbid.layer(['host', 'cli', 'webview', 'extension', 'present'], 'the protocol is plain data shared by host and webview'),
      forbid.layer(['core'], 'the protocol may name core data types (import type), never run core code', true),
    ],
  }),
  zone('cli', ['src/cli/**/*.ts'], {
    paths: [forbid.vscode],
    patterns: [
      forbid.layer(['host', 'extension', 'webview'], 'the CLI runs without VS Code: it never imports the extension host or the webview'),
    ],
  }),
  zone('files', ['src/files/**/*.ts'], {
    paths: [forbid.vscode],
    patterns: [
      forbid.layer(['host', 'cli', 'extension', 'webview'], 'the write layer serves the CLI and the host alike: it imports neither'),
    ],
  }),
  zone('webview', ['webview/**/*.ts'], { paths: [forbid.vscode], patterns: webviewPatterns }),
  zone('webview-controllers', ['webview/timeline/controllers/**/*.ts', 'webview/host-client.ts'], {
    paths: [
      forbid.vscode,
      { name: 'lit', message: 'controllers hold state, views draw it: lit only for its types here', allowTypeImports: true },
    ],
    patterns: [
      ...webviewPatterns,
      {
        regex: '(^|/)(views|timeline-app|vscode-api|test-hooks)(/|$)',
        message: 'controllers run without the page: no views, no page modules',
      },
    ],
    globals: domGlobals.map((g) => ({
      ...g,
      message: 'controllers run under Node in the unit tests: no DOM (the page hands in what needs it)',
    })),
  }),
);
