// Keyboard navigation in the session editor: Go to Seq… and Next/Previous Problem. Each sends the
// session webviews of the log a `reveal` notification (through the document). Go to Seq… also shows
// the event's line in the text editor beside (plain logs only: a zstd log's text is not a text
// document) without taking the focus away; stepping through problems moves the timeline alone, as
// the text editor beside would squeeze it at every step (the inspector's Reveal in Text Editor opens it
// on request).
import * as vscode from 'vscode';
import type { Diagnostic } from '../core';
import { notification, type RevealTarget } from '../protocol';
import type { ActiveSession } from './active-session';
import { isZstdLogName } from './log-text';
import type { SessionDocument } from './session-document';

export const NAVIGATION_COMMANDS = {
  goToSeq: 'sessionSurface.goToSeq',
  nextProblem: 'sessionSurface.nextProblem',
  previousProblem: 'sessionSurface.previousProblem',
} as const;

export const HAS_PROBLEMS_KEY = 'sessionSurface.activeSessionHasProblems';

async function showLineBeside(doc: SessionDocument, line: number): Promise<void> {
  if (isZstdLogName(doc.uri)) return;
  const position = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.commands.executeCommand('vscode.openWith', doc.uri, 'default', {
    viewColumn: vscode.ViewColumn.Beside,
    selection: new vscode.Range(position, position),
    preserveFocus: true,
  } satisfies vscode.TextDocumentShowOptions);
}

async function reveal(doc: SessionDocument, target: RevealTarget, { lineBeside }: { lineBeside: boolean }): Promise<void> {
  doc.notify(notification('reveal', target));
  if (!lineBeside) return;
  const line = target.line ?? (target.seq !== undefined ? doc.view?.place(target.seq)?.line : undefined);
  if (line !== undefined) await showLineBeside(doc, line);
}

/** Problems in file order (those without a place last). */
function problemsInOrder(doc: SessionDocument): { d: Diagnostic; line?: number }[] {
  if (!doc.view) return [];
  return doc.diagnostics
    .map((d) => ({ d, line: d.line ?? (d.seq !== undefined ? doc.view?.place(d.seq)?.line : undefined) }))
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
}

export function registerNavigation(context: vscode.ExtensionContext, active: ActiveSession): void {
  /** The index of the current problem, per document. */
  const current = new WeakMap<SessionDocument, number>();
  const updateKeys = () => {
    void vscode.commands.executeCommand('setContext', HAS_PROBLEMS_KEY, (active.current?.diagnostics.length ?? 0) > 0);
  };

  const stepProblem = async (direction: 1 | -1) => {
    const doc = active.current;
    const problems = doc ? problemsInOrder(doc) : [];
    if (!doc || problems.length === 0) {
      vscode.window.setStatusBarMessage(vscode.l10n.t('No problems in this session log.'), 4000);
      return;
    }
    const was = current.get(doc);
    const index = was === undefined ? (direction === 1 ? 0 : problems.length - 1) : (was + direction + problems.length) % problems.length;
    current.set(doc, index);
    const { d, line } = problems[index];
    vscode.window.setStatusBarMessage(vscode.l10n.t('Problem {0} of {1}: {2}: {3}', index + 1, problems.length, d.rule, d.message), 8000);
    await reveal(doc, { seq: d.seq, line, reason: direction === 1 ? 'nextProblem' : 'previousProblem' }, { lineBeside: false });
  };

  context.subscriptions.push(
    active.onDidChange(updateKeys),
    vscode.commands.registerCommand(NAVIGATION_COMMANDS.goToSeq, async (seqArg?: unknown) => {
      const doc = active.current;
      const count = doc?.view?.eventCount ?? 0;
      if (!doc || count === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Go to Seq needs a session log with events open in the session editor.'));
        return;
      }
      let seq = typeof seqArg === 'number' ? seqArg : undefined;
      if (seq === undefined) {
        const answer = await vscode.window.showInputBox({
          title: vscode.l10n.t('Go to Seq'),
          prompt: vscode.l10n.t('Event seq, 0 to {0}', count - 1),
          placeHolder: vscode.l10n.t('seq'),
          // The session webview takes the focus back as the palette closes; keep the box open.
          ignoreFocusOut: true,
          validateInput: (text) => {
            const n = Number(text.trim());
            return text.trim() !== '' && Number.isInteger(n) && n >= 0 && n < count
              ? undefined
              : vscode.l10n.t('A whole number from 0 to {0}', count - 1);
          },
        });
        if (answer === undefined) return;
        seq = Number(answer.trim());
      }
      if (!Number.isInteger(seq) || seq < 0 || seq >= count) return;
      await reveal(doc, { seq, reason: 'goToSeq' }, { lineBeside: true });
    }),
    vscode.commands.registerCommand(NAVIGATION_COMMANDS.nextProblem, () => stepProblem(1)),
    vscode.commands.registerCommand(NAVIGATION_COMMANDS.previousProblem, () => stepProblem(-1)),
  );
  updateKeys();
}
