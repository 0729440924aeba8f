// The edits a user has made to a session but not yet saved, kept as planner *inputs* (a compaction's
// range and summary, a prune's target and new content), never as planned lines. Lines depend on the
// log they are appended to — their seqs, the surface they cut — so they are planned again whenever the
// log changes (a writer appended, the document was restored from a backup). Undo and redo move inputs
// between two stacks; nothing here touches a file.
import type { Diagnostic, SessionEvent } from '../types';
import { isSessionLog, type SessionLog } from '../read/session-log';
import { badInput, readField } from '../api-guard';
import { planCompaction, type CompactionInput } from './compaction';
import { planToolResultPrune, type PruneOptions } from './prune';
import type { AcceptedPlan } from './types';
import { planCrashRepair } from './crash-repair-edit';
import { say, type Said } from '../words';
import { checkedJsonCopy, cloneJson, stringText } from '../value-text';

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

export type PendingEdit = CompactionEdit | PruneEdit | RepairEdit;

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

/** What a plan needs: the log as it is now, and a private copy of it when several edits build on each other. */
export interface PlanBase {
  log: SessionLog;
  /** A fresh SessionLog of the same bytes, which planning may append to. Needed only for a second edit. */
  fork?: () => SessionLog;
}

/** The backup of pending edits (hot exit): plain JSON. */
export interface PendingEditsBackup {
  format: 'session-surface/pending-edits';
  version: 1;
  baseEventCount: number;
  edits: PendingEdit[];
  redo: PendingEdit[];
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
  if (delta === 0 || edit.kind === 'repair') return edit;
  if (edit.kind === 'prune') return { ...edit, seq: shiftSeq(edit.seq, base, delta) };
  return { ...edit, input: { ...edit.input, start: shiftSeq(edit.input.start, base, delta), end: shiftSeq(edit.input.end, base, delta) } };
}

function planOne(log: SessionLog, edit: PendingEdit) {
  if (edit.kind === 'repair') return planCrashRepair(log);
  return edit.kind === 'compaction' ? planCompaction(log, edit.input) : planToolResultPrune(log, edit.seq, edit.content, edit.options);
}

export class PendingEdits {
  private edits: PendingEdit[] = [];
  private undone: PendingEdit[] = [];

  /**
   * @param baseEventCount the event count of the log the edits were made on: seqs from there on name
   * events of pending edits, and move when the log grows underneath them.
   */
  constructor(private baseEventCount: number) {
    // What is not a count of events is taken as none (the first plan then names the difference).
    if (!Number.isSafeInteger(baseEventCount) || baseEventCount < 0) this.baseEventCount = 0;
  }

  get list(): readonly PendingEdit[] {
    return this.edits;
  }

  get count(): number {
    return this.edits.length;
  }

  get canUndo(): boolean {
    return this.edits.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** The event count the pending seqs are relative to. */
  get base(): number {
    return this.baseEventCount;
  }

  /**
   * Adds an edit (made on the log plus the edits before it); a new edit forgets what was undone. An
   * edit that is not plain JSON of a known kind is refused (returned as the reason) and nothing changes.
   */
  push(edit: PendingEdit): Diagnostic | undefined {
    const checked = checkedEdit(edit);
    if (typeof checked === 'string')
      return { severity: 'error', rule: 'api.bad-input', ...say('a pending edit cannot be added: {0}', checked) };
    this.edits.push(checked);
    this.undone = [];
    return undefined;
  }

  /** Takes back the newest edit; undefined when nothing is pending. */
  undo(): PendingEdit | undefined {
    const edit = this.edits.pop();
    if (edit) this.undone.push(edit);
    return edit;
  }

  /** Puts back the edit undone last; undefined when there is none. */
  redo(): PendingEdit | undefined {
    const edit = this.undone.pop();
    if (edit) this.edits.push(edit);
    return edit;
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
    this.edits = this.edits.map((e) => rebaseEdit(e, this.baseEventCount, delta));
    this.undone = this.undone.map((e) => rebaseEdit(e, this.baseEventCount, delta));
    this.baseEventCount = eventCount;
    return undefined;
  }

  /** After a save the pending edits are history: nothing is pending, nothing can be redone. */
  clearSaved(eventCount: number): void {
    this.edits = [];
    this.undone = [];
    this.baseEventCount = Number.isSafeInteger(eventCount) && eventCount >= 0 ? eventCount : this.baseEventCount;
  }

  /**
   * Plans every pending edit, in order, against the log as it is now (seqs continue its last event,
   * the surface is its surface). A log that grew since the edits were made is planned with the pending
   * seqs moved up; stops at the first edit that no longer holds, with every reason it is refused.
   */
  plan(base: PlanBase): PendingPlan {
    const log0 = readField(base, 'log');
    if (!isSessionLog(log0))
      return {
        ok: false,
        index: 0,
        edit: this.edits[0],
        reasons: [badInput('plan needs { log } with a loaded session log', base)],
        steps: [],
      };
    const fork = readField(base, 'fork');
    base = { log: log0, fork: typeof fork === 'function' ? () => (fork as () => SessionLog)() : undefined };
    const delta = base.log.eventCount - this.baseEventCount;
    const firstSeq = base.log.eventCount;
    const steps: PlannedEdit[] = [];
    if (delta < 0) {
      const reason: Diagnostic = {
        severity: 'error',
        rule: 'edit.log-shrank',
        ...say(
          'the log now has {0} events, fewer than the {1} these edits were made on; a session log only grows',
          base.log.eventCount,
          this.baseEventCount,
        ),
      };
      return this.edits.length > 0
        ? { ok: false, index: 0, edit: this.edits[0], reasons: [reason], steps }
        : { ok: true, steps, events: [], lines: [], firstSeq };
    }
    let log = base.log;
    for (const [index, original] of this.edits.entries()) {
      const edit = rebaseEdit(original, this.baseEventCount, delta);
      const plan = planOne(log, edit);
      if (!plan.ok) return { ok: false, index, edit, reasons: plan.reasons, steps };
      steps.push({ edit, plan });
      if (index < this.edits.length - 1) {
        if (log === base.log) {
          const forked = forkOf(base);
          if (!isSessionLog(forked))
            return { ok: false, index, edit, reasons: [{ severity: 'error', rule: 'api.bad-input', ...forked }], steps };
          log = forked;
        }
        const appended = log.append(plan.events as never);
        if (!appended.ok) return { ok: false, index, edit, reasons: appended.problems, steps: steps.slice(0, -1) };
      }
    }
    const events = steps.flatMap((s) => s.plan.events);
    return { ok: true, steps, events, lines: steps.flatMap((s) => s.plan.lines), firstSeq };
  }

  toJSON(): PendingEditsBackup {
    return {
      format: 'session-surface/pending-edits',
      version: 1,
      baseEventCount: this.baseEventCount,
      edits: copy(this.edits),
      redo: copy(this.undone),
    };
  }

  /** Restores a backup; a string says why it cannot be. */
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
    edits.edits = copy(v.edits);
    edits.undone = copy(v.redo);
    return edits;
  }
}

/** The fork a plan of several edits appends to, or why there is none. */
function forkOf(base: PlanBase): SessionLog | Said {
  if (!base.fork) return say('planning more than one pending edit needs a fork of the log');
  let forked: unknown;
  try {
    forked = base.fork();
  } catch {
    forked = undefined;
  }
  return isSessionLog(forked) ? forked : say('the fork of the log is not a loaded session log');
}

/** The shape of an edit read back from JSON (the planners check the values themselves). */
function editShapeProblem(e: unknown): string | undefined {
  if (e === null || typeof e !== 'object') return 'not an object';
  const edit = e as { kind?: unknown; seq?: unknown; content?: unknown; options?: unknown; input?: Partial<CompactionInput> | null };
  if (edit.kind === 'prune') {
    if (!Number.isSafeInteger(edit.seq)) return 'prune without a seq';
    if (!Array.isArray(edit.content)) return 'prune without content';
    if (edit.options === null || typeof edit.options !== 'object') return 'prune without options';
    return undefined;
  }
  if (edit.kind === 'repair') return undefined;
  if (edit.kind === 'compaction') {
    const input = edit.input;
    if (input === null || typeof input !== 'object') return 'compaction without input';
    if (!Number.isSafeInteger(input.start) || !Number.isSafeInteger(input.end)) return 'compaction without start and end';
    return undefined;
  }
  return `unknown kind ${JSON.stringify(edit.kind)}`;
}
