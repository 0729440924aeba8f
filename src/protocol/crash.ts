// The crash-repair data of the timeline: an open final turn with its pending calls and the closers
// dsh would append (drawn as ghost rows, not in the file yet), a torn tail, the repairs dsh already
// wrote, and the session health entries with where each one jumps. Words come from the host's
// presentation layer; the webview draws them as text.
import { arrayOf, bool, count, line, literal, optional, shape, str, tagged, type Validator } from './validate';

export type CloserCodeView = 'TOOL_OUTCOME_UNKNOWN' | 'TOOL_NOT_STARTED';
const isCloserCode: Validator<CloserCodeView> = literal('TOOL_OUTCOME_UNKNOWN', 'TOOL_NOT_STARTED');

/** One closer dsh's repair would append; it is not in the file, so it has a seq but no line. */
export interface GhostRow {
  seq: number;
  type: 'tool/result' | 'step/end' | 'turn/end';
  label: string;
  icon: string;
  /** One line: what the closer closes. */
  summary: string;
  code?: CloserCodeView;
  /** What the code tells the model, in plain words. */
  meaning?: string;
  /** The event the closer answers (the tool/call, or the assistant/message asking for the call). */
  linkSeq?: number;
  linkText?: string;
  /** A tool/result closer becomes a derived message the model sees (Model view shows it). */
  onSurface: boolean;
}
export const isGhostRow: Validator<GhostRow> = shape<GhostRow>({
  seq: count,
  type: literal('tool/result', 'step/end', 'turn/end'),
  label: str,
  icon: str,
  summary: str,
  code: optional(isCloserCode),
  meaning: optional(str),
  linkSeq: optional(count),
  linkText: optional(str),
  onSurface: bool,
});

export interface PendingCallView {
  callId: string;
  code: CloserCodeView;
  /** One line: which call, where it was asked for and recorded, what its closer will say. */
  text: string;
  /** The recorded tool/call, else the assistant/message that asked for it. */
  jumpSeq?: number;
  closerSeq: number;
}
export const isPendingCallView: Validator<PendingCallView> = shape<PendingCallView>({
  callId: str,
  code: isCloserCode,
  text: str,
  jumpSeq: optional(count),
  closerSeq: count,
});

export interface OpenTurnView {
  turn?: number;
  turnStartSeq?: number;
  /** `growing`: the file changed lately (a live agent); `still`: quiet for a while (a crash). */
  activity: 'growing' | 'still';
  activityText: string;
  pendingCalls: PendingCallView[];
  ghosts: GhostRow[];
  /** Why the repair cannot be appended yet (a torn tail first, a refused log), when it cannot. */
  blockedText?: string;
}
export const isOpenTurnView: Validator<OpenTurnView> = shape<OpenTurnView>({
  turn: optional(count),
  turnStartSeq: optional(count),
  activity: literal('growing', 'still'),
  activityText: str,
  pendingCalls: arrayOf(isPendingCallView, 10_000),
  ghosts: arrayOf(isGhostRow, 10_000),
  blockedText: optional(str),
});

export interface TornTailView {
  kind: 'torn-line' | 'torn-frame' | 'damaged-line';
  heading: string;
  why: string;
  droppedBytes: number;
  /** The 1-based line where the tail starts. */
  line: number;
  /** What stays: the good prefix, in one line. */
  keptText: string;
  /** Bounded, printable (control and direction characters escaped); hex for compressed bytes. */
  preview: string;
  previewTruncated: boolean;
  previewIsHex: boolean;
  /** Each later line that is not part of the session, and why. */
  beyond: string[];
  refusesLog: boolean;
}
export const isTornTailView: Validator<TornTailView> = shape<TornTailView>({
  kind: literal('torn-line', 'torn-frame', 'damaged-line'),
  heading: str,
  why: str,
  droppedBytes: count,
  line: line,
  keptText: str,
  preview: str,
  previewTruncated: bool,
  previewIsHex: bool,
  beyond: arrayOf(str, 100),
  refusesLog: bool,
});

export interface RepairMadeView {
  text: string;
  /** The first closer the repair wrote; the turn/end; the seed after it. */
  firstSeq: number;
  turnEndSeq: number;
  endSeedSeq?: number;
}
export const isRepairMadeView: Validator<RepairMadeView> = shape<RepairMadeView>({
  text: str,
  firstSeq: count,
  turnEndSeq: count,
  endSeedSeq: optional(count),
});

/** Where a health entry leads: an event row, a ghost row, the torn tail, or only a file line. */
export type HealthTarget =
  { kind: 'event'; seq: number } | { kind: 'ghost'; seq: number } | { kind: 'tornTail' } | { kind: 'line'; line: number };
export const isHealthTarget: Validator<HealthTarget> = tagged<HealthTarget, 'kind'>('kind', {
  event: shape({ kind: literal('event'), seq: count }),
  ghost: shape({ kind: literal('ghost'), seq: count }),
  tornTail: shape({ kind: literal('tornTail') }),
  line: shape({ kind: literal('line'), line: line }),
});

export interface HealthEntryView {
  kind: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  target?: HealthTarget;
}
export const isHealthEntryView: Validator<HealthEntryView> = shape<HealthEntryView>({
  kind: str,
  severity: literal('error', 'warning', 'info'),
  message: str,
  target: optional(isHealthTarget),
});

export interface CrashReviewView {
  openTurn?: OpenTurnView;
  tornTail?: TornTailView;
  repairs: RepairMadeView[];
  health: HealthEntryView[];
  /** Entries left out of `health` (a summary, not a second diagnostics list). */
  healthOmitted: number;
}
export const isCrashReviewView: Validator<CrashReviewView> = shape<CrashReviewView>({
  openTurn: optional(isOpenTurnView),
  tornTail: optional(isTornTailView),
  repairs: arrayOf(isRepairMadeView, 10_000),
  health: arrayOf(isHealthEntryView, 5_000),
  healthOmitted: count,
});

export type RepairAction = 'apply' | 'removeTornTail';
export const isRepairAction: Validator<RepairAction> = literal('apply', 'removeTornTail');
