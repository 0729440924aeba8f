// The extension's log: the "Session Surface" output channel (a LogOutputChannel, so the user picks the
// level). It records what the extension does — loads and their timings, refusals, appends (folded into
// one line per burst), listings of the sessions folder.
import * as vscode from 'vscode';
import type { SessionDocument } from './session-document';
import type { SessionEditorProvider } from './session-editor-provider';

export type SessionLog = Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error' | 'debug' | 'trace'>;

/** Appends within this window are reported as one line. */
const APPEND_FOLD_MS = 2000;

export function createSessionLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Session Surface', { log: true });
}

/** Follows every session document the editor opens and writes what happens to it. */
export function logSessionDocuments(provider: SessionEditorProvider, log: SessionLog): vscode.Disposable {
  const subscriptions: vscode.Disposable[] = [];
  const follow = (doc: SessionDocument) => {
    let state = doc.currentState.kind;
    let events = doc.view?.eventCount ?? 0;
    let folded = 0;
    let foldTimer: ReturnType<typeof setTimeout> | undefined;
    const flushAppends = () => {
      foldTimer = undefined;
      if (folded > 0) log.info(`${doc.fileName}: ${folded} appended event(s) folded in (${events} events now)`);
      folded = 0;
    };
    log.info(`opening ${doc.uri.toString(true)}`);
    const changed = doc.onDidChange(() => {
      const s = doc.currentState;
      if (s.kind === 'failed' && state !== 'failed') log.error(`${doc.fileName}: could not be read: ${s.message}`);
      if (s.kind === 'loaded') {
        const snapshot = state !== 'loaded' ? doc.summary() : undefined;
        if (snapshot) {
          const v = snapshot.verdict;
          log.info(
            `${doc.fileName}: loaded ${snapshot.counts.events} events, ${snapshot.counts.turns} turns, ${snapshot.sizes.fileBytes} bytes in ${snapshot.loadMs} ms`,
          );
          if (!v.ok) log.warn(`${doc.fileName}: ${v.text}${v.dshText ? ` ${v.dshText}` : ''}`);
          if (snapshot.file.state !== 'following') log.warn(`${doc.fileName}: ${snapshot.file.explanation ?? snapshot.file.state}`);
          events = snapshot.counts.events;
        } else {
          const now = doc.view?.eventCount ?? events;
          if (now > events) {
            folded += now - events;
            events = now;
            foldTimer ??= setTimeout(flushAppends, APPEND_FOLD_MS);
          }
        }
      }
      state = s.kind;
    });
    const disposed = doc.onDidDispose(() => {
      clearTimeout(foldTimer);
      flushAppends();
      changed.dispose();
      disposed.dispose();
    });
    subscriptions.push(changed, disposed);
  };
  for (const doc of provider.documents.values()) follow(doc);
  subscriptions.push(provider.onDidOpenDocument(follow));
  return {
    dispose: () => {
      for (const s of subscriptions.splice(0)) s.dispose();
    },
  };
}
