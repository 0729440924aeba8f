// The "Session health" data: header, verdict, counts, sizes, live and file state. The host fills the
// words in through the presentation layer (one format for dates and numbers, bounded single-line
// strings), so the webview shows them as they are.
import { isLineageSummary, type LineageSummary } from './lineage';
import { isGeneration, isSeverityMark, type Generation } from './rows';
import { arrayOf, bool, count, line, literal, num, optional, shape, str, type Validator } from './validate';

/**
 * What the host knows about the file on disk:
 *  - `following`: watched, appended lines are folded in;
 *  - `truncated` / `rewritten` / `deleted`: the loaded prefix no longer matches the file;
 *    the view keeps what it had and offers a reload (nothing is ever written);
 *  - `stopped`: an append could not be folded (for example the core refused it).
 */
export type FileState = 'following' | 'truncated' | 'rewritten' | 'deleted' | 'stopped';

export interface FileStatus {
  state: FileState;
  /** One sentence for the user when state is not `following`. */
  explanation?: string;
  size: number;
  mtimeMs: number;
  /** Milliseconds since the epoch of the last append that was folded in. */
  lastAppendAt?: number;
}
export const isFileStatus: Validator<FileStatus> = shape<FileStatus>({
  state: literal('following', 'truncated', 'rewritten', 'deleted', 'stopped'),
  explanation: optional(str),
  size: count,
  mtimeMs: num,
  lastAppendAt: optional(num),
});

/**
 * `live`: dsh opens the log and its last turn is open (a writer is at work, or crashed);
 * `closed`: dsh opens it and every turn is closed; `noTurns`: dsh opens it and it has no turn yet;
 * `refused`: dsh refuses the log (it is neither live nor closed to dsh); `unknown`: nothing readable.
 */
export type LiveState = 'live' | 'closed' | 'noTurns' | 'refused' | 'unknown';

/** One labelled value, already worded: header fields, counts, sizes. */
export interface FieldView {
  /** Stable key (`id`, `cwd`, `events`, `fileBytes`, …) for ids and tests. */
  name: string;
  label: string;
  /** One line, bounded (long values end with an ellipsis). */
  value: string;
  /** A longer bounded form (still one line) when `value` was shortened; for a tooltip. */
  full?: string;
}
export const isFieldView: Validator<FieldView> = shape<FieldView>({ name: str, label: str, value: str, full: optional(str) });

export interface VerdictSummary {
  /** True when dsh would open the log. */
  ok: boolean;
  /** Pipeline step that refused the log (`done` when it loads). */
  stage: string;
  rule?: string;
  /** 1-based file line of the refusal. */
  line?: number;
  seq?: number;
  errorName?: string;
  /** Our sentence for the verdict, in 1-based file lines. */
  text: string;
  /** dsh's own message, introduced with whose numbering it uses. */
  dshText?: string;
  /** Whose verdict it is: the dsh that writes the log's format ("format v0 (dsh 0.1.0–0.1.2)"). */
  format?: string;
  /**
   * Set when dsh's message advises a newer harness although the log is older than today's dsh: what
   * today's dsh does with it instead.
   */
  note?: string;
}
export const isVerdictSummary: Validator<VerdictSummary> = shape<VerdictSummary>({
  ok: bool,
  stage: str,
  rule: optional(str),
  line: optional(line),
  seq: optional(count),
  errorName: optional(str),
  text: str,
  dshText: optional(str),
  format: optional(str),
  note: optional(str),
});

/**
 * What today's dsh does when it opens the file: it opens it as it is, migrates it to today's format,
 * or refuses — at which edge, on which line (1-based file line), in dsh's own words.
 */
export interface UpgradeSummary {
  ok: boolean;
  /** A few words for the pill: "Today's dsh opens this log", "… migrates it", "… would refuse it". */
  label: string;
  /** One sentence, with the edge and the line when it refuses. */
  text: string;
  /** dsh's own message, introduced with whose numbering it uses. */
  dshText?: string;
  stage: string;
  edge?: string;
  line?: number;
  /** The log is already in the generation today's dsh writes: its own verdict is today's. */
  current?: boolean;
}
export const isUpgradeSummary: Validator<UpgradeSummary> = shape<UpgradeSummary>({
  ok: bool,
  label: str,
  text: str,
  dshText: optional(str),
  stage: str,
  edge: optional(str),
  line: optional(line),
  current: optional(bool),
});

export interface SummaryCounts {
  events: number;
  turns: number;
  packedRows: number;
  /** Closers dsh would append for an open final turn; only for a log dsh opens whose last turn is open. */
  closers?: number;
  errors: number;
  warnings: number;
  infos: number;
  linesBeyondDamage: number;
}
export const isSummaryCounts: Validator<SummaryCounts> = shape<SummaryCounts>({
  events: count,
  turns: count,
  packedRows: count,
  closers: optional(count),
  errors: count,
  warnings: count,
  infos: count,
  linesBeyondDamage: count,
});

export interface SizeFacts {
  /** Bytes of the file on disk that were read (compressed, for zstd). */
  fileBytes: number;
  /** Bytes of JSONL text (the decompressed text, for zstd). */
  textBytes: number;
  /** Text bytes up to the last complete record kept. */
  committedBytes: number;
  /** zstd frames, for a zstd log. */
  zstdFrames?: number;
}
export const isSizeFacts: Validator<SizeFacts> = shape<SizeFacts>({
  fileBytes: count,
  textBytes: count,
  committedBytes: count,
  zstdFrames: optional(count),
});

export interface SessionSummary {
  fileName: string;
  /** Path shown to the user, bounded. */
  filePath: string;
  /** The session id (bounded, bidi neutralised) or a phrase saying there is no readable header. */
  title: string;
  /** False when the header shown is the first line as written and dsh refuses it as a header. */
  headerAccepted: boolean;
  /** Absent when the first line is no session header at all. */
  headerFields?: FieldView[];
  verdict: VerdictSummary;
  /** Today's dsh's verdict (absent until it was read: a large log's comes after the load). */
  upgrade?: UpgradeSummary;
  /**
   * Set when the file is an older generation of its session (its folder holds a newer one dsh reads
   * and appends to): history the editor never appends to.
   */
  olderGeneration?: { current: string; text: string };
  live: LiveState;
  /** One sentence saying `live` (and whether appends are followed). */
  liveText: string;
  /** For a refused log: what could still be read, one sentence. */
  stillReadable?: string;
  counts: SummaryCounts;
  sizes: SizeFacts;
  /** Counts, sizes and timings worded for display, in display order. */
  facts: FieldView[];
  file: FileStatus;
  /** Set when the workspace is not trusted: the editor is read-only and says why. */
  restrictedMode: boolean;
  /** Milliseconds the core took to read the log. */
  loadMs: number;
  /** The BCP 47 tag dates and numbers were formatted for (VS Code's display language). */
  locale: string;
  /** The most severe diagnostic, for a badge. */
  worstSeverity?: 'error' | 'warning' | 'info';
  generation: Generation;
  /** Set for a child session (its header names a parent or a seed). */
  lineage?: LineageSummary;
}
export const isSessionSummary: Validator<SessionSummary> = shape<SessionSummary>({
  fileName: str,
  filePath: str,
  title: str,
  headerAccepted: bool,
  headerFields: optional(arrayOf(isFieldView, 50)),
  verdict: isVerdictSummary,
  upgrade: optional(isUpgradeSummary),
  olderGeneration: optional(shape({ current: str, text: str })),
  live: literal('live', 'closed', 'noTurns', 'refused', 'unknown'),
  liveText: str,
  stillReadable: optional(str),
  counts: isSummaryCounts,
  sizes: isSizeFacts,
  facts: arrayOf(isFieldView, 50),
  file: isFileStatus,
  restrictedMode: bool,
  loadMs: num,
  locale: str,
  worstSeverity: optional(isSeverityMark),
  generation: isGeneration,
  lineage: optional(isLineageSummary),
});
