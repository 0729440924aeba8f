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
import type { SessionEditorProvider } from './session-editor-provider';

export const CRASH_REPAIR_COMMANDS = {
  apply: 'sessionSurface.applyCrashRepair',
  removeTornTail: 'sessionSurface.removeTornTail',
} as const;

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

export function registerCrashRepairCommands(context: vscode.ExtensionContext, provider: SessionEditorProvider, report: (outcome: CrashRepairOutcome) => void = () => {}): void {
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
      void vscode.window.showErrorMessage(`Session Surface writes logs only on the local file system; ${uri.toString()} is on "${uri.scheme}", which cannot append in place.`);
      return undefined;
    }
    try {
      const bytes = new Uint8Array(readFileSync(uri.fsPath));
      const mtimeMs = statSync(uri.fsPath).mtimeMs;
      return { file: uri.fsPath, bytes, loaded: loadSessionFile(bytes, { fileName: uri.fsPath }), mtimeMs, msSinceChange: Date.now() - mtimeMs };
    } catch (error) {
      void vscode.window.showErrorMessage(`Cannot read ${uri.fsPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
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
      if (!where) return void vscode.window.showInformationMessage('Open a session log first.');
      const opened = read(where);
      if (!opened) return;
      const name = path.basename(opened.file);
      const { log, zstd } = opened.loaded;
      const review = reviewOpenTurn(log);
      const write = planCrashRepairWrite(log, zstd);
      if (!write.ok) {
        const tornFirst = write.reasons.some((r) => r.rule === 'repair.torn-tail-first');
        const message = `${name} cannot be repaired yet: ${write.reasons.map((r) => r.message).join('; ')}`;
        report({ command: 'apply', file: opened.file, done: false, message });
        if (!tornFirst) return void vscode.window.showWarningMessage(message);
        const choice = await vscode.window.showWarningMessage(`${name} cannot be repaired yet`, { modal: true, detail: write.reasons.map((r) => r.message).join('\n') }, 'Remove Torn Tail…');
        if (choice) await vscode.commands.executeCommand(CRASH_REPAIR_COMMANDS.removeTornTail, where);
        return;
      }
      if (!review || write.lines.length === 0) {
        return finish({ command: 'apply', file: opened.file, done: false, message: `The last turn of ${name} is closed: there is nothing to repair.` }, where, false);
      }
      const activity = openTurnActivity(opened.msSinceChange);
      // In the session editor the closers become a pending edit of the document: Undo takes them back,
      // Save appends them (planned again on the file as it is then).
      const active = provider.activeDocument;
      const editing = active?.uri.toString() === where.toString() && active.editable ? active : undefined;
      const confirm = activity === 'growing' ? 'Repair Anyway' : editing ? 'Add as Pending Edit' : 'Append Closers';
      const heading = activity === 'growing'
        ? `${name} is still changing. Append the crash repair anyway?`
        : `Append the crash repair to ${name}?`;
      const choice = await vscode.window.showWarningMessage(heading, { modal: true, detail: reviewDetail(review, activityWords(activity, opened.msSinceChange), write.lines.length, write.bytes.length, write.container) }, confirm);
      if (choice !== confirm) {
        report({ command: 'apply', file: opened.file, done: false, message: 'cancelled' });
        return;
      }
      if (editing) {
        await provider.authoring.for(editing).apply({ kind: 'repair' });
        report({ command: 'apply', file: opened.file, done: true, message: 'pending' });
        void vscode.window.showInformationMessage(`The crash repair of ${name} is a pending edit: Save appends its ${write.lines.length} closers, Undo takes it back.`);
        return;
      }
      // The safe save path shared with authoring: identity check, append mode, fsync, read back. If an
      // agent appended since the review, the closers are planned again on the new tail and asked about.
      const edits = new PendingEdits(log.eventCount);
      edits.push({ kind: 'repair' });
      const saved = await saveEdits(opened.file, editableFromBytes(opened.loaded, opened.bytes, opened.mtimeMs), edits, {
        confirmReplan: async (info) => {
          const again = await vscode.window.showWarningMessage(`${name} grew since it was reviewed`, {
            modal: true,
            detail: `Another writer appended ${info.foreignEvents} event(s) (${info.foreignBytes} bytes): an agent may still be writing this session. The turn is still open, and its closers were planned again as seqs ${info.firstSeq}–${info.firstSeq + info.lines.length - 1}. Append them now?`,
          }, 'Append');
          return again === 'Append';
        },
      });
      if (!saved.ok) {
        return finish({ command: 'apply', file: opened.file, done: false, message: `Nothing was repaired: ${saved.message}${saved.reasons.length ? ` (${saved.reasons.map((r) => r.message).join('; ')})` : ''}` }, where, false);
      }
      if (saved.replanned) {
        return finish({ command: 'apply', file: opened.file, done: true, message: `Appended ${saved.lines.length} closers to ${name} after the events another writer added.` }, where, false);
      }
      const after = new Uint8Array(readFileSync(opened.file));
      const predicted = bytesAfterWrite(opened.bytes, write);
      const same = after.length === predicted.length && after.every((b, i) => b === predicted[i]);
      const reloaded = loadSessionFile(after).log;
      const good = same && reloaded.verdict.ok && !reloaded.lastTurnOpen;
      await finish({
        command: 'apply',
        file: opened.file,
        done: good,
        message: good
          ? `Appended ${write.lines.length} closers to ${name}: turn ${review.turn ?? '?'} now ends as interrupted, and dsh loads the log.`
          : `Appended ${write.lines.length} closers to ${name}, but the file does not read back as predicted (${reloaded.verdict.ok ? 'the last turn is still open' : reloaded.verdict.error}).`,
      }, where, false);
    }),

    vscode.commands.registerCommand(CRASH_REPAIR_COMMANDS.removeTornTail, async (uri?: unknown) => {
      const where = target(uri);
      if (!where) return void vscode.window.showInformationMessage('Open a session log first.');
      const opened = read(where);
      if (!opened) return;
      const name = path.basename(opened.file);
      const { log, zstd } = opened.loaded;
      const plan = planTornTailRemoval(log, opened.bytes, zstd);
      if (!plan.ok) return finish({ command: 'removeTornTail', file: opened.file, done: false, message: `Nothing removed from ${name}: ${plan.reasons.map((r) => r.message).join('; ')}.` }, where, false);
      const tail = reviewTornTail(log, { fileBytes: opened.bytes, zstd });
      const detail: string[] = [];
      if (tail) detail.push(tornTailHeading(tail), `Why: ${tail.why}.`, `Preview: ${tail.preview}${tail.previewTruncated ? ' …' : ''}`);
      else detail.push(`${bytesWords(plan.removedBytes)} after the last complete record.`);
      detail.push('', `A backup copy of the whole file is written beside it first and checked byte for byte. Then the file is cut from ${opened.bytes.length} to ${plan.cutAt} bytes${plan.reappend.length ? `, and the ${bytesWords(plan.rewrittenTextBytes)} of complete lines of the cut frame are appended again as one frame` : ''}. Every event the session holds stays.`);
      if (openTurnActivity(opened.msSinceChange) === 'growing') detail.push('', `Careful: the file changed ${Math.round(opened.msSinceChange / 1000)} s ago; a writer may still be completing this line.`);
      const confirm = 'Back Up and Remove';
      const choice = await vscode.window.showWarningMessage(`Remove the torn tail of ${name}?`, { modal: true, detail: detail.join('\n') }, confirm);
      if (choice !== confirm) {
        report({ command: 'removeTornTail', file: opened.file, done: false, message: 'cancelled' });
        return;
      }
      try {
        const done = removeTornTailFromFile(opened.file, opened.bytes, plan);
        await finish({ command: 'removeTornTail', file: opened.file, done: true, backupPath: done.backupPath, message: `Removed the torn tail of ${name} (${bytesWords(plan.removedBytes)}). Backup: ${done.backupPath}` }, where, true);
      } catch (error) {
        if (!(error instanceof FileChangedError) && !(error instanceof BackupError)) throw error;
        await finish({ command: 'removeTornTail', file: opened.file, done: false, message: `Nothing removed: ${error.message}` }, where, false);
      }
    }),
  );
}

function reviewDetail(review: OpenTurnReview, activity: string, closers: number, bytes: number, container: 'plain' | 'zstd'): string {
  const lines = [`Turn ${review.turn ?? '?'} is open${review.openStep !== undefined ? ` (step ${review.openStep})` : ''}: ${activity}.`, ''];
  if (review.pendingCalls.length === 0) lines.push('No tool call is pending.');
  for (const call of review.pendingCalls) lines.push(`• ${pendingCallLine(call)}`, `  ${closerCodeMeaning(call.code)}.`);
  lines.push('', `Appends ${closers} closers (${bytesWords(bytes)}${container === 'zstd' ? ', one zstd frame' : ''}) after checking that the file still holds what was reviewed:`);
  for (const closer of review.closers) lines.push(`• ${closerLine(closer, review)}`);
  lines.push('', `An open turn whose file still changes (within ${STILL_AFTER_MS / 1000} s) is more likely a live agent than a crash.`);
  return lines.join('\n');
}
