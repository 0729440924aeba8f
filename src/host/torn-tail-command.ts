// "Remove Torn Tail…": the one command that shortens a log, after a modal that shows the tail and says
// what happens (a checked backup first; a zstd log's kept lines go back as one compressed frame). An
// earlier removal that was interrupted is completed first. Through the write layer: dsh's lock (waited
// for), the cut checked on the same descriptor right before it happens.
import * as vscode from 'vscode';
import { openTurnActivity } from '../core';
import { planTornTailRemoval, reviewTornTail } from '../core/internal';
import { bytesWords, tornTailHeading } from '../present/repair-words';
import { tailWhy } from '../present/core-words';
import { displayText, hostFormatter } from './words';
import { CRASH_REPAIR_COMMANDS, type RepairCommandContext } from './repair-command-context';

export function registerTornTailCommand(commands: RepairCommandContext): vscode.Disposable {
  return vscode.commands.registerCommand(CRASH_REPAIR_COMMANDS.removeTornTail, async (uri?: unknown) => {
    const target = await commands.open(uri);
    if (!target) return;
    const { where, opened, writes, name, file } = target;
    const refused = (message: string) =>
      commands.finish(
        { command: 'removeTornTail', file, done: false, message: vscode.l10n.t('Nothing removed: {0}', message) },
        where,
        false,
      );
    try {
      const completed = await writes.completeInterruptedRemoval(file, commands.guards(name));
      if (completed)
        return commands.finish(
          {
            command: 'removeTornTail',
            file,
            done: true,
            backupPath: completed.backupPath,
            message: vscode.l10n.t('Completed an interrupted removal of the torn tail of {0}. Backup: {1}', name, completed.backupPath),
          },
          where,
          true,
        );
    } catch (error) {
      return refused((error as Error).message);
    }
    const { log, zstd } = opened.loaded;
    const plan = planTornTailRemoval(log, opened.bytes, zstd);
    if (!plan.ok)
      return commands.finish(
        {
          command: 'removeTornTail',
          file,
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
      plan.keptText.length
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
    const msSinceChange = Date.now() - opened.mtimeMs;
    if (openTurnActivity(msSinceChange) === 'growing') {
      detail.push(
        '',
        vscode.l10n.t('Careful: the file changed {0} s ago; a writer may still be completing this line.', Math.round(msSinceChange / 1000)),
      );
    }
    const confirm = vscode.l10n.t('Back Up and Remove');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove the torn tail of {0}?', name),
      { modal: true, detail: detail.join('\n') },
      confirm,
    );
    if (choice !== confirm) {
      commands.report({ command: 'removeTornTail', file, done: false, message: 'cancelled' });
      return;
    }
    try {
      const done = await writes.removeTornTailFromFile(file, opened.bytes, plan, {
        ...commands.guards(name),
        // The modal said how recently the file changed: its yes is the answer.
        allowLive: async () => true,
        loadedMtimeMs: opened.mtimeMs,
        loadedId: opened.id,
      });
      await commands.finish(
        {
          command: 'removeTornTail',
          file,
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
      await refused((error as Error).message);
    }
  });
}
