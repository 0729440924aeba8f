// The layer boundaries are enforced by `npm run lint`: a file placed in each zone with one forbidden
// import makes eslint fail on that file with the boundary's message, and the same zone accepts the
// imports it is allowed. The probes are real files in the real folders, linted by the real eslint
// binary with the project's own eslint.config.mjs, and removed afterwards.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/paths';

interface Probe {
  /** Folder of the zone, relative to the repository root. */
  folder: string;
  /** The file's text. */
  text: string;
  /** A phrase of the expected boundary message, or null when the file must lint clean. */
  expect: string | null;
}

const NODE = 'Node modules are handed in';
const VSCODE = 'only the extension host talks to the vscode API';
const CORE_ENTRY = "the core's public API is its index";

const probes: Probe[] = [
  // The core imports nothing of Node, vscode or any other layer.
  { folder: 'src/core', text: "import * as vscode from 'vscode';\nexport const v = vscode;\n", expect: VSCODE },
  { folder: 'src/core', text: "import { inflateSync } from 'node:zlib';\nexport const f = inflateSync;\n", expect: NODE },
  { folder: 'src/core', text: "import { readFileSync } from 'fs';\nexport const f = readFileSync;\n", expect: NODE },
  {
    folder: 'src/core/read',
    text: "import { SessionDocument } from '../../host/session-document';\nexport const d = SessionDocument;\n",
    expect: 'the core is the floor',
  },
  { folder: 'src/core', text: "import { runCli } from '../cli/main';\nexport const r = runCli;\n", expect: 'the core is the floor' },
  {
    folder: 'src/core',
    text: "import type { HostToWebview } from '../protocol/messages';\nexport type M = HostToWebview;\n",
    expect: 'the core is the floor',
  },
  {
    folder: 'src/core',
    text: "import { renderLoaded } from '../../webview/render';\nexport const r = renderLoaded;\n",
    expect: 'the core is the floor',
  },
  { folder: 'src/core', text: 'export const pid = process.pid;\n', expect: 'the pure layers run outside Node' },
  {
    folder: 'src/core',
    text: "import type { SessionHeader } from './types';\nimport { decompress } from 'fzstd';\nexport type H = SessionHeader;\nexport const d = decompress;\n",
    expect: null,
  },
  // The webview: never vscode, Node or the host; core data types only.
  { folder: 'webview', text: "import * as vscode from 'vscode';\nexport const v = vscode;\n", expect: VSCODE },
  {
    folder: 'webview',
    text: "import { buildSnapshot } from '../src/host/snapshot';\nexport const b = buildSnapshot;\n",
    expect: 'the webview is a projection',
  },
  {
    folder: 'webview',
    text: "import { loadSession } from '../src/core';\nexport const l = loadSession;\n",
    expect: 'never bundle core code',
  },
  { folder: 'webview', text: "import { join } from 'node:path';\nexport const j = join;\n", expect: NODE },
  {
    folder: 'webview',
    text: "import type { SessionHeader } from '../src/core';\nimport { PROTOCOL_VERSION } from '../src/protocol/messages';\nexport type H = SessionHeader;\nexport const p = PROTOCOL_VERSION;\nexport const t = document.title;\n",
    expect: null,
  },
  // …and those types from the core's index only, not from a core module nor from the app's entry.
  {
    folder: 'webview',
    text: "import type { SessionHeader } from '../src/core/types';\nexport type H = SessionHeader;\n",
    expect: CORE_ENTRY,
  },
  {
    folder: 'webview/timeline',
    text: "import type { FileSource } from '../../src/core/internal';\nexport type F = FileSource;\n",
    expect: CORE_ENTRY,
  },
  // The webview's controllers: its state and behaviour, run under Node by the unit tests.
  { folder: 'webview/timeline/controllers', text: 'export const t = () => document.title;\n', expect: 'controllers run under Node' },
  {
    folder: 'webview/timeline/controllers',
    text: "import { html } from 'lit';\nexport const h = html;\n",
    expect: 'lit only for its types',
  },
  {
    folder: 'webview/timeline/controllers',
    text: "import { renderRow } from '../views/row-view';\nexport const r = renderRow;\n",
    expect: 'controllers run without the page',
  },
  {
    folder: 'webview/timeline/controllers',
    text: "import type { ReactiveController } from 'lit';\nimport { PAGE_SIZE } from './row-cache';\nexport type C = ReactiveController;\nexport const p = PAGE_SIZE;\n",
    expect: null,
  },
  // The CLI never reaches the extension host.
  {
    folder: 'src/cli',
    text: "import { buildSnapshot } from '../host/snapshot';\nexport const b = buildSnapshot;\n",
    expect: 'the CLI runs without VS Code',
  },
  { folder: 'src/cli', text: "import * as vscode from 'vscode';\nexport const v = vscode;\n", expect: VSCODE },
  // The write layer: shared by the CLI and the host, so it imports neither.
  {
    folder: 'src/files',
    text: "import { SessionDocument } from '../host/session-document';\nexport const d = SessionDocument;\n",
    expect: 'the write layer serves the CLI and the host alike',
  },
  {
    folder: 'src/files',
    text: "import { runCli } from '../cli/main';\nexport const r = runCli;\n",
    expect: 'the write layer serves the CLI and the host alike',
  },
  {
    folder: 'src/cli',
    text: "import { readFileSync } from 'node:fs';\nimport { loadSession } from '../core';\nexport const r = [readFileSync, loadSession];\n",
    expect: null,
  },
  // The presentation layer: pure, like the core, and no DOM.
  { folder: 'src/present', text: "import * as vscode from 'vscode';\nexport const v = vscode;\n", expect: VSCODE },
  { folder: 'src/present', text: "import { format } from 'node:util';\nexport const f = format;\n", expect: NODE },
  { folder: 'src/present', text: 'export const title = () => document.title;\n', expect: 'the pure layers run outside the browser' },
  {
    folder: 'src/present',
    text: "import { runCli } from '../cli/main';\nexport const r = runCli;\n",
    expect: 'the presentation layer is used by the CLI and the host',
  },
  { folder: 'src/present', text: "import type { Diagnostic } from '../core';\nexport type D = Diagnostic;\n", expect: null },
  // The protocol names core types and runs none of its code.
  {
    folder: 'src/protocol',
    text: "import { loadSession } from '../core';\nexport const l = loadSession;\n",
    expect: 'never run core code',
  },
  { folder: 'src/protocol', text: "import type { Diagnostic } from '../core/types';\nexport type D = Diagnostic;\n", expect: CORE_ENTRY },
  { folder: 'src/protocol', text: "import type { Diagnostic } from '../core';\nexport type D = Diagnostic;\n", expect: null },
  // Outside the core, every layer reaches it through its entry: the index, and for the app's own layers
  // src/core/internal.ts; a type import past the entry is refused as well.
  {
    folder: 'src/host',
    text: "import { SessionLog } from '../core/read/session-log';\nexport const s = SessionLog;\n",
    expect: CORE_ENTRY,
  },
  {
    folder: 'src/host/timeline',
    text: "import type { HealthEntry } from '../../core/check/session-health';\nexport type H = HealthEntry;\n",
    expect: CORE_ENTRY,
  },
  { folder: 'src/cli', text: "import { jsonText } from '../core/value-text';\nexport const j = jsonText;\n", expect: CORE_ENTRY },
  { folder: 'src/cli', text: "import { decodeZstdLog } from '../core/zstd';\nexport const d = decodeZstdLog;\n", expect: CORE_ENTRY },
  {
    folder: 'src/files',
    text: "import type { LoadedFile } from '../core/read/load-file';\nexport type L = LoadedFile;\n",
    expect: CORE_ENTRY,
  },
  { folder: 'src/present', text: "import { stringText } from '../core/value-text';\nexport const s = stringText;\n", expect: CORE_ENTRY },
  {
    folder: 'src/node',
    text: "import type { NativeZstd } from '../core/zstd/backend';\nexport type N = NativeZstd;\n",
    expect: CORE_ENTRY,
  },
  {
    folder: 'src',
    text: "import { loadSessionFile } from './core/read/load-file';\nexport const l = loadSessionFile;\n",
    expect: CORE_ENTRY,
  },
  {
    folder: 'src/host',
    text: "import { loadSession, type SessionLog } from '../core';\nimport { jsonText } from '../core/internal';\nexport type S = SessionLog;\nexport const f = [loadSession, jsonText];\n",
    expect: null,
  },
  {
    folder: 'src/cli',
    text: "import type { ReadLimits } from '../core/index';\nimport { reviewTornTail } from '../core/internal';\nexport type R = ReadLimits;\nexport const r = reviewTornTail;\n",
    expect: null,
  },
];

interface EslintResult {
  filePath: string;
  errorCount: number;
  messages: { message: string; line: number }[];
}

function lint(files: string[]): { status: number | null; results: EslintResult[]; stderr: string } {
  const root = repoRoot();
  const eslint = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const run = spawnSync(process.execPath, [eslint, '--format', 'json', '--max-warnings', '0', ...files], { cwd: root, encoding: 'utf8' });
  let results: EslintResult[] = [];
  try {
    results = JSON.parse(run.stdout);
  } catch {
    // Left empty: the assertions below then report the exit code and stderr.
  }
  return { status: run.status, results, stderr: run.stderr };
}

describe('lint: layer boundaries', function () {
  this.timeout(120_000);
  const root = repoRoot();
  const created: string[] = [];
  const madeFolders: string[] = [];
  const files = probes.map((probe, index) => join(root, probe.folder, `lint-probe-${process.pid}-${index}.ts`));

  before(() => {
    probes.forEach((probe, index) => {
      const folder = join(root, probe.folder);
      if (!existsSync(folder)) {
        mkdirSync(folder, { recursive: true });
        madeFolders.push(folder);
      }
      writeFileSync(files[index], `// A probe written by the lint boundary test; removed when it ends.\n${probe.text}`);
      created.push(files[index]);
    });
  });

  after(() => {
    for (const file of created) rmSync(file, { force: true });
    for (const folder of madeFolders) rmSync(folder, { recursive: true, force: true });
  });

  it('each forbidden import fails lint with its boundary message; allowed imports pass', () => {
    const { status, results, stderr } = lint(files);
    assert.equal(results.length, probes.length, `eslint reported ${results.length} files (exit ${status}): ${stderr}`);
    assert.equal(status, 1, 'eslint must fail while a forbidden import is present');
    probes.forEach((probe, index) => {
      const result = results.find((r) => r.filePath === files[index]);
      assert.ok(result, `no eslint result for ${probe.folder}: ${probe.text}`);
      const messages = result.messages.map((m) => `${m.line}: ${m.message}`);
      if (probe.expect === null) {
        assert.deepEqual(messages, [], `${probe.folder} must accept:\n${probe.text}`);
      } else {
        assert.equal(result.errorCount, 1, `${probe.folder} must refuse:\n${probe.text}got: ${messages.join('; ')}`);
        assert.ok(result.messages[0].message.includes(probe.expect), `${probe.folder}: ${messages.join('; ')}`);
        // Line 1 is the probe's comment, so the forbidden import or use sits on line 2.
        assert.equal(result.messages[0].line, 2);
      }
    });
  });

  it('the allowed files alone lint clean (exit 0)', () => {
    const clean = files.filter((_, index) => probes[index].expect === null);
    const { status, results, stderr } = lint(clean);
    assert.equal(results.length, clean.length, stderr);
    assert.equal(status, 0, results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line}: ${m.message}`)).join('\n'));
  });
});
