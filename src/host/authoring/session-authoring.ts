// The pending edits of one open session document, as VS Code document edits: applying one makes the
// editor dirty and gives Undo/Redo something to walk; Save appends them through the safe save path;
// Revert drops them; hot exit backs them up as JSON (planner inputs, not lines, so they are planned
// again on whatever the file holds when the window comes back). Once saved, appended events are
// history: Undo of a saved edit never touches the file and says why.
import * as vscode from 'vscode';
import { loadSessionFile, PendingEdits, type PendingEdit, type PendingPlan, type SessionLog } from '../../core';
import type { SaveOutcome } from '../../files/append-save';
import { hostPlatform } from '../platform';
import { confirmLiveWrite, confirmUnlocked, waitForDshLock } from '../write-prompts';
import { editTitle, previewEdit, type EditPreview } from '../../present/edit-preview';
import { appendedByAnotherWriter, displayText, hostFormatter } from '../words';
import { readWholeFile } from '../file-access';
import type { SessionDocument } from '../session-document';

export interface PendingEventView {
  seq: number;
  type: string;
  /** The edit that plans it ("Compact seqs 3–10"). */
  edit: string;
}

/** Why saving is impossible for a URI, or undefined when it can append. */
export function cannotAppendReason(uri: vscode.Uri): string | undefined {
  if (uri.scheme === 'file' && hostPlatform().local) return undefined;
  return vscode.l10n.t(
    '{0} is on a virtual file system ({1}:), which can only replace whole files. A session log is saved by appending to it, never by rewriting it, so edits to it cannot be saved.',
    uri.toString(true),
    uri.scheme,
  );
}

export class SessionAuthoring implements vscode.Disposable {
  private edits: PendingEdits | undefined;
  /**
   * Bumped by every save and revert. An undo entry made in an earlier epoch belongs to edits that are
   * history (saved) or gone (reverted): it stays in VS Code's stack but must not act.
   */
  private epoch = 0;
  private readonly epochEnd = new Map<number, 'saved' | 'reverted'>();
  private plannedEvents: PendingEventView[] = [];
  /**
   * The log's size when the user last reviewed the pending edits (a preview they applied). Events the
   * document folds in after that were written by someone else: saving must ask before writing the
   * edits over them.
   */
  private reviewed: { events: number; bytes: number } | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Pending events changed (for the webview). */
  readonly onDidChangePending = this.changed.event;

  constructor(
    private readonly document: SessionDocument,
    private readonly fireEdit: (edit: vscode.CustomDocumentEditEvent<SessionDocument>) => void,
  ) {}

  get pendingCount(): number {
    return this.edits?.count ?? 0;
  }

  get pendingEvents(): readonly PendingEventView[] {
    return this.plannedEvents;
  }

  private log(): SessionLog {
    const log = this.document.editable?.loaded.log;
    if (!log) throw new Error(`${this.document.fileName} is still loading`);
    return log;
  }

  /**
   * The pending edits, their seqs moved up past whatever a writer appended since they were made (the
   * document folds appends in as they come), so new edits and old ones count seqs from the same base.
   */
  private model(): PendingEdits {
    const count = this.log().eventCount;
    this.edits ??= new PendingEdits(count);
    if (count > this.edits.base) this.edits.rebase(count);
    return this.edits;
  }

  /** A fresh copy of the loaded log from the file (for edits that build on each other). */
  private async forkFactory(): Promise<() => SessionLog> {
    const size = this.document.editable?.identity.size ?? 0;
    const bytes = (await readWholeFile(this.document.uri)).subarray(0, size);
    return () => loadSessionFile(bytes).log;
  }

  /** The log as the user sees it: the loaded log plus every pending edit (a copy when edits are pending). */
  async logWithPending(): Promise<SessionLog> {
    if (this.pendingCount === 0) return this.log();
    const fork = await this.forkFactory();
    const plan = this.model().plan({ log: this.log(), fork });
    const copy = fork();
    if (plan.ok) copy.append(plan.events as never);
    return copy;
  }

  /** Plans `edit` on top of the pending edits and describes what it would do. */
  async preview(edit: PendingEdit): Promise<EditPreview> {
    const before = await this.logWithPending();
    const single = new PendingEdits(before.eventCount);
    single.push(edit);
    const plan: PendingPlan = single.plan({ log: before });
    let after: SessionLog | undefined;
    if (plan.ok) {
      after = before === this.log() ? (await this.forkFactory())() : await this.logWithPending();
      after.append(plan.events as never);
    }
    return previewEdit(before, edit, plan, after, hostFormatter());
  }

  /** Adds an edit whose preview held: the document turns dirty and the edit can be undone. */
  async apply(edit: PendingEdit): Promise<void> {
    const model = this.model();
    model.push(edit);
    this.reviewed = { events: this.log().eventCount, bytes: this.document.editable?.identity.size ?? 0 };
    const epoch = this.epoch;
    await this.refresh();
    const label = editTitle(edit, hostFormatter());
    this.fireEdit({
      document: this.document,
      label,
      undo: async () => {
        const ended = this.epochEnd.get(epoch);
        if (ended === 'saved') {
          void vscode.window.showInformationMessage(
            vscode.l10n.t(
              'Undo "{0}": it was saved, so its events are in the log file now, and a session log is history: Undo never removes or rewrites saved lines. To take it back, author a new edit (for example a compaction over those events).',
              label,
            ),
          );
          return;
        }
        if (ended) return;
        this.edits?.undo();
        await this.refresh();
      },
      redo: async () => {
        if (this.epochEnd.has(epoch)) return;
        this.edits?.redo();
        await this.refresh();
      },
    });
  }

  /** Plans the pending edits again (the file may have grown) and tells the views. */
  async refresh(): Promise<PendingPlan | undefined> {
    if (!this.edits || this.edits.count === 0) {
      this.plannedEvents = [];
      this.changed.fire();
      return undefined;
    }
    const fork = this.edits.count > 1 ? await this.forkFactory() : undefined;
    const plan = this.model().plan({ log: this.log(), fork });
    const steps = plan.steps;
    this.plannedEvents = steps.flatMap((s) =>
      s.plan.events.map((e) => ({ seq: e.seq, type: e.type, edit: editTitle(s.edit, hostFormatter()) })),
    );
    this.changed.fire();
    return plan;
  }

  /** Save: append the pending edits. Throws (VS Code shows it) when the save is refused. */
  async save(): Promise<void> {
    if (!this.edits || this.edits.count === 0) return;
    const why = cannotAppendReason(this.document.uri);
    const writes = hostPlatform().local?.writes;
    if (why || !writes) throw new Error(why);
    const edits = this.edits;
    const saving = [...edits.list];
    const reviewed = this.reviewed;
    const now = { events: this.log().eventCount, bytes: this.document.editable?.identity.size ?? 0 };
    const foldedSinceReview = reviewed ? { events: now.events - reviewed.events, bytes: now.bytes - reviewed.bytes } : undefined;
    const name = this.document.fileName;
    const outcome: SaveOutcome = await this.document.appendWith((target) =>
      writes.saveEdits(this.document.uri.fsPath, target, edits, {
        waitForLock: waitForDshLock(name),
        allowUnlocked: confirmUnlocked(name),
        allowLive: confirmLiveWrite(name),
        lastForeignChangeMs: this.document.lastForeignChangeMs,
        confirmReplan: async (info) => {
          const append = vscode.l10n.t('Append');
          const choice = await vscode.window.showWarningMessage(
            vscode.l10n.t('{0} grew while you edited it', this.document.fileName),
            {
              modal: true,
              detail: vscode.l10n.t(
                '{0} after you made these edits. {1} Append them now?',
                appendedByAnotherWriter(info.foreignEvents, info.foreignBytes) +
                  (info.msSinceChange !== undefined
                    ? vscode.l10n.t(' (the last {0} s ago: an agent may still be writing)', Math.round(info.msSinceChange / 1000))
                    : ''),
                hostFormatter().counted(
                  saving.length,
                  'Your edit was planned again on top of them and still holds; it would be appended as seqs {1}–{2}.',
                  'Your {0} edits were planned again on top of them and still hold; they would be appended as seqs {1}–{2}.',
                  info.firstSeq,
                  info.firstSeq + info.lines.length - 1,
                ),
              ),
            },
            append,
          );
          return choice === append;
        },
        foldedSinceReview,
      }),
    );
    if (!outcome.ok) {
      // Another writer's bytes among ours: what the editor shows is no longer the file; read it again.
      if (outcome.stale) void this.document.reload();
      await this.refresh();
      const reasons = outcome.reasons.map((r) => ` • ${displayText(r)}`).join('\n');
      throw new Error(`${outcome.message}${reasons ? `\n${reasons}` : ''}`);
    }
    this.epochEnd.set(this.epoch++, 'saved');
    this.reviewed = undefined;
    await this.refresh();
    if (outcome.syncError)
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Saved {0}, but the disk did not confirm it (fsync: {1}): the lines are in the file and may not survive a crash or power loss.',
          name,
          outcome.syncError,
        ),
      );
  }

  /** Revert: forget every pending edit (the file was never touched by them). */
  async revert(): Promise<void> {
    this.edits = undefined;
    this.reviewed = undefined;
    this.epochEnd.set(this.epoch++, 'reverted');
    await this.refresh();
  }

  /** Hot exit: the pending edits as JSON (planner inputs), written where VS Code asks. */
  async backup(destination: vscode.Uri): Promise<vscode.CustomDocumentBackup> {
    const json = JSON.stringify(this.edits ?? new PendingEdits(this.log().eventCount));
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(destination, '..'));
    await vscode.workspace.fs.writeFile(destination, new TextEncoder().encode(json));
    return {
      id: destination.toString(),
      delete: () => void vscode.workspace.fs.delete(destination).then(undefined, () => undefined),
    };
  }

  /** Restores pending edits from a hot-exit backup; returns why it could not. */
  async restore(backupId: string): Promise<string | undefined> {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(backupId))));
    } catch (error) {
      return vscode.l10n.t('the backup of unsaved session edits could not be read ({0})', (error as Error).message);
    }
    const restored = PendingEdits.fromJSON(value);
    if (typeof restored === 'string') return restored;
    this.edits = restored;
    const plan = await this.refresh();
    if (plan && !plan.ok) {
      return vscode.l10n.t(
        '{0} no longer holds on the file as it is now: {1}',
        editTitle(plan.edit, hostFormatter()),
        plan.reasons.map(displayText).join('; '),
      );
    }
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
