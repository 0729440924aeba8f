// Builds planner inputs from what a person gives (a range, a summary text, a target seq): the defaults
// a manual edit uses when nobody measured anything — the prune placeholder that says how much was cut,
// a token estimate for the shadowed span, the summarizing "route" of a hand-written summary.
import { isSessionLog, type SessionLog } from '../read/session-log';
import type { CompactionInput } from './compaction';
import type { CompactionEdit, PruneEdit } from './pending-edits';
import { lastTime } from './checks';
import { jsonByteLength, utf8ByteLength } from '../json-text';
import { asSeqList } from '../api-guard';

/** Provider and model recorded for a summary a person wrote (dsh records the summarizing route). */
export const MANUAL_SUMMARY_ROUTE = { provider: 'session-surface', model: 'hand-written' } as const;

/** A token estimate for text: one token per 4 bytes, the usual rule of thumb without a tokenizer (0 for what is not text). */
export function estimateTokensOfText(text: string): number {
  return typeof text === 'string' ? Math.ceil(utf8ByteLength(text) / 4) : 0;
}

/**
 * Estimated tokens of events as the model sees them: their data's JSON text by the same rule, counted as it
 * is written (a value nested deep or a large result costs no copy). Seqs that name no event count nothing.
 */
export function estimateTokensOfSeqs(log: SessionLog, seqs: readonly number[]): number {
  const list = isSessionLog(log) ? asSeqList(seqs, log.eventCount + log.closers.length) : undefined;
  if (!list) return 0;
  let total = 0;
  for (const seq of list) total += Math.ceil(jsonByteLength(log.event(seq)?.data ?? null) / 4);
  return total;
}

/** "12.3 KB" style sizes (1 KB = 1000 bytes, as file managers show them); what is not a size reads "? B". */
export function formatSize(bytes: number): string {
  if (typeof bytes !== 'number' || !(bytes >= 0)) return '? B';
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

/** UTF-8 bytes of tool-result content blocks (text blocks by their text, other blocks as JSON), counted without a copy. */
function contentBytes(content: unknown): number {
  if (!Array.isArray(content)) return jsonByteLength(content ?? null);
  let bytes = 0;
  for (const b of content) {
    const text = b && typeof b === 'object' ? (b as { text?: unknown }).text : undefined;
    bytes += typeof text === 'string' ? utf8ByteLength(text) : jsonByteLength(b);
  }
  return bytes;
}

/** The default new content of a pruned tool result: one text block saying how much was removed. */
export function defaultPrunedContent(log: SessionLog, seq: number): unknown[] {
  const content = isSessionLog(log) ? log.event(seq)?.data?.message?.content?.[0]?.content : undefined;
  return [{ type: 'text', text: `[pruned: ${formatSize(contentBytes(content))}]` }];
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

/**
 * A compaction edit for the surface span [start..end] with a hand-written summary. Whatever the request
 * holds is passed on as read (each field once): planning the edit refuses what cannot be planned.
 */
export function compactionEdit(log: SessionLog, request: CompactionRequest): CompactionEdit {
  const r = readFields(request, ['start', 'end', 'summaryText', 'compactionId', 'messageId', 'time']);
  const nodes = isSessionLog(log) ? log.surface() : [];
  const from = nodes.indexOf(r.start as number);
  const to = nodes.indexOf(r.end as number);
  const shadowed = from >= 0 && to >= from ? nodes.slice(from, to + 1) : [];
  const input: CompactionInput = {
    start: r.start as number,
    end: r.end as number,
    summary: summaryBlocks(r.summaryText as string),
    compactionId: r.compactionId as string,
    messageId: r.messageId as string,
    time: (r.time as number | undefined) ?? lastTimeOf(log),
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

/** A prune edit of the tool/result at `seq` (the request read as `compactionEdit` reads its own). */
export function pruneEdit(log: SessionLog, request: PruneRequest): PruneEdit {
  const r = readFields(request, ['seq', 'text', 'time']);
  const content = r.text === undefined ? defaultPrunedContent(log, r.seq as number) : [{ type: 'text', text: r.text }];
  return { kind: 'prune', seq: r.seq as number, content, options: { time: (r.time as number | undefined) ?? lastTimeOf(log) } };
}

function lastTimeOf(log: SessionLog): number {
  return isSessionLog(log) ? lastTime(log) : 0;
}

/** The fields of a caller's request, each read once; a field whose read throws, or a request that is no object, reads as undefined. */
function readFields(request: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof request !== 'object' || request === null) return out;
  for (const key of keys) {
    try {
      out[key] = (request as Record<string, unknown>)[key];
    } catch {
      out[key] = undefined;
    }
  }
  return out;
}
