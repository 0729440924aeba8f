// "Apply Crash Repair" and "Remove Torn Tail…": the two commands that write a log, each only after a
// modal that says exactly what will happen. The closers are appended through an append-mode handle
// after checking that the file still holds what the review was made from; removing a torn tail first
// writes a backup beside the file and checks that its bytes equal the original.
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadSessionFile, type LoadedFile } from '../core/read/load-file';
import { reviewOpenTurn, type OpenTurnReview } from '../core/surface/crash-review';
import { reviewTornTail } from '../core/surface/torn-tail';
import { openTurnActivity, STILL_AFTER_MS } from '../core/surface/liveness';
import { planCrashRepairWrite, bytesAfterWrite } from '../core/plan/crash-repair-write';
import { planTornTailRemoval } from '../core/plan/torn-tail-removal';
import { FileChangedError } from '../files/append-file';
import { editableFromBytes } from '../files/editable';
import { saveEdits } from '../save/append-save';
import { PendingEdits } from '../core/plan/pending-edits';
import { BackupError, removeTornTailFromFile } from '../files/torn-tail-file';
import { activityWords, bytesWords, closerCodeMeaning, closerLine, pendingCallLine, tornTailHeading } from '../present/repair-words';
import { tailWhy } from '../present/core-words';
import { verdictError } from '../core/read/verdict';
import type { SessionEditorProvider } from './session-editor-provider';
import { appendedByAnotherWriter, displayText, hostFormatter } from './words';
import { CRASH_REPAIR_COMMANDS } from './crash-repair-ids';

/** What a command last did, for the in-host tests and the end-to-end tests' log. */
export interface CrashRepairOutcome {
  command: 'apply' | 'removeTornTail';
  file: string;
  done: boolean;
  message: string;
  backupPath?: string;
}

interface Read {
  file: string;
  bytes: Uint8Array;
  loaded: LoadedFile;
  mtimeMs: number;
  msSinceChange: number;
}

export function registerCrashRepairCommands(
  context: vscode.ExtensionContext,
  provider: SessionEditorProvider,
  report: (outcome: CrashRepairOutcome) => void = () => {},
): void {
  /** The command's file: an explicit URI, the focused session editor, or the active tab's file (a zstd log opens as a binary tab). */
  const target = (uri?: unknown): vscode.Uri | undefined => {
    if (uri instanceof vscode.Uri) return uri;
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const tabUri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
    return provider.activeDocument?.uri ?? vscode.window.activeTextEditor?.document.uri ?? tabUri;
  };

  /** Reads the file for a command; says why when it cannot be written in place. */
  const read = (uri: vscode.Uri): Read | undefined => {
    if (uri.scheme !== 'file') {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          'Session Surface writes logs only on the local file system; {0} is on "{1}", which cannot append in place.',
          uri.toString(),
          uri.scheme,
        ),
      );
      return undefined;
    }
    try {
      const bytes = new Uint8Array(readFileSync(uri.fsPath));
      const mtimeMs = statSync(uri.fsPath).mtimeMs;
      return {
        file: uri.fsPath,
        bytes,
        loaded: loadSessionFile(bytes, { fileName: uri.fsPath }),
        mtimeMs,
        msSinceChange: Date.now() - mtimeMs,
      };
    } catch (error) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Cannot read {0}: {1}', uri.fsPath, (error as NodeJS.ErrnoException).code ?? (error as Error).message),
      );
      return undefined;
    }
  };

  const finish = async (outcome: CrashRepairOutcome, uri: vscode.Uri, reload: boolean): Promise<void> => {
    report(outcome);
    if (reload) await provider.documents.get(uri.toString())?.reload();
    const show = outcome.done ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(outcome.message);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(CRASH_REPAIR_COMMANDS.apply, async (uri?: unknown) => {
      const where = target(uri);
      if (!where) return void vscode.window.showInformationMessage(vscode.l10n.t('Open a session log first.'));
      const opened = read(where);
      if (!opened) return;
      const name = path.basename(opened.file);
      const { log, zstd } = opened.loaded;
      const review = reviewOpenTurn(log);
      const write = planCrashRepairWrite(log, zstd);
      if (!write.ok) {
        const tornFirst = write.reasons.some((r) => r.rule === 'repair.torn-tail-first');
        const message = vscode.l10n.t('{0} cannot be repaired yet: {1}', name, write.reasons.map(displayText).join('; '));
        report({ command: 'apply', file: opened.file, done: false, message });
        if (!tornFirst) return void vscode.window.showWarningMessage(message);
        const choice = await vscode.window.showWarningMessage(
          vscode.l10n.t('{0} cannot be repaired yet', name),
          { modal: true, detail: write.reasons.map(displayText).join('\n') },
          vscode.l10n.t('Remove Torn Tail…'),
        );
        if (choice) await vscode.commands.executeCommand(CRASH_REPAIR_COMMANDS.removeTornTail, where);
        return;
      }
      if (!review || write.lines.length === 0) {
        return finish(
          {
            command: 'apply',
            file: opened.file,
            done: false,
            message: vscode.l10n.t('The last turn of {0} is closed: there is nothing to repair.', name),
          },
          where,
          false,
        );
      }
      const activity = openTurnActivity(opened.msSinceChange);
      // In the session editor the closers become a pending edit of the document: Undo takes them back,
      // Save appends them (planned again on the file as it is then).
      const active = provider.activeDocument;
      const editing = active?.uri.toString() === where.toString() && active.editable ? active : undefined;
      const confirm =
        activity === 'growing'
          ? vscode.l10n.t('Repair Anyway')
          : editing
            ? vscode.l10n.t('Add as Pending Edit')
            : vscode.l10n.t('Append Closers');
      const heading =
        activity === 'growing'
          ? vscode.l10n.t('{0} is still changing. Append the crash repair anyway?', name)
          : vscode.l10n.t('Append the crash repair to {0}?', name);
      const choice = await vscode.window.showWarningMessage(
        heading,
        {
          modal: true,
          detail: reviewDetail(
            review,
            activityWords(activity, opened.msSinceChange, hostFormatter()),
            write.lines.length,
            write.bytes.length,
            write.container,
          ),
        },
        confirm,
      );
      if (choice !== confirm) {
        report({ command: 'apply', file: opened.file, done: false, message: 'cancelled' });
        return;
      }
      if (editing) {
        await provider.authoring.for(editing).apply({ kind: 'repair' });
        report({ command: 'apply', file: opened.file, done: true, message: 'pending' });
        void vscode.window.showInformationMessage(
          hostFormatter().counted(
            write.lines.length,
            'The crash repair of {1} is a pending edit: Save appends its {0} closer, Undo takes it back.',
            'The crash repair of {1} is a pending edit: Save appends its {0} closers, Undo takes it back.',
            name,
          ),
        );
        return;
      }
      // The safe save path shared with authoring: identity check, append mode, fsync, read back. If an
      // agent appended since the review, the closers are planned again on the new tail and asked about.
      const edits = new PendingEdits(log.eventCount);
      edits.push({ kind: 'repair' });
      const saved = await saveEdits(opened.file, editableFromBytes(opened.loaded, opened.bytes, opened.mtimeMs), edits, {
        confirmReplan: async (info) => {
          const append = vscode.l10n.t('Append');
          const again = await vscode.window.showWarningMessage(
            vscode.l10n.t('{0} grew since it was reviewed', name),
            {
              modal: true,
              detail: vscode.l10n.t(
                '{0}: an agent may still be writing this session. The turn is still open, and its closers were planned again as seqs {1}–{2}. Append them now?',
                appendedByAnotherWriter(info.foreignEvents, info.foreignBytes),
                info.firstSeq,
                info.firstSeq + info.lines.length - 1,
              ),
            },
            append,
          );
          return again === append;
        },
      });
      if (!saved.ok) {
        return finish(
          {
            command: 'apply',
            file: opened.file,
            done: false,
            message: vscode.l10n.t(
              'Nothing was repaired: {0}',
              `${saved.message}${saved.reasons.length ? ` (${saved.reasons.map(displayText).join('; ')})` : ''}`,
            ),
          },
          where,
          false,
        );
      }
      if (saved.replanned) {
        return finish(
          {
            command: 'apply',
            file: opened.file,
            done: true,
            message: hostFormatter().counted(
              saved.lines.length,
              'Appended {0} closer to {1} after the events another writer added.',
              'Appended {0} closers to {1} after the events another writer added.',
              name,
            ),
          },
          where,
          false,
        );
      }
      const after = new Uint8Array(readFileSync(opened.file));
      const predicted = bytesAfterWrite(opened.bytes, write);
      const same = after.length === predicted.length && after.every((b, i) => b === predicted[i]);
      const reloaded = loadSessionFile(after).log;
      const good = same && reloaded.verdict.ok && !reloaded.lastTurnOpen;
      await finish(
        {
          command: 'apply',
          file: opened.file,
          done: good,
          message: good
            ? hostFormatter().counted(
                write.lines.length,
                'Appended {0} closer to {1}: turn {2} now ends as interrupted, and dsh loads the log.',
                'Appended {0} closers to {1}: turn {2} now ends as interrupted, and dsh loads the log.',
                name,
                review.turn ?? '?',
              )
            : hostFormatter().counted(
                write.lines.length,
                'Appended {0} closer to {1}, but the file does not read back as predicted ({2}).',
                'Appended {0} closers to {1}, but the file does not read back as predicted ({2}).',
                name,
                reloaded.verdict.ok
                  ? vscode.l10n.t('the last turn is still open')
                  : displayText(verdictError(reloaded.verdict) ?? { message: '' }),
              ),
        },
        where,
        false,
      );
    }),

    vscode.commands.registerCommand(CRASH_REPAIR_COMMANDS.removeTornTail, async (uri?: unknown) => {
      const where = target(uri);
      if (!where) return void vscode.window.showInformationMessage(vscode.l10n.t('Open a session log first.'));
      const opened = read(where);
      if (!opened) return;
      const name = path.basename(opened.file);
      const { log, zstd } = opened.loaded;
      const plan = planTornTailRemoval(log, opened.bytes, zstd);
      if (!plan.ok)
        return finish(
          {
            command: 'removeTornTail',
            file: opened.file,
            done: false,
            message: vscode.l10n.t('Nothing removed from {0}: {1}.', name, plan.reasons.map(displayText).join('; ')),
          },
          where,
          false,
        );
      const tail = reviewTornTail(log, { fileBytes: opened.bytes, zstd });
      const detail: string[] = [];
      if (tail)
        detail.push(
          tornTailHeading(tail, hostFormatter()),
          vscode.l10n.t('Why: {0}.', tailWhy(tail, hostFormatter())),
          vscode.l10n.t('Preview: {0}', `${tail.preview}${tail.previewTruncated ? ' …' : ''}`),
        );
      else detail.push(vscode.l10n.t('{0} after the last complete record.', bytesWords(plan.removedBytes, hostFormatter())));
      detail.push(
        '',
        plan.reappend.length
          ? vscode.l10n.t(
              'A backup copy of the whole file is written beside it first and checked byte for byte. Then the file is cut from {0} to {1} bytes, and the {2} of complete lines of the cut frame are appended again as one frame. Every event the session holds stays.',
              opened.bytes.length,
              plan.cutAt,
              bytesWords(plan.rewrittenTextBytes, hostFormatter()),
            )
          : vscode.l10n.t(
              'A backup copy of the whole file is written beside it first and checked byte for byte. Then the file is cut from {0} to {1} bytes. Every event the session holds stays.',
              opened.bytes.length,
              plan.cutAt,
            ),
      );
      if (openTurnActivity(opened.msSinceChange) === 'growing') {
        detail.push(
          '',
          vscode.l10n.t(
            'Careful: the file changed {0} s ago; a writer may still be completing this line.',
            Math.round(opened.msSinceChange / 1000),
          ),
        );
      }
      const confirm = vscode.l10n.t('Back Up and Remove');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Remove the torn tail of {0}?', name),
        { modal: true, detail: detail.join('\n') },
        confirm,
      );
      if (choice !== confirm) {
        report({ command: 'removeTornTail', file: opened.file, done: false, message: 'cancelled' });
        return;
      }
      try {
        const done = removeTornTailFromFile(opened.file, opened.bytes, plan);
        await finish(
          {
            command: 'removeTornTail',
            file: opened.file,
            done: true,
            backupPath: done.backupPath,
            message: vscode.l10n.t(
              'Removed the torn tail of {0} ({1}). Backup: {2}',
              name,
              bytesWords(plan.removedBytes, hostFormatter()),
              done.backupPath,
            ),
          },
          where,
          true,
        );
      } catch (error) {
        if (!(error instanceof FileChangedError) && !(error instanceof BackupError)) throw error;
        await finish(
          { command: 'removeTornTail', file: opened.file, done: false, message: vscode.l10n.t('Nothing removed: {0}', error.message) },
          where,
          false,
        );
      }
    }),
  );
}

function reviewDetail(review: OpenTurnReview, activity: string, closers: number, bytes: number, container: 'plain' | 'zstd'): string {
  const turn = review.turn ?? '?';
  const open =
    review.openStep !== undefined
      ? vscode.l10n.t('Turn {0} is open (step {1}): {2}.', turn, review.openStep, activity)
      : vscode.l10n.t('Turn {0} is open: {1}.', turn, activity);
  const lines = [open, ''];
  if (review.pendingCalls.length === 0) lines.push(vscode.l10n.t('No tool call is pending.'));
  for (const call of review.pendingCalls)
    lines.push(
      `• ${pendingCallLine(call, hostFormatter())}`,
      // The meaning ends a sentence here; the full stop is the display language's.
      `  ${vscode.l10n.t('{0}.', closerCodeMeaning(call.code, hostFormatter()))}`,
    );
  lines.push(
    '',
    container === 'zstd'
      ? hostFormatter().counted(
          closers,
          'Appends {0} closer ({1}, one zstd frame) after checking that the file still holds what was reviewed:',
          'Appends {0} closers ({1}, one zstd frame) after checking that the file still holds what was reviewed:',
          bytesWords(bytes, hostFormatter()),
        )
      : hostFormatter().counted(
          closers,
          'Appends {0} closer ({1}) after checking that the file still holds what was reviewed:',
          'Appends {0} closers ({1}) after checking that the file still holds what was reviewed:',
          bytesWords(bytes, hostFormatter()),
        ),
  );
  for (const closer of review.closers) lines.push(`• ${closerLine(closer, review, hostFormatter())}`);
  lines.push(
    '',
    vscode.l10n.t('An open turn whose file still changes (within {0} s) is more likely a live agent than a crash.', STILL_AFTER_MS / 1000),
  );
  return lines.join('\n');
}
