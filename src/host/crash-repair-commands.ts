// "Apply Crash Repair", "Remove Torn Tail…" and "Close Interrupted Compaction…": the commands that
// write a log outside an edit, each only after a modal that says exactly what will happen, and each
// through the write layer (src/files): dsh's lock (waited for, with progress and Cancel), the checked
// append, the torn-tail cut with its backup. Files are read asynchronously through the file adapter.
import * as vscode from 'vscode';
import { confirmPendingEdit } from './authoring/auto-save';
import type { ReadLog } from '../files/crash-repair';
import { type OpenTurnReview, STILL_AFTER_MS } from '../core';
import { verdictError } from '../core/internal';
import { activityWords, bytesWords, closerCodeMeaning, closerLine, pendingCallLine } from '../present/repair-words';
import type { SessionEditorProvider } from './session-editor-provider';
import { hostPlatform } from './platform';
import { appendedByAnotherWriter, displayText, hostFormatter } from './words';
import { confirmLiveWrite, confirmUnlocked, waitForDshLock } from './write-prompts';
import { CRASH_REPAIR_COMMANDS, type CrashRepairOutcome, type RepairCommandContext, type RepairTarget } from './repair-command-context';
import { registerTornTailCommand } from './torn-tail-command';
import { registerCloseCompactionCommand } from './close-compaction-command';

export { CRASH_REPAIR_COMMANDS, type CrashRepairOutcome } from './repair-command-context';

export function registerCrashRepairCommands(
  context: vscode.ExtensionContext,
  provider: SessionEditorProvider,
  report: (outcome: CrashRepairOutcome) => void = () => {},
): void {
  const commands = new RepairCommandContextImpl(provider, report);
  context.subscriptions.push(
    vscode.commands.registerCommand(CRASH_REPAIR_COMMANDS.apply, (uri?: unknown) => applyCrashRepairCommand(commands, uri)),
    registerTornTailCommand(commands),
    registerCloseCompactionCommand(commands),
  );
}

class RepairCommandContextImpl implements RepairCommandContext {
  constructor(
    readonly provider: SessionEditorProvider,
    readonly report: (outcome: CrashRepairOutcome) => void,
  ) {}

  /** The command's file: an explicit URI, the focused session editor, or the active tab's file (a zstd log opens as a binary tab). */
  target(uri?: unknown): vscode.Uri | undefined {
    if (uri instanceof vscode.Uri) return uri;
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const tabUri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
    return this.provider.activeDocument?.uri ?? vscode.window.activeTextEditor?.document.uri ?? tabUri;
  }

  /** Reads the file for a command (asynchronously); says why when it cannot be written in place. */
  async read(uri: vscode.Uri): Promise<ReadLog | undefined> {
    const writes = uri.scheme === 'file' ? hostPlatform().local?.writes : undefined;
    if (!writes) {
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
      return await writes.readLog(uri.fsPath);
    } catch (error) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Cannot read {0}: {1}', uri.fsPath, (error as NodeJS.ErrnoException).code ?? (error as Error).message),
      );
      return undefined;
    }
  }

  async open(uri?: unknown): Promise<RepairTarget | undefined> {
    const where = this.target(uri);
    if (!where) return void vscode.window.showInformationMessage(vscode.l10n.t('Open a session log first.'));
    const opened = await this.read(where);
    const writes = hostPlatform().local?.writes;
    if (!opened || !writes) return undefined;
    return { where, opened, writes, name: baseName(where), file: opened.path };
  }

  guards(name: string) {
    return { waitForLock: waitForDshLock(name), allowUnlocked: confirmUnlocked(name), allowLive: confirmLiveWrite(name) };
  }

  async finish(outcome: CrashRepairOutcome, uri: vscode.Uri, reload: boolean): Promise<void> {
    this.report(outcome);
    if (reload) await this.provider.documents.get(uri.toString())?.reload();
    const show = outcome.done ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(outcome.message);
  }
}

const baseName = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);

async function applyCrashRepairCommand(commands: RepairCommandContextImpl, uri?: unknown): Promise<void> {
  const target = await commands.open(uri);
  if (!target) return;
  const { where, opened, writes, name, file } = target;
  // In the session editor the closers become a pending edit of the document: Undo takes them back,
  // Save appends them (planned again on the file as it is then).
  const active = commands.provider.activeDocument;
  const editing = active?.uri.toString() === where.toString() && active.editable ? active : undefined;
  let cancelled = false;
  let pending = false;
  const result = await writes.applyCrashRepair(opened, {
    ...commands.guards(name),
    // The modal below already says how recently the file changed: its yes is the answer.
    allowLive: () => true,
    confirm: async ({ review, write, activity, msSinceChange }) => {
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
      const detail = reviewDetail(
        review,
        activityWords(activity, msSinceChange, hostFormatter()),
        write.lines.length,
        write.bytes.length,
        write.container,
      );
      // A pending edit may be written by auto-save: its confirmation says so (./authoring/auto-save.ts).
      const confirmed = editing
        ? await confirmPendingEdit({ message: heading, detail, confirm, warning: true })
        : (await vscode.window.showWarningMessage(heading, { modal: true, detail }, confirm)) === confirm;
      if (!confirmed) {
        cancelled = true;
        return false;
      }
      if (editing) {
        pending = true;
        editing.edits.apply({ kind: 'repair' });
        void vscode.window.showInformationMessage(
          hostFormatter().counted(
            write.lines.length,
            'The crash repair of {1} is a pending edit: Save appends its {0} closer, Undo takes it back.',
            'The crash repair of {1} is a pending edit: Save appends its {0} closers, Undo takes it back.',
            name,
          ),
        );
        return false;
      }
      return true;
    },
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
  switch (result.kind) {
    case 'refused': {
      const tornFirst = result.reasons.some((r) => r.rule === 'repair.torn-tail-first');
      const message = vscode.l10n.t('{0} cannot be repaired yet: {1}', name, result.reasons.map(displayText).join('; '));
      commands.report({ command: 'apply', file, done: false, message });
      if (!tornFirst) return void vscode.window.showWarningMessage(message);
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} cannot be repaired yet', name),
        { modal: true, detail: result.reasons.map(displayText).join('\n') },
        vscode.l10n.t('Remove Torn Tail…'),
      );
      if (choice) await vscode.commands.executeCommand(CRASH_REPAIR_COMMANDS.removeTornTail, where);
      return;
    }
    case 'closed':
      return commands.finish(
        {
          command: 'apply',
          file,
          done: false,
          message: vscode.l10n.t('The last turn of {0} is closed: there is nothing to repair.', name),
        },
        where,
        false,
      );
    case 'declined':
      commands.report({ command: 'apply', file, done: pending, message: pending ? 'pending' : cancelled ? 'cancelled' : 'declined' });
      return;
    case 'not-saved':
      return commands.finish(
        {
          command: 'apply',
          file,
          done: false,
          message: vscode.l10n.t(
            'Nothing was repaired: {0}',
            `${result.message}${result.reasons.length ? ` (${result.reasons.map(displayText).join('; ')})` : ''}`,
          ),
        },
        where,
        false,
      );
  }
  const message = result.replanned
    ? hostFormatter().counted(
        result.closers,
        'Appended {0} closer to {1} after the events another writer added.',
        'Appended {0} closers to {1} after the events another writer added.',
        name,
      )
    : result.good
      ? hostFormatter().counted(
          result.closers,
          'Appended {0} closer to {1}: turn {2} now ends as interrupted, and dsh loads the log.',
          'Appended {0} closers to {1}: turn {2} now ends as interrupted, and dsh loads the log.',
          name,
          result.review.turn ?? '?',
        )
      : hostFormatter().counted(
          result.closers,
          'Appended {0} closer to {1}, but the file does not read back as predicted ({2}).',
          'Appended {0} closers to {1}, but the file does not read back as predicted ({2}).',
          name,
          result.verdict.ok ? vscode.l10n.t('the last turn is still open') : displayText(verdictError(result.verdict) ?? { message: '' }),
        );
  const syncNote = result.syncError
    ? ` ${vscode.l10n.t('The disk did not confirm the write (fsync: {0}): it may not survive a crash.', result.syncError)}`
    : '';
  await commands.finish(
    { command: 'apply', file, done: result.good || result.replanned !== undefined, message: message + syncNote },
    where,
    false,
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
