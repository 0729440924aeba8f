// Builds planner inputs from what a person gives (a range, a summary text, a target seq): the defaults
// a manual edit uses when nobody measured anything — the prune placeholder that says how much was cut,
// a token estimate for the shadowed span, the summarizing "route" of a hand-written summary.
import type { SessionLog } from '../read/session-log';
import type { CompactionInput } from './compaction';
import type { CompactionEdit, PruneEdit } from './pending-edits';
import { lastTime } from './checks';

/** Provider and model recorded for a summary a person wrote (dsh records the summarizing route). */
export const MANUAL_SUMMARY_ROUTE = { provider: 'session-surface', model: 'hand-written' } as const;

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** A token estimate for text: one token per 4 bytes, the usual rule of thumb without a tokenizer. */
export function estimateTokensOfText(text: string): number {
  return Math.ceil(utf8Length(text) / 4);
}

/** Estimated tokens of events as the model sees them: their JSON lines by the same rule. */
export function estimateTokensOfSeqs(log: SessionLog, seqs: readonly number[]): number {
  let total = 0;
  for (const seq of seqs) total += estimateTokensOfText(JSON.stringify(log.event(seq)?.data ?? null));
  return total;
}

/** "12.3 KB" style sizes (1 KB = 1000 bytes, as file managers show them). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The text of tool-result content blocks (text blocks by their text, other blocks as JSON). */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return JSON.stringify(content ?? null);
  return content
    .map((b) =>
      b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : JSON.stringify(b),
    )
    .join('');
}

/** The default new content of a pruned tool result: one text block saying how much was removed. */
export function defaultPrunedContent(log: SessionLog, seq: number): unknown[] {
  const content = log.event(seq)?.data?.message?.content?.[0]?.content;
  return [{ type: 'text', text: `[pruned: ${formatSize(utf8Length(contentText(content)))}]` }];
}

/** Content blocks of a plain-text summary. */
export function summaryBlocks(text: string): unknown[] {
  return [{ type: 'text', text }];
}

export interface CompactionRequest {
  start: number;
  end: number;
  summaryText: string;
  /** Unique ids for the compaction and its checkpoint message (the caller's random source). */
  compactionId: string;
  messageId: string;
  /** Epoch ms; defaults to the last event's time. */
  time?: number;
}

/** A compaction edit for the surface span [start..end] with a hand-written summary. */
export function compactionEdit(log: SessionLog, request: CompactionRequest): CompactionEdit {
  const nodes = log.surface();
  const from = nodes.indexOf(request.start);
  const to = nodes.indexOf(request.end);
  const shadowed = from >= 0 && to >= from ? nodes.slice(from, to + 1) : [];
  const input: CompactionInput = {
    start: request.start,
    end: request.end,
    summary: summaryBlocks(request.summaryText),
    compactionId: request.compactionId,
    messageId: request.messageId,
    time: request.time ?? lastTime(log),
    shadowedTokenCount: estimateTokensOfSeqs(log, shadowed),
    ...MANUAL_SUMMARY_ROUTE,
  };
  return { kind: 'compaction', input };
}

export interface PruneRequest {
  seq: number;
  /** New text of the result; defaults to `[pruned: <size>]`. */
  text?: string;
  time?: number;
}

/** A prune edit of the tool/result at `seq`. */
export function pruneEdit(log: SessionLog, request: PruneRequest): PruneEdit {
  const content = request.text === undefined ? defaultPrunedContent(log, request.seq) : [{ type: 'text', text: request.text }];
  return { kind: 'prune', seq: request.seq, content, options: { time: request.time ?? lastTime(log) } };
}
