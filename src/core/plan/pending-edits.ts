// The edits a user makes to a session document, kept as planner *inputs* (a compaction's range and
// summary, a prune's target and new content), never as planned lines. Lines depend on the log they are
// appended to — their seqs, the surface they cut — so they are planned again whenever the log changes
// (a writer appended, the document was restored from a backup). Every edit made is one `{undo, redo}`
// pair for the editor's undo stack (VS Code's: there is no other); the model keeps the saved/unsaved
// index — saved edits are history, which undo never takes back. Nothing here touches a file.
import type { Diagnostic, SessionEvent } from '../types';
import { isSessionLog, type SessionLog } from '../read/session-log';
import { badInput, readField } from '../api-guard';
import { planCompaction, type CompactionInput } from './compaction';
import { planToolResultPrune, type PruneOptions } from './prune';
import type { AcceptedPlan } from './types';
import { planCrashRepair } from './crash-repair-edit';
import { planCloseCompaction } from './close-compaction';
import { say } from '../words';
import { checkedJsonCopy, cloneJson, stringText, valueText } from '../value-text';

export interface CompactionEdit {
  kind: 'compaction';
  input: CompactionInput;
}

export interface PruneEdit {
  kind: 'prune';
  /** The tool/result to prune. */
  seq: number;
  /** Its new inner tool-result content. */
  content: unknown[];
  options: PruneOptions;
}

/** Close the open final turn with the closers dsh's repair appends (planned on the log as it is at save). */
export interface RepairEdit {
  kind: 'repair';
}

/** Close a compaction a crash left open (its compaction/start has no compaction/end). */
export interface CloseCompactionEdit {
  kind: 'close-compaction';
  /** The closing event's time (default: the last event's, as dsh gives events it writes without a clock). */
  time?: number;
}

export type PendingEdit = CompactionEdit | PruneEdit | RepairEdit | CloseCompactionEdit;

/** One edit planned against the log as it is now (and the edits before it). */
export interface PlannedEdit {
  edit: PendingEdit;
  plan: AcceptedPlan;
}

export type PendingPlan =
  | { ok: true; steps: PlannedEdit[]; events: SessionEvent[]; lines: string[]; firstSeq: number }
  | {
      ok: false;
      /** Index of the first edit that no longer holds; later edits build on it and are not planned. */
      index: number;
      edit: PendingEdit;
      reasons: Diagnostic[];
      /** The edits before it, which still hold. */
      steps: PlannedEdit[];
    };

/** What a plan needs: the log as it is now. */
export interface PlanBase {
  log: SessionLog;
  /**
   * @deprecated Not called: edits that build on each other are planned on a fork of `log`
   * (SessionLog.fork), which reads and parses nothing again.
   */
  fork?: () => SessionLog;
}

/** The backup of pending edits (hot exit): plain JSON. */
export interface PendingEditsBackup {
  format: 'session-surface/pending-edits';
  version: 1;
  baseEventCount: number;
  edits: PendingEdit[];
  /** Written empty: no undo stack outlives the window, so nothing restored could be redone. Read and ignored. */
  redo: PendingEdit[];
}

/** What undoing an edit did: took it back, or left it (it was saved, and the log is history), or nothing (it was reverted or replaced). */
export type UndoOutcome = 'undone' | 'saved' | 'gone';

/** One edit made, as the editor's undo stack holds it. */
export interface EditReference {
  /** The edit as it stands now (its seqs move when the log grows under it). */
  readonly edit: PendingEdit;
  /** Takes the edit back while it is pending. */
  undo(): UndoOutcome;
  /** Makes an undone edit pending again; false when it cannot be (a new edit, a save or a revert came after the undo). */
  redo(): boolean;
}

/** An edit and where it stands. Undone edits wait for a redo until a new edit, a save or a revert drops them. */
interface Entry {
  edit: PendingEdit;
  state: 'pending' | 'undone' | 'saved' | 'dropped';
}

/** A plain JSON copy of edits this class made or checked (checkedJsonCopy refuses anything else on the way in). */
const copy = <T>(value: T): T => cloneJson(value);

/** An edit a caller hands in, copied if it is plain JSON of a known kind; else why not. */
function checkedEdit(edit: unknown): PendingEdit | string {
  const checked = checkedJsonCopy(edit);
  if (!checked.ok) return `not plain JSON (${checked.reason})`;
  return editShapeProblem(checked.copy) ?? (checked.copy as PendingEdit);
}

/**
 * Seqs at or above `base` name events of earlier pending edits; when `delta` events were appended by
 * someone else before them, those events move up by `delta`. Seqs below `base` are history and stay.
 */
function shiftSeq(seq: number, base: number, delta: number): number {
  return seq >= base ? seq + delta : seq;
}

export function rebaseEdit(edit: PendingEdit, base: number, delta: number): PendingEdit {
  // A caller's edit that is not one this module reads, or numbers that are not counts, are given back as they came.
  const checked = checkedEdit(edit);
  if (typeof checked === 'string' || !Number.isSafeInteger(base) || !Number.isSafeInteger(delta)) return edit;
  edit = checked;
  if (delta === 0 || edit.kind === 'repair' || edit.kind === 'close-compaction') return edit;
  if (edit.kind === 'prune') return { ...edit, seq: shiftSeq(edit.seq, base, delta) };
  return { ...edit, input: { ...edit.input, start: shiftSeq(edit.input.start, base, delta), end: shiftSeq(edit.input.end, base, delta) } };
}

function planOne(log: SessionLog, edit: PendingEdit) {
  if (edit.kind === 'repair') return planCrashRepair(log);
  if (edit.kind === 'close-compaction') return planCloseCompaction(log, edit.time);
  return edit.kind === 'compaction' ? planCompaction(log, edit.input) : planToolResultPrune(log, edit.seq, edit.content, edit.options);
}

export class PendingEdits {
  /** Every edit made and not undone, in order: the saved ones, then from `unsaved` on the pending ones. */
  private entries: Entry[] = [];
  private unsaved = 0;
  /** Edits undone and not yet dropped (they move with the log too, for a redo). */
  private undone: Entry[] = [];

  /**
   * @param baseEventCount the event count of the log the edits were made on: seqs from there on name
   * events of pending edits, and move when the log grows underneath them.
   */
  constructor(private baseEventCount: number) {
    // What is not a count of events is taken as none (the first plan then names the difference).
    if (!Number.isSafeInteger(baseEventCount) || baseEventCount < 0) this.baseEventCount = 0;
  }

  /** The pending edits, in order. */
  get list(): readonly PendingEdit[] {
    return this.entries.slice(this.unsaved).map((e) => e.edit);
  }

  get count(): number {
    return this.entries.length - this.unsaved;
  }

  /** The index of the first unsaved edit among the edits made: equal to their number when none is pending. */
  get unsavedIndex(): number {
    return this.unsaved;
  }

  /** The event count the pending seqs are relative to. */
  get base(): number {
    return this.baseEventCount;
  }

  /**
   * Adds an edit (made on the log plus the edits before it), as the pair the undo stack keeps; it drops
   * what was undone. An edit that is not plain JSON of a known kind is refused (the reason is returned)
   * and nothing changes.
   */
  push(edit: PendingEdit): EditReference | Diagnostic {
    const checked = checkedEdit(edit);
    if (typeof checked === 'string')
      return { severity: 'error', rule: 'api.bad-input', ...say('a pending edit cannot be added: {0}', checked) };
    const entry: Entry = { edit: checked, state: 'pending' };
    this.dropUndone();
    this.entries.push(entry);
    return {
      get edit() {
        return entry.edit;
      },
      undo: () => this.undoEntry(entry),
      redo: () => this.redoEntry(entry),
    };
  }

  private undoEntry(entry: Entry): UndoOutcome {
    if (entry.state === 'saved') return 'saved';
    if (entry.state !== 'pending') return 'gone';
    this.entries.splice(this.entries.lastIndexOf(entry), 1);
    entry.state = 'undone';
    this.undone.push(entry);
    return 'undone';
  }

  private redoEntry(entry: Entry): boolean {
    if (entry.state !== 'undone') return false;
    this.undone.splice(this.undone.lastIndexOf(entry), 1);
    entry.state = 'pending';
    this.entries.push(entry);
    return true;
  }

  private dropUndone(): void {
    for (const entry of this.undone) entry.state = 'dropped';
    this.undone = [];
  }

  /**
   * The log grew to `eventCount` events under the pending edits (a writer appended, or the edits were
   * saved): seqs of pending events move up. A shrink, which an append-only log never does (or a count
   * that is no count), is refused with the reason, and nothing moves.
   */
  rebase(eventCount: number): Diagnostic | undefined {
    if (!Number.isSafeInteger(eventCount) || eventCount < 0)
      return { severity: 'error', rule: 'api.bad-input', ...say('rebase needs an event count, got {0}', stringText(eventCount, 60)) };
    const delta = eventCount - this.baseEventCount;
    if (delta < 0)
      return {
        severity: 'error',
        rule: 'edit.log-shrank',
        ...say(
          'the log now has {0} events, fewer than the {1} these edits were made on; a session log only grows',
          eventCount,
          this.baseEventCount,
        ),
      };
    for (const entry of [...this.entries.slice(this.unsaved), ...this.undone])
      entry.edit = rebaseEdit(entry.edit, this.baseEventCount, delta);
    this.baseEventCount = eventCount;
    return undefined;
  }

  /** After a save the pending edits are history (the log has `eventCount` events now): nothing is pending, nothing can be redone. */
  clearSaved(eventCount: number): void {
    for (const entry of this.entries.slice(this.unsaved)) entry.state = 'saved';
    this.unsaved = this.entries.length;
    this.dropUndone();
    this.baseEventCount = Number.isSafeInteger(eventCount) && eventCount >= 0 ? eventCount : this.baseEventCount;
  }

  /** Revert: the pending edits are gone (the file never had them); saved ones stay history. */
  revert(): void {
    for (const entry of this.entries.slice(this.unsaved)) entry.state = 'dropped';
    this.entries.length = this.unsaved;
    this.dropUndone();
  }

  /**
   * Plans every pending edit, in order, against the log as it is now (seqs continue its last event,
   * the surface is its surface). A log that grew since the edits were made is planned with the pending
   * seqs moved up; stops at the first edit that no longer holds, with every reason it is refused. An
   * edit after the first is planned on a fork of the log holding the events of the ones before it:
   * the log itself is never appended to.
   */
  plan(base: PlanBase): PendingPlan {
    const log = readField(base, 'log');
    if (!isSessionLog(log)) return this.badLog(base);
    return this.planOn(log, false).plan;
  }

  /**
   * The log as the user sees it: `log` plus every pending event, on a fork of it (`log` itself when
   * nothing is pending or the first edit no longer holds), and the plan that made it.
   */
  withPending(log: SessionLog): { plan: PendingPlan; log: SessionLog } {
    if (!isSessionLog(log)) return { plan: this.badLog(log), log };
    return this.planOn(log, true);
  }

  private badLog(given: unknown): PendingPlan {
    return { ok: false, index: 0, edit: this.list[0], reasons: [badInput('a plan needs a loaded session log', given)], steps: [] };
  }

  private planOn(base: SessionLog, appendLast: boolean): { plan: PendingPlan; log: SessionLog } {
    const delta = base.eventCount - this.baseEventCount;
    const firstSeq = base.eventCount;
    const steps: PlannedEdit[] = [];
    const pending = this.list;
    if (delta < 0) {
      const reason: Diagnostic = {
        severity: 'error',
        rule: 'edit.log-shrank',
        ...say(
          'the log now has {0} events, fewer than the {1} these edits were made on; a session log only grows',
          base.eventCount,
          this.baseEventCount,
        ),
      };
      const plan: PendingPlan =
        pending.length > 0
          ? { ok: false, index: 0, edit: pending[0], reasons: [reason], steps }
          : { ok: true, steps, events: [], lines: [], firstSeq };
      return { plan, log: base };
    }
    let log = base;
    for (const [index, original] of pending.entries()) {
      const edit = rebaseEdit(original, this.baseEventCount, delta);
      const plan = planOne(log, edit);
      if (!plan.ok) return { plan: { ok: false, index, edit, reasons: plan.reasons, steps }, log };
      steps.push({ edit, plan });
      if (index < pending.length - 1 || appendLast) {
        if (log === base) log = base.fork();
        const appended = log.append(plan.events as never);
        if (!appended.ok) return { plan: { ok: false, index, edit, reasons: appended.problems, steps: steps.slice(0, -1) }, log };
      }
    }
    const events = steps.flatMap((s) => s.plan.events);
    return { plan: { ok: true, steps, events, lines: steps.flatMap((s) => s.plan.lines), firstSeq }, log };
  }

  toJSON(): PendingEditsBackup {
    return {
      format: 'session-surface/pending-edits',
      version: 1,
      baseEventCount: this.baseEventCount,
      edits: copy([...this.list]),
      redo: [],
    };
  }

  /** Restores a backup (its edits pending); a string says why it cannot be. */
  static fromJSON(value: unknown): PendingEdits | string {
    const checked = checkedJsonCopy(value);
    if (!checked.ok) return `not a backup of pending session edits (${checked.reason})`;
    const v = checked.copy as Partial<PendingEditsBackup> | null;
    if (v === null || typeof v !== 'object' || v.format !== 'session-surface/pending-edits') return 'not a backup of pending session edits';
    if (v.version !== 1) return `backup version ${stringText(v.version)} is not one this version reads`;
    if (!Number.isSafeInteger(v.baseEventCount) || (v.baseEventCount as number) < 0) return 'the backup has no valid base event count';
    if (!Array.isArray(v.edits) || !Array.isArray(v.redo)) return 'the backup has no list of edits';
    for (const e of [...v.edits, ...v.redo]) {
      const problem = editShapeProblem(e);
      if (problem) return `the backup holds an edit that cannot be read: ${problem}`;
    }
    const edits = new PendingEdits(v.baseEventCount as number);
    for (const edit of v.edits) edits.push(edit);
    return edits;
  }
}

/** The shape of an edit read back from JSON (the planners check the values themselves). */
function editShapeProblem(e: unknown): string | undefined {
  if (e === null || typeof e !== 'object') return 'not an object';
  const edit = e as {
    kind?: unknown;
    seq?: unknown;
    time?: unknown;
    content?: unknown;
    options?: unknown;
    input?: Partial<CompactionInput> | null;
  };
  if (edit.kind === 'prune') {
    if (!Number.isSafeInteger(edit.seq)) return 'prune without a seq';
    if (!Array.isArray(edit.content)) return 'prune without content';
    if (edit.options === null || typeof edit.options !== 'object') return 'prune without options';
    return undefined;
  }
  if (edit.kind === 'repair') return undefined;
  if (edit.kind === 'close-compaction')
    return edit.time === undefined || Number.isSafeInteger(edit.time) ? undefined : 'close-compaction with a bad time';
  if (edit.kind === 'compaction') {
    const input = edit.input;
    if (input === null || typeof input !== 'object') return 'compaction without input';
    if (!Number.isSafeInteger(input.start) || !Number.isSafeInteger(input.end)) return 'compaction without start and end';
    return undefined;
  }
  return `unknown kind ${valueText(edit.kind, 60)}`;
}
