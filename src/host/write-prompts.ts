// What the editor asks while it writes a log (the CLI answers the same questions with flags): wait for
// a running dsh to let go of the session (progress with Cancel), write to a log that changed moments
// ago where dsh takes no lock (--force), write without dsh's lock where it cannot be taken here.
import * as vscode from 'vscode';
import { STILL_AFTER_MS } from '../core';

const POLL_MS = 1000;

/** Waits for dsh's lock with a cancellable progress notification; true once `retry` took it. */
export function waitForDshLock(fileName: string): (retry: () => Promise<boolean>) => Promise<boolean> {
  return (retry) =>
    Promise.resolve(
      vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          cancellable: true,
          title: vscode.l10n.t('Waiting for dsh to close the session of {0}', fileName),
        },
        async (progress, token) => {
          progress.report({
            message: vscode.l10n.t('a running dsh holds the session lock and may append at any moment; the write waits until it lets go'),
          });
          while (!token.isCancellationRequested) {
            if (await retry()) return true;
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          }
          return false;
        },
      ),
    );
}

/** Asks before writing to a log another writer changed `ms` ago where no dsh lock covers the write. */
export function confirmLiveWrite(fileName: string): (ms: number) => Promise<boolean> {
  return async (ms) => {
    const write = vscode.l10n.t('Write Anyway');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} changed {1} s ago', fileName, Math.max(0, Math.round(ms / 1000))),
      {
        modal: true,
        detail: vscode.l10n.t(
          'An agent may still be writing it, and dsh 0.1.2 and older take no lock that would keep its next append from racing this write. Write only if no agent is writing this session, or wait until the file has been still for {0} s.',
          STILL_AFTER_MS / 1000,
        ),
      },
      write,
    );
    return choice === write;
  };
}

/** Asks before writing without dsh's lock, which cannot be taken on this system (`why` says why). */
export function confirmUnlocked(fileName: string): (why: string) => Promise<boolean> {
  return async (why) => {
    const write = vscode.l10n.t('Write Without the Lock');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('The session lock of {0} cannot be taken', fileName),
      {
        modal: true,
        detail: vscode.l10n.t('{0}. Write only if no dsh has this session open.', why),
      },
      write,
    );
    return choice === write;
  };
}
