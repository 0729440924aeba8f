// The timeline's host side inside a real extension host, on real files on disk: logs written by the
// test's own builder (plain and zstd), and the real dsh logs of the shared corpus when it is there.
// Each log is opened with the session editor; requests go through the document's request handler
// exactly as the webview's do, and every answer is checked by the protocol's validators.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { encodeDshZstdLog } from '../../src/core/zstd';
import type { SessionSurfaceApi } from '../../src/extension';
import type { SessionDocument } from '../../src/host/session-document';
import { DECOMPRESSED_SCHEME } from '../../src/host/log-text';
import { handleRequest } from '../../src/host/timeline/request-handlers';
import { isNotificationMessage, isResponseMessage, sameGeneration, type ResponseMessage } from '../../src/protocol';
import { richLog } from '../support/build-log';

const EXTENSION_ID = 'session-surface.session-surface-studio';
const VIEW_TYPE = 'sessionSurface.sessionEditor';
/** A zstd log's session editor: the same editor under the name that is the default for *.jsonl.zstd. */
const ZSTD_VIEW_TYPE = 'sessionSurface.zstdSessionEditor';

function workspaceFile(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the tests run in a workspace');
  return path.join(folder, name);
}

async function until<T>(what: string, fn: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The shared corpus, when the tests run beside it. */
function sharedDir(): string | undefined {
  const candidates = [process.env.SHARED_DIR, path.join(__dirname, '..', '..', '..', 'shared')].filter((d): d is string => !!d);
  return candidates.find((d) => fs.existsSync(path.join(d, 'conformance', 'real')));
}

let requestId = 0;

suite('timeline host side in a real extension host', () => {
  let api: SessionSurfaceApi;

  suiteSetup(async () => {
    const ext = vscode.extensions.getExtension<SessionSurfaceApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded`);
    api = await ext.activate();
  });

  teardown(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  async function open(name: string, bytes: Uint8Array): Promise<SessionDocument> {
    const file = workspaceFile(name);
    fs.writeFileSync(file, bytes);
    const uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('vscode.openWith', uri, name.endsWith('.zstd') ? ZSTD_VIEW_TYPE : VIEW_TYPE);
    const doc = await until('document opened', () => api.provider.documents.get(uri.toString()));
    await doc.whenLoaded;
    assert.equal(doc.currentState.kind, 'loaded');
    return doc;
  }

  async function ask(doc: SessionDocument, method: string, params: unknown): Promise<ResponseMessage & { ok: true }> {
    const progress: unknown[] = [];
    const response = await handleRequest(doc.timeline!, { type: 'request', id: ++requestId, method, params }, (p) => progress.push(p));
    assert.ok(response && isResponseMessage(response), `${method}: the response validates`);
    assert.ok(response.ok, `${method}: ${JSON.stringify(response)}`);
    return response as ResponseMessage & { ok: true };
  }

  test('row windows in every order; the Model view is exactly the derived messages', async () => {
    const b = richLog();
    const doc = await open('timeline-rows.jsonl', b.bytes());
    const log = doc.timeline!.log;
    const full = (await ask(doc, 'rows', { order: 'log', start: 0, count: 2000 })).result as any;
    assert.equal(full.total, log.eventCount);
    const model = (await ask(doc, 'rows', { order: 'surface', start: 0, count: 2000 })).result as any;
    assert.equal(model.total, b.derivedMessages().length, "as many rows as the builder's own derived messages");
    assert.deepEqual(
      model.rows.map((r: any) => r.seq),
      log.surface().filter((s) => log.eventType(s) !== 'assistant/message' || log.event(s)!.data.message.content.length > 0),
    );
    const transcript = (await ask(doc, 'rows', { order: 'transcript', start: 0, count: 2000 })).result as any;
    assert.deepEqual(
      transcript.rows.map((r: any) => r.seq),
      log.transcript(),
    );
    const summary = doc.summary()!;
    assert.equal(summary.live, 'closed');
    assert.equal(summary.counts.turns, 3);
    assert.ok(summary.facts.some((f) => f.name === 'fileBytes'));
  });

  test('an append to the file makes earlier windows stale and is announced as a small note', async () => {
    const b = richLog({ openTail: 'recorded-call' });
    const first = b.bytes();
    const doc = await open('timeline-live.jsonl', first);
    const before = await ask(doc, 'rows', { order: 'log', start: 0, count: 10 });
    const notes: any[] = [];
    const sub = doc.onDidNotify((m) => notes.push(m));
    try {
      b.toolResult('call-d', 'the answer, late');
      fs.appendFileSync(workspaceFile('timeline-live.jsonl'), b.bytes().subarray(first.length));
      const message: any = await until('appended note', () => notes.find((m) => m.method === 'appended'), 10_000);
      assert.ok(isNotificationMessage(JSON.parse(JSON.stringify(message))));
      const note = message.params;
      assert.equal(note.added, 1);
      assert.equal(note.surfaceChanged, true);
      assert.equal(note.counts.events, doc.timeline!.log.eventCount);
      assert.ok(!('rows' in note) && !('summary' in note), 'a note, not a snapshot');
    } finally {
      sub.dispose();
    }
    const after = await ask(doc, 'rows', { order: 'log', start: 0, count: 10 });
    assert.equal(sameGeneration(before.generation, after.generation), false, 'the window from before the append is stale');
    assert.equal(after.generation.events, before.generation.events + 1);
  });

  test('search over the whole log reports progress and finds an off-screen string; as-of differs across a compaction', async () => {
    const b = richLog();
    for (let i = 0; i < 200; i++) b.chatTurn(`filler prompt ${i}`);
    b.chatTurn('the needle is here');
    const doc = await open('timeline-search.jsonl', b.bytes());
    const found = (await ask(doc, 'search', { text: 'NEEDLE', order: 'log' })).result as any;
    assert.equal(found.complete, true);
    assert.equal(found.matchCount, 1);
    assert.ok(found.first[0].rowIndex > 1000, 'far below the first screen');
    assert.match(found.first[0].excerpt, /needle/);

    const log = doc.timeline!.log;
    const replacement = log.replacements()[0];
    const before = (await ask(doc, 'surfaceAsOf', { seq: replacement.seq - 1, start: 0, count: 2000 })).result as any;
    const after = (await ask(doc, 'surfaceAsOf', { seq: replacement.seq, start: 0, count: 2000 })).result as any;
    assert.notDeepEqual(
      before.nodes.map((n: any) => n.seq),
      after.nodes.map((n: any) => n.seq),
    );
    const diff = (await ask(doc, 'diffAsOf', { fromSeq: replacement.seq - 1, toSeq: replacement.seq })).result as any;
    assert.equal(diff.added, 1);
    assert.ok(diff.removed >= 1);
  });

  test("reveal opens a plain log at the event's 1-based line", async function () {
    this.timeout(90_000);
    const b = richLog();
    const doc = await open('timeline-reveal.jsonl', b.bytes());
    const log = doc.timeline!.log;
    const seq = log.eventCount - 3;
    const opened = (await ask(doc, 'revealInTextEditor', { seq })).result as any;
    assert.equal(opened.opened, true);
    const editor = await until('text editor at the line', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath === doc.uri.fsPath ? e : undefined;
    });
    assert.equal(editor.selection.active.line + 1, log.place(seq)!.line);
  });

  test('a zstd log reveals its decompressed text at the right line and shows its sizes', async function () {
    this.timeout(90_000);
    const b = richLog();
    const lines = new TextDecoder().decode(b.bytes()).trimEnd().split('\n');
    const doc = await open('timeline-zstd.jsonl.zstd', encodeDshZstdLog(lines, { linesPerFrame: 5 }));
    assert.equal(doc.compressed, true);
    const summary = doc.summary()!;
    assert.ok(summary.sizes.zstdFrames && summary.sizes.zstdFrames > 1, 'the frame count is shown');
    assert.ok(summary.sizes.textBytes > 0 && summary.facts.some((f) => f.name === 'textBytes'));
    const log = doc.timeline!.log;
    const seq = log.eventCount - 2;
    await ask(doc, 'revealInTextEditor', { seq });
    const editor = await until('decompressed view at the line', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.scheme === DECOMPRESSED_SCHEME ? e : undefined;
    });
    assert.equal(editor.selection.active.line + 1, log.place(seq)!.line);
    assert.equal(editor.document.lineAt(log.place(seq)!.line - 1).text, log.lineText(seq));
    // The view shows the decompressed text itself.
    assert.equal(editor.document.getText().trimEnd(), lines.join('\n'));
  });

  test('a zstd log opened as any file is (vscode.open) shows in the session editor, its default; a plain one as text', async function () {
    this.timeout(90_000);
    const lines = new TextDecoder().decode(richLog().bytes()).trimEnd().split('\n');
    const zstd = vscode.Uri.file(workspaceFile('opened-by-default.jsonl.zstd'));
    fs.writeFileSync(zstd.fsPath, encodeDshZstdLog(lines, { linesPerFrame: 5 }));
    await vscode.commands.executeCommand('vscode.open', zstd);
    const doc = await until('the session editor opened the zstd log', () => api.provider.documents.get(zstd.toString()));
    await doc.whenLoaded;
    assert.equal(doc.currentState.kind, 'loaded');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputCustom && tab.input.viewType === ZSTD_VIEW_TYPE, 'the active tab is the session editor');
    // Show Log as Text: its decompressed text, read-only (the file itself is binary).
    await vscode.commands.executeCommand('sessionSurface.showAsText', zstd);
    const text = await until('the decompressed text', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.scheme === DECOMPRESSED_SCHEME ? e : undefined;
    });
    assert.equal(text.document.getText().trimEnd(), lines.join('\n'));
    const plain = vscode.Uri.file(workspaceFile('opened-by-default.jsonl'));
    fs.writeFileSync(plain.fsPath, richLog().bytes());
    await vscode.commands.executeCommand('vscode.open', plain);
    await until('a plain log opens as text', () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === plain.fsPath ? true : undefined,
    );
    assert.equal(api.provider.documents.has(plain.toString()), false);
  });

  test('real dsh logs (shared corpus): Model view equals deriveMessages, every row validates', async function () {
    const shared = sharedDir();
    if (!shared) {
      // Under CI the corpus must be there: its absence is a failure, never a silent skip.
      if (process.env.CI === 'true') assert.fail('the shared corpus is required under CI=true: set SHARED_DIR to it');
      return this.skip();
    }
    const dir = path.join(shared, 'conformance', 'real');
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.hdrfix.jsonl'))
      .sort()
      .slice(0, 6);
    assert.ok(files.length > 0);
    for (const f of files) {
      const doc = await open(`real-${f}`, fs.readFileSync(path.join(dir, f)));
      const log = doc.timeline!.log;
      const model = (await ask(doc, 'rows', { order: 'surface', start: 0, count: 2000 })).result as any;
      assert.equal(model.total, log.deriveMessages().length, f);
      const full = (await ask(doc, 'rows', { order: 'log', start: 0, count: 2000, filter: { collapseChunkRuns: true } })).result as any;
      assert.ok(full.total <= log.eventCount, f);
      const seq = model.rows[model.rows.length - 1]?.seq ?? 0;
      const detail = (await ask(doc, 'eventDetail', { seq })).result as any;
      assert.ok(Array.isArray(detail.highlight), `${f}: the detail carries its provenance marks`);
      await ask(doc, 'overview', { buckets: 200 });
      await ask(doc, 'timeSpans', { maxSpans: 500 });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
