// The edits of one open session document, which owns them (as a hex editor's document owns its byte
// edits): each edit applied is one undo/redo pair on VS Code's undo stack, the only undo there is;
// the core's PendingEdits keeps the saved/unsaved index, Save appends the pending edits through the
// safe save path, Revert drops them, hot exit backs them up as JSON (planner inputs, not lines, so
// they are planned again on whatever the file holds when the window comes back). Planning reads the
// loaded log plus the pending events, folded into a fork of it: nothing is read from the file or
// parsed again. Once saved, appended events are history: Undo of a saved edit never touches the file
// and says why.
import * as vscode from 'vscode';
import { PendingEdits, type EditReference, type PendingEdit, type PendingPlan, type SessionLog } from '../../core';
import type { EditableLog, SaveOptions, SaveOutcome } from '../../files/append-save';
import { hostPlatform } from '../platform';
import { confirmLiveWrite, confirmUnlocked, waitForDshLock } from '../write-prompts';
import { editTitle, previewEdit, type EditPreview } from '../../present/edit-preview';
import { appendedByAnotherWriter, displayText, hostFormatter } from '../words';

/** What the edits need of their document: the file, the loaded log, and the one way to append to it. */
export interface EditableDocument {
  readonly uri: vscode.Uri;
  readonly fileName: string;
  /** The loaded log and the identity of its bytes (undefined until loaded). */
  readonly editable: EditableLog | undefined;
  /** Resolves when the current load has ended. */
  readonly whenLoaded: Promise<void>;
  /** Runs `save` with following paused; it may append to the file and fold what it wrote into the log. */
  appendWith<T>(save: (target: EditableLog) => Promise<T>): Promise<T>;
  /** When another writer last changed the file while it was open (ms since the epoch), if it did. */
  readonly lastForeignChangeMs: number | undefined;
  /** Reads the file again (another writer's bytes got among ours: the view is no longer the file). */
  reload(): Promise<void>;
}

/** An edit as VS Code's undo stack takes it (the provider adds the document: a CustomDocumentEditEvent). */
export interface DocumentEdit {
  label: string;
  undo(): void;
  redo(): void;
}

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

/** Why authoring is off in an untrusted workspace (a function: the words follow VS Code's display language). */
export function restrictedModeExplanation(): string {
  return vscode.l10n.t(
    'Authoring is off in Restricted Mode: editing a session appends to its log file, which needs a trusted workspace. Trust the workspace (Manage Workspace Trust) to compact or prune; viewing works as before.',
  );
}

export class DocumentEdits implements vscode.Disposable {
  /** Created with the first edit (or a restored backup), on the log as it was then. */
  private model: PendingEdits | undefined;
  private plannedEvents: PendingEventView[] = [];
  /**
   * The log's size when the user last reviewed the pending edits (a preview they applied). Events the
   * document folds in after that were written by someone else: saving must ask before writing the
   * edits over them.
   */
  private reviewed: { events: number; bytes: number } | undefined;
  private readonly edited = new vscode.EventEmitter<DocumentEdit>();
  /** An edit was applied: VS Code's custom editor makes the document dirty and adds the undo entry. */
  readonly onDidEdit = this.edited.event;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Pending events changed (for the webview and the status bar). */
  readonly onDidChangePending = this.changed.event;

  constructor(private readonly document: EditableDocument) {}

  get pendingCount(): number {
    return this.model?.count ?? 0;
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
   * The edits, their seqs moved up past whatever a writer appended since they were made (the document
   * folds appends in as they come), so new edits and old ones count seqs from the same base.
   */
  private edits(): PendingEdits {
    const count = this.log().eventCount;
    this.model ??= new PendingEdits(count);
    if (count > this.model.base) this.model.rebase(count);
    return this.model;
  }

  /** The log as the user sees it: the loaded log plus every pending event (on a fork when edits are pending). */
  logWithPending(): SessionLog {
    if (this.pendingCount === 0) return this.log();
    return this.edits().withPending(this.log()).log;
  }

  /** Plans `edit` on top of the pending edits and describes what it would do. */
  preview(edit: PendingEdit): EditPreview {
    const before = this.logWithPending();
    const single = new PendingEdits(before.eventCount);
    single.push(edit);
    const { plan, log: after } = single.withPending(before);
    return previewEdit(before, edit, plan, plan.ok ? after : undefined, hostFormatter());
  }

  /** Adds an edit whose preview held: the document turns dirty and the edit can be undone. */
  apply(edit: PendingEdit): void {
    const reference = this.edits().push(edit);
    // The edits this extension builds are plain JSON of a known kind; a refusal would be ours to fix.
    if (!('undo' in reference)) throw new Error(displayText(reference));
    this.reviewed = { events: this.log().eventCount, bytes: this.document.editable?.identity.size ?? 0 };
    this.refresh();
    const label = editTitle(edit, hostFormatter());
    this.edited.fire({ label, undo: () => this.undo(reference, label), redo: () => this.redo(reference) });
  }

  private undo(reference: EditReference, label: string): void {
    const outcome = reference.undo();
    if (outcome === 'undone') this.refresh();
    else if (outcome === 'saved')
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Undo "{0}": it was saved, so its events are in the log file now, and a session log is history: Undo never removes or rewrites saved lines. To take it back, author a new edit (for example a compaction over those events).',
          label,
        ),
      );
  }

  private redo(reference: EditReference): void {
    if (reference.redo()) this.refresh();
  }

  /** Plans the pending edits again (the file may have grown) and tells the views. */
  refresh(): PendingPlan | undefined {
    if (this.pendingCount === 0) {
      this.plannedEvents = [];
      this.changed.fire();
      return undefined;
    }
    const plan = this.edits().plan({ log: this.log() });
    this.plannedEvents = plan.steps.flatMap((s) =>
      s.plan.events.map((e) => ({ seq: e.seq, type: e.type, edit: editTitle(s.edit, hostFormatter()) })),
    );
    this.changed.fire();
    return plan;
  }

  /** Save: append the pending edits. Throws (VS Code shows it) when the save is refused. */
  async save(): Promise<void> {
    if (!vscode.workspace.isTrusted) throw new Error(restrictedModeExplanation());
    const edits = this.model;
    if (!edits || edits.count === 0) return;
    const why = cannotAppendReason(this.document.uri);
    if (why) throw new Error(why);
    const saving = edits.count;
    const reviewed = this.reviewed;
    const now = { events: this.log().eventCount, bytes: this.document.editable?.identity.size ?? 0 };
    const foldedSinceReview = reviewed ? { events: now.events - reviewed.events, bytes: now.bytes - reviewed.bytes } : undefined;
    const name = this.document.fileName;
    const outcome = await this.append(edits, {
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
                saving,
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
    });
    if (!outcome.ok) {
      // Another writer's bytes among ours: what the editor shows is no longer the file; read it again.
      if (outcome.stale) void this.document.reload();
      this.refresh();
      const reasons = outcome.reasons.map((r) => ` • ${displayText(r)}`).join('\n');
      throw new Error(`${outcome.message}${reasons ? `\n${reasons}` : ''}`);
    }
    this.reviewed = undefined;
    this.refresh();
    if (outcome.syncError)
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Saved {0}, but the disk did not confirm it (fsync: {1}): the lines are in the file and may not survive a crash or power loss.',
          name,
          outcome.syncError,
        ),
      );
  }

  /**
   * The one way the document's edits reach the file: the safe save path, with following paused. It
   * reads only what was appended since the load (and folds it in, planning the edits again on it), and
   * on success marks the edits saved (PendingEdits.clearSaved).
   */
  private append(edits: PendingEdits, options: SaveOptions): Promise<SaveOutcome> {
    const writes = hostPlatform().local?.writes;
    if (!writes) throw new Error(cannotAppendReason(this.document.uri));
    return this.document.appendWith((target) => writes.saveEdits(this.document.uri.fsPath, target, edits, options));
  }

  /** Revert: forget every pending edit (the file was never touched by them). */
  revert(): void {
    this.model?.revert();
    this.model = undefined;
    this.reviewed = undefined;
    this.refresh();
  }

  /** Hot exit: the pending edits as JSON (planner inputs), written where VS Code asks. */
  async backup(destination: vscode.Uri): Promise<vscode.CustomDocumentBackup> {
    const json = JSON.stringify(this.model ?? new PendingEdits(this.log().eventCount));
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(destination, '..'));
    await vscode.workspace.fs.writeFile(destination, new TextEncoder().encode(json));
    return {
      id: destination.toString(),
      delete: () => void vscode.workspace.fs.delete(destination).then(undefined, () => undefined),
    };
  }

  /** A document opened from a hot-exit backup: its pending edits come back once it has loaded. */
  restoreWhenLoaded(backupId: string): void {
    void this.document.whenLoaded.then(async () => {
      const problem = await this.restore(backupId);
      if (problem)
        void vscode.window.showWarningMessage(vscode.l10n.t('{0}: unsaved edits were restored, but {1}', this.document.fileName, problem));
    });
  }

  /** Restores pending edits from a hot-exit backup; returns why it could not. */
  private async restore(backupId: string): Promise<string | undefined> {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(backupId))));
    } catch (error) {
      return vscode.l10n.t('the backup of unsaved session edits could not be read ({0})', (error as Error).message);
    }
    const restored = PendingEdits.fromJSON(value);
    if (typeof restored === 'string') return restored;
    this.model = restored;
    const plan = this.refresh();
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
    this.edited.dispose();
    this.changed.dispose();
  }
}
