// "Close Interrupted Compaction…": a compaction/start left without its compaction/end (a save that a
// crash or a full disk cut short) keeps every later compaction refused. This appends the
// compaction/end that closes it — as a failed attempt, the way dsh's compactor closes one, or as
// completed when its summary and replacement were written — after a modal; in the session editor it
// becomes a pending edit (Save appends it, Undo takes it back).
import * as vscode from 'vscode';
import { confirmPendingEdit } from './authoring/auto-save';
import { openCompactionStart, PendingEdits } from '../core';
import { identityOf } from '../files/file-identity';
import { displayText } from './words';
import { CRASH_REPAIR_COMMANDS, type RepairCommandContext } from './repair-command-context';

export function registerCloseCompactionCommand(commands: RepairCommandContext): vscode.Disposable {
  return vscode.commands.registerCommand(CRASH_REPAIR_COMMANDS.closeCompaction, async (uri?: unknown) => {
    const chosen = await commands.open(uri);
    if (!chosen) return;
    const { where, opened, writes, name, file } = chosen;
    const start = openCompactionStart(opened.loaded.log);
    if (start === undefined)
      return commands.finish(
        {
          command: 'closeCompaction',
          file,
          done: false,
          message: vscode.l10n.t('No compaction of {0} is in progress: nothing to close.', name),
        },
        where,
        false,
      );
    const active = commands.provider.activeDocument;
    const editing = active?.uri.toString() === where.toString() && active.editable ? active : undefined;
    const confirm = editing ? vscode.l10n.t('Add as Pending Edit') : vscode.l10n.t('Append compaction/end');
    const message = vscode.l10n.t('Close the interrupted compaction of {0}?', name);
    const detail = vscode.l10n.t(
      'compaction/start at seq {0} has no compaction/end, so every later compaction is refused ("compaction already in progress"). A compaction/end for it is appended: as failed, the way dsh closes a failed attempt, or as completed when its summary and replacement were written.',
      start,
    );
    // A pending edit may be written by auto-save: its confirmation says so (./authoring/auto-save.ts).
    const confirmed = editing
      ? await confirmPendingEdit({ message, detail, confirm, warning: true })
      : (await vscode.window.showWarningMessage(message, { modal: true, detail }, confirm)) === confirm;
    if (!confirmed) return commands.report({ command: 'closeCompaction', file, done: false, message: 'cancelled' });
    if (editing) {
      editing.edits.apply({ kind: 'close-compaction' });
      return commands.report({ command: 'closeCompaction', file, done: true, message: 'pending' });
    }
    const edits = new PendingEdits(opened.loaded.log.eventCount);
    edits.push({ kind: 'close-compaction' });
    const target = { loaded: opened.loaded, identity: identityOf(opened.bytes, opened.mtimeMs, opened.id) };
    const saved = await writes.saveEdits(file, target, edits, commands.guards(name));
    await commands.finish(
      saved.ok
        ? {
            command: 'closeCompaction',
            file,
            done: true,
            message: vscode.l10n.t('Closed the interrupted compaction of {0} (compaction/end at seq {1}).', name, saved.firstSeq),
          }
        : {
            command: 'closeCompaction',
            file,
            done: false,
            message: vscode.l10n.t(
              'Nothing was closed: {0}',
              `${saved.message}${saved.reasons.length ? ` (${saved.reasons.map(displayText).join('; ')})` : ''}`,
            ),
          },
      where,
      true,
    );
  });
}
