// Drives the session editor provider through the real vscode API inside a real extension host:
// open a log with the custom editor, follow appends (the document's change notifications), detect a
// truncation, publish diagnostics, and dispose the document when its editor closes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SessionSurfaceApi } from '../../src/extension';
import type { SessionDocument } from '../../src/host/session-document';

const EXTENSION_ID = 'session-surface.session-surface-studio';
const VIEW_TYPE = 'sessionSurface.sessionEditor';

function workspaceFile(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the tests run in a workspace');
  return path.join(folder, name);
}

/** A fresh copy of a sample, so each test may append to and truncate its own file. */
function copySample(sample: string, as: string): vscode.Uri {
  const target = workspaceFile(as);
  fs.copyFileSync(workspaceFile(sample), target);
  return vscode.Uri.file(target);
}

async function until<T>(what: string, fn: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const nextChange = (doc: SessionDocument) =>
  new Promise<void>((resolve) => {
    const sub = doc.onDidChange(() => {
      sub.dispose();
      resolve();
    });
  });

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

suite('session editor in a real extension host', () => {
  let api: SessionSurfaceApi;

  suiteSetup(async () => {
    const ext = vscode.extensions.getExtension<SessionSurfaceApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded`);
    api = await ext.activate();
  });

  teardown(closeAll);

  test('opens a log through the provider and reports its header and counts', async () => {
    const uri = copySample('session-small.jsonl', 'host-open.jsonl');
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    const doc = await until('document opened', () => api.provider.documents.get(uri.toString()));
    await doc.whenLoaded;
    const snap = doc.summary();
    assert.ok(snap);
    assert.equal(snap.title, 'sample-small-0001');
    assert.equal(snap.headerFields?.find((f) => f.name === 'id')?.value, 'sample-small-0001');
    assert.equal(snap.counts.events, 36);
    assert.equal(snap.counts.turns, 3);
    assert.equal(snap.verdict.ok, true);
    assert.equal(snap.live, 'closed');
    const tab = await until('tab shows the custom editor', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find(
          (t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === VIEW_TYPE && t.input.uri.toString() === uri.toString(),
        ),
    );
    assert.ok(tab);
  });

  test('the webview completes the ready handshake and draws the summary', async () => {
    const uri = copySample('session-small.jsonl', 'host-render.jsonl');
    const rendered = new Promise<{ events: number; hasHeader: boolean }>((resolve) => {
      const sub = api.provider.onDidRender((r) => {
        if (r.uri === uri.toString() && r.hasHeader) {
          sub.dispose();
          resolve(r);
        }
      });
    });
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    const report = await Promise.race([
      rendered,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('webview never drew')), 20_000)),
    ]);
    assert.equal(report.events, 36);
  });

  test('folds appended events and notifies; a truncation is detected, nothing is written', async () => {
    const uri = copySample('session-live.jsonl', 'host-live.jsonl');
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    const doc = await until('document opened', () => api.provider.documents.get(uri.toString()));
    await doc.whenLoaded;
    assert.equal(doc.summary()?.live, 'live', 'an open last turn is live, not crashed');
    const before = doc.summary()!.counts.events;
    const sizeBefore = fs.statSync(uri.fsPath).size;

    const changed = nextChange(doc);
    const line = JSON.stringify({
      type: 'session/title',
      seq: before,
      time: 1786348900000,
      data: { title: 'Listing files', messageSeqs: [2], source: { kind: 'fallback' } },
    });
    fs.appendFileSync(uri.fsPath, line + '\n');
    const started = Date.now();
    await changed;
    await until('event folded', () => doc.summary()!.counts.events === before + 1 || undefined, 5_000);
    assert.ok(Date.now() - started < 2_000, `append seen within 2 s (${Date.now() - started} ms)`);
    assert.equal(doc.summary()!.file.state, 'following');

    fs.truncateSync(uri.fsPath, 100);
    await until('truncation detected', () => doc.summary()!.file.state === 'truncated' || undefined, 5_000);
    assert.match(doc.summary()!.file.explanation ?? '', /fewer than/);
    assert.equal(doc.summary()!.counts.events, before + 1, 'the view keeps what it read');
    assert.equal(fs.statSync(uri.fsPath).size, 100, 'the editor wrote nothing');
    assert.ok(sizeBefore > 100);
  });

  test('with following turned off the live state says so and appends wait until it is on again', async () => {
    const settings = vscode.workspace.getConfiguration('sessionSurface');
    await settings.update('followLiveLogs', false, vscode.ConfigurationTarget.Workspace);
    try {
      const uri = copySample('session-live.jsonl', 'host-follow-off.jsonl');
      await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
      const doc = await until('document opened', () => api.provider.documents.get(uri.toString()));
      await doc.whenLoaded;
      assert.match(doc.summary()!.liveText, /following appends is turned off$/);
      const before = doc.summary()!.counts.events;
      const line = JSON.stringify({
        type: 'session/title',
        seq: before,
        time: 1786348900000,
        data: { title: 'Listing files', messageSeqs: [2], source: { kind: 'fallback' } },
      });
      fs.appendFileSync(uri.fsPath, line + '\n');
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(doc.summary()!.counts.events, before, 'nothing folded while following is off');
      await settings.update('followLiveLogs', true, vscode.ConfigurationTarget.Workspace);
      await until('appends folded once following is on', () => doc.summary()!.counts.events === before + 1 || undefined, 5_000);
      assert.match(doc.summary()!.liveText, /following appends$/);
    } finally {
      await settings.update('followLiveLogs', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('publishes diagnostics at the right lines for a log open as text only', async () => {
    const uri = copySample('session-with-errors.jsonl', 'host-errors.jsonl');
    await vscode.window.showTextDocument(uri);
    const diags = await until('diagnostics published', () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length ? d : undefined;
    });
    const lines = diags.map((d) => d.range.start.line + 1);
    assert.ok(lines.includes(7), `line 7 in ${lines}`);
    assert.ok(lines.includes(20), `line 20 in ${lines}`);
    assert.ok(
      diags.every((d) => typeof d.code === 'string'),
      'each diagnostic names its rule',
    );
    // The tool/result whose ids disagree links to the tool/call its result block answers (line 19).
    const mismatch = diags.find((d) => d.range.start.line + 1 === 20)!;
    const links = mismatch.relatedInformation ?? [];
    assert.ok(
      links.some((r) => r.location.uri.toString() === uri.toString() && r.location.range.start.line + 1 === 19),
      `related information points at the tool/call on line 19: ${JSON.stringify(links.map((r) => [r.location.range.start.line + 1, r.message]))}`,
    );
  });

  test('disposes the document when its last editor closes', async () => {
    const uri = copySample('session-small.jsonl', 'host-dispose.jsonl');
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    const doc = await until('document opened', () => api.provider.documents.get(uri.toString()));
    const disposed = new Promise<void>((resolve) => doc.onDidDispose(resolve));
    await closeAll();
    await Promise.race([disposed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not disposed')), 10_000))]);
    assert.equal(api.provider.documents.has(uri.toString()), false);
  });
});
