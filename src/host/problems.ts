// Puts the core's diagnostics for session logs into the Problems panel, at the file line they name,
// with related information (for example a tool/result pointing at its tool/call). Two sources:
//   - a session log open in the plain text editor (activation `onLanguage:jsonl`): its text is read
//     through the core again when it changes;
//   - a session log open in the session editor: its host-owned document already has the diagnostics.
// When both are open the text wins (it is what the user sees and may hold unsaved edits).
// Both sources list the one definition of a log's diagnostics (`logDiagnostics`), the list
// `session-surface check` prints. A zstd log's diagnostics sit on its decompressed text view, so
// activating one opens readable text at the right line.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadSession, type Diagnostic as CoreDiagnostic } from '../core';
import { logDiagnostics, upgradeDiagnostic } from '../present';
import { DECOMPRESSED_SCHEME, textUriOf, type DecompressedLogProvider } from './log-text';
import type { SessionDocument } from './session-document';
import type { SessionEditorProvider } from './session-editor-provider';
import { affects, passesThreshold, problemsThreshold, readLimits } from './settings';
import { hostFormatter } from './words';

const SOURCE = 'session log';
/** Text documents up to this size also get today's dsh's verdict (it migrates the whole log). */
const UPGRADE_TEXT_MAX = 5_000_000;
const SEVERITY: Record<CoreDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** A JSONL file is treated as a session log when its first line is a session header, or by its name. */
export function looksLikeSessionLog(document: vscode.TextDocument): boolean {
  const name = path.posix.basename(document.uri.path);
  if (!/\.jsonl$/i.test(name) && document.languageId !== 'jsonl') return false;
  if (/^session.*\.jsonl$/i.test(name)) return true;
  const start = document
    .getText(new vscode.Range(0, 0, 0, 400))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return start.startsWith('{') && /"type"\s*:\s*"session"/.test(start);
}

export class SessionProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('sessionSurface');
  private readonly subscriptions: vscode.Disposable[] = [this.collection];
  private readonly textTimers = new Map<string, NodeJS.Timeout>();
  /** URIs whose diagnostics currently come from the text editor. */
  private readonly fromText = new Set<string>();

  constructor(
    private readonly provider: SessionEditorProvider,
    private readonly decompressed?: DecompressedLogProvider,
  ) {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.scheduleText(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.scheduleText(e.document, e.document.getText().length > 5e6 ? 1500 : 300)),
      vscode.workspace.onDidCloseTextDocument((d) => this.textClosed(d)),
      provider.onDidOpenDocument((doc) => this.follow(doc)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'problemsSeverity') || affects(e, 'maxLineBytes') || affects(e, 'maxTextBytes')) this.republishAll();
      }),
    );
    for (const d of vscode.workspace.textDocuments) this.scheduleText(d, 0);
    for (const doc of provider.documents.values()) this.follow(doc);
  }

  private scheduleText(document: vscode.TextDocument, delayMs: number): void {
    // A zstd log's decompressed view gets its diagnostics from the session document.
    if (document.uri.scheme === 'output' || document.uri.scheme === DECOMPRESSED_SCHEME || !looksLikeSessionLog(document)) return;
    const key = document.uri.toString();
    clearTimeout(this.textTimers.get(key));
    this.textTimers.set(
      key,
      setTimeout(() => {
        this.textTimers.delete(key);
        if (document.isClosed) return;
        this.publishText(document);
      }, delayMs),
    );
  }

  private publishText(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    let diagnostics: CoreDiagnostic[];
    try {
      const text = document.getText();
      const log = loadSession(new TextEncoder().encode(text), {
        fileName: path.posix.basename(document.uri.path),
        limits: readLimits(),
      });
      diagnostics = logDiagnostics(log, hostFormatter());
      // Today's dsh's refusal too (migrating the log again on every edit is left to logs of a few MB).
      const upgrade =
        text.length <= UPGRADE_TEXT_MAX
          ? upgradeDiagnostic(log.upgradeRead({ digest: false }).verdict, log.format.version, hostFormatter())
          : undefined;
      if (upgrade) diagnostics.push(upgrade);
    } catch (err) {
      this.fromText.add(key);
      this.collection.set(document.uri, [
        new vscode.Diagnostic(
          new vscode.Range(0, 0, 0, 0),
          vscode.l10n.t('Could not read this session log: {0}', err instanceof Error ? err.message : String(err)),
          vscode.DiagnosticSeverity.Error,
        ),
      ]);
      return;
    }
    this.fromText.add(key);
    const lineRange = (line: number) =>
      line - 1 < document.lineCount ? document.lineAt(line - 1).range : new vscode.Range(line - 1, 0, line - 1, 0);
    this.collection.set(document.uri, toVsDiagnostics(document.uri, diagnostics, lineRange));
  }

  private textClosed(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.textTimers.get(key));
    this.textTimers.delete(key);
    if (!this.fromText.delete(key)) return;
    const sessionDoc = this.provider.documents.get(key);
    if (sessionDoc) this.publishSession(sessionDoc);
    else this.collection.delete(document.uri);
  }

  private follow(doc: SessionDocument): void {
    const changed = doc.onDidChangeDiagnostics(() => {
      if (doc.currentState.kind === 'loaded') this.publishSession(doc);
    });
    // An open decompressed view of a growing zstd log shows the appended lines too.
    const grown = doc.onDidChange(() => {
      if (doc.compressed) this.decompressed?.refresh(doc.uri);
    });
    let published: vscode.Uri | undefined;
    const disposed = doc.onDidDispose(() => {
      changed.dispose();
      grown.dispose();
      disposed.dispose();
      if (!this.fromText.has(doc.uri.toString()) && !this.provider.documents.has(doc.uri.toString())) {
        this.collection.delete(doc.uri);
        if (published) this.collection.delete(published);
      }
    });
    this.subscriptions.push(changed, grown, disposed);
    this.published.set(doc, (uri) => {
      published = uri;
    });
    if (doc.currentState.kind === 'loaded') this.publishSession(doc);
  }

  private readonly published = new WeakMap<SessionDocument, (uri: vscode.Uri) => void>();

  private publishSession(doc: SessionDocument): void {
    if (!doc.view || this.fromText.has(doc.uri.toString())) return;
    // Without the text we know byte lengths, not columns; VS Code clamps the end to the line.
    const lineRange = (line: number, length?: number) => new vscode.Range(line - 1, 0, line - 1, length ?? 10_000);
    const target = textUriOf(doc.uri, doc.compressed);
    this.published.get(doc)?.(target);
    this.collection.set(target, toVsDiagnostics(target, doc.diagnostics, lineRange));
  }

  /** Publishes everything again (the severity threshold or the read limits changed). */
  private republishAll(): void {
    for (const d of vscode.workspace.textDocuments) if (this.fromText.has(d.uri.toString())) this.scheduleText(d, 0);
    for (const doc of this.provider.documents.values()) this.publishSession(doc);
  }

  /** Diagnostics currently published for a URI (for tests and commands). */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    for (const t of this.textTimers.values()) clearTimeout(t);
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

/** Core diagnostics (already placed on 1-based file lines by `logDiagnostics`) as VS Code's. */
export function toVsDiagnostics(
  uri: vscode.Uri,
  diagnostics: readonly CoreDiagnostic[],
  lineRange: (line: number, length?: number) => vscode.Range,
): vscode.Diagnostic[] {
  const threshold = problemsThreshold();
  return diagnostics
    .filter((d) => passesThreshold(d.severity, threshold))
    .map((d) => {
      const line = d.line ?? 1;
      const out = new vscode.Diagnostic(lineRange(line, d.length), d.message, SEVERITY[d.severity] ?? vscode.DiagnosticSeverity.Error);
      out.source = SOURCE;
      out.code = d.rule;
      if (d.related?.length) {
        out.relatedInformation = d.related.map((r) => {
          const relatedLine = r.line ?? 1;
          const where = r.seq !== undefined ? ` (seq ${r.seq})` : '';
          return new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, lineRange(relatedLine, r.length)), r.message + where);
        });
      }
      return out;
    });
}
