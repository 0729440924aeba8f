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
// Outside src/core, every file of src/ and webview/ reaches the core through its entry only: the public
// index (src/core/index.ts, imported as `…/core`), and for this project's own layers also the app's entry
// (src/core/internal.ts, see its header); the webview and the protocol name core types from the index
// only. test/ and bench/ test and measure internals, so they may import any core module.
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

/**
 * An import of the core past its entry: `core/<anything>` other than `core/index` and the `allowed`
 * entries (relative paths only; a package such as `@tanstack/virtual-core` is not the core).
 */
const pastCoreEntry = (...allowed) => `^(\\.\\.?/)+(src/)?core/(?!(${['index', ...allowed].join('|')})$)`;
const CORE_ENTRY_MESSAGE =
  "the core's public API is its index (src/core/index.ts; the app's own layers also src/core/internal.ts): a deep import bypasses the guarded entry points and ties this file to the core's inner layout";

const forbid = {
  vscode: { name: 'vscode', message: 'only the extension host talks to the vscode API' },
  node: [
    { regex: '^node:', message: 'Node modules are handed in by the CLI or the host, never imported here' },
    { regex: `^(${nodeBuiltins.join('|')})(/|$)`, message: 'Node modules are handed in by the CLI or the host, never imported here' },
  ],
  layer: (folders, message, allowTypeImports = false) => ({ regex: reaching(...folders), message, allowTypeImports }),
  /** Imports of the core past its index and the app's entry (src/core/internal.ts). */
  pastCoreEntry: { regex: pastCoreEntry('internal'), message: CORE_ENTRY_MESSAGE },
  /** Imports of the core past its index (the webview and the protocol: core types, from the index only). */
  pastCoreIndex: {
    regex: pastCoreEntry(),
    message: "the core's public API is its index (src/core/index.ts): this layer names core types from there only",
  },
  /**
   * The core's index, for a layer that may import its types only. A type import that matches a pattern
   * allowing type imports skips every other pattern too, so this one matches the index alone: a type
   * import past the index still meets `pastCoreIndex`.
   */
  coreCode: (message) => ({ regex: '^(\\.\\.?/)+(src/)?core(/index)?$', message, allowTypeImports: true }),
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
  forbid.coreCode('the webview may name core data types (import type), never bundle core code'),
  forbid.pastCoreIndex,
];

export default defineConfig(
  { ignores: ['node_modules/', 'dist/', 'out/', '.e2e/', '.vscode-test/', 'bench/out/', 'test-artifacts/'] },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  // Every file outside the core, whichever zone it is in; a zone below sets its own patterns, so each
  // repeats the core-entry pattern (a later config replaces a rule's options, it does not add to them).
  {
    ...zone('core-entry', ['src/**/*.ts'], { patterns: [forbid.pastCoreEntry] }),
    ignores: ['src/core/**'],
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
      forbid.pastCoreEntry,
    ],
    globals: [...domGlobals, ...nodeGlobals],
  }),
  zone('protocol', ['src/protocol/**/*.ts'], {
    paths: [forbid.vscode],
    patterns: [
      ...forbid.node,
      forbid.layer(['host', 'cli', 'webview', 'extension', 'present'], 'the protocol is plain data shared by host and webview'),
      forbid.coreCode('the protocol may name core data types (import type), never run core code'),
      forbid.pastCoreIndex,
    ],
  }),
  zone('cli', ['src/cli/**/*.ts'], {
    paths: [forbid.vscode],
    patterns: [
      forbid.layer(['host', 'extension', 'webview'], 'the CLI runs without VS Code: it never imports the extension host or the webview'),
      forbid.pastCoreEntry,
    ],
  }),
  zone('files', ['src/files/**/*.ts'], {
    paths: [forbid.vscode],
    patterns: [
      forbid.layer(['host', 'cli', 'extension', 'webview'], 'the write layer serves the CLI and the host alike: it imports neither'),
      forbid.pastCoreEntry,
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
