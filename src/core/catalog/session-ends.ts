// What the Sessions view shows about a log, read from its two ends only: the header and first lines
// (title), and the last lines (turn count, event count, whether the final turn is open). Reading the
// whole log would make a folder of large logs slow to list; the ends are enough for a listing, and the
// session editor gives the full verdict when the log is opened.
import type { SessionHeader } from '../types';
import { readHeaderLine, type HeaderRead } from '../read/header';
import { generationHeader } from '../read/generation-reading';
import { CURRENT_FORMAT_VERSION, findGeneration } from '../format/generations';
import { KNOWN_EVENT_TYPES } from '../read/known-types';
import { asRecord } from '../read/json-values';
import { say, type Words } from '../words';
import { stringText } from '../value-text';

/** Bytes of the log's start read for the header and title. */
export const HEAD_BYTES = 128 * 1024;
/** Bytes of the log's end read for the turn state. */
export const TAIL_BYTES = 64 * 1024;
const TITLE_CHARS = 120;

/** Storage rows that stand for several assistant/chunk events (spec §1.4). */
const PACKED_ROWS = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks']);
/** Legacy v0 shapes dsh refuses outright (spec §1.7). */
const REFUSED_TYPES = new Set(['request/header-delta', 'mode/set']);

export interface EndsRefusal {
  message: string;
  /** `message` as a template and its arguments, when the words are ours rather than dsh's. */
  words?: Words;
  rule: string;
}

export interface SessionEnds {
  header?: SessionHeader;
  /** The first line is a session header line (`"type": "session"`), whether or not dsh accepts it. */
  headerLine?: boolean;
  /** Set when dsh would refuse the log for something visible at its ends. */
  refusal?: EndsRefusal;
  /** The first human prompt, on one line (or the session/title dsh generated when no prompt is near the start). */
  title?: string;
  /** The highest turn number seen (turns are numbered from 1). */
  turns?: number;
  /** Events in the log: the last seq seen + 1. */
  events?: number;
  /** True: the final turn has no turn/end yet; false: it ended; undefined: the ends do not say. */
  lastTurnOpen?: boolean;
  /** Time of the last event read (epoch ms). */
  lastEventTime?: number;
}

export interface EndsInput {
  /**
   * The generation the file's name names: a `session.jsonl` is a v0 log whatever its header says; a
   * `session.v4.jsonl` is read as v4. Undefined for other names: the header tells.
   */
  nameVersion?: number;
  /** The first bytes of the (decompressed) log, from offset 0. */
  head: Uint8Array;
  /** True when `head` is the whole log (then `tail` is not needed). */
  headIsWhole: boolean;
  /** The last bytes of the log. */
  tail?: Uint8Array;
  /** True when `tail` starts at the start of a line (else its first, partial line is skipped). */
  tailStartsAtLine?: boolean;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** Complete lines of a window: a first partial line (window not at a line start) and a last unterminated one are dropped. */
function completeLines(bytes: Uint8Array, startsAtLineStart: boolean): string[] {
  const text = decoder.decode(bytes);
  const lines = text.split('\n');
  lines.pop(); // the fragment after the last newline: torn or cut by the window
  if (!startsAtLineStart) lines.shift();
  return lines.filter((l) => l.trim() !== '');
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    return asRecord(JSON.parse(line));
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_CHARS ? flat.slice(0, TITLE_CHARS - 1) + '…' : flat;
}

/** The text of a human prompt (`user/message` whose source kind is `user`), or undefined. */
function humanPrompt(event: Record<string, unknown>): string | undefined {
  if (event.type !== 'user/message') return undefined;
  const data = asRecord(event.data);
  if (asRecord(data?.source)?.kind !== 'user' || !Array.isArray(data?.content)) return undefined;
  const text = data.content
    .map((block) => asRecord(block))
    .filter((block) => block?.type === 'text' && typeof block.text === 'string')
    .map((block) => block!.text as string)
    .join(' ');
  return text.trim() ? oneLine(text) : undefined;
}

/** The last seq an event line (or packed row) stands for. */
function lastSeq(event: Record<string, unknown>): number | undefined {
  if (typeof event.seq === 'number') return event.seq;
  if (PACKED_ROWS.has(event.type as string) && typeof event.seq0 === 'number') {
    const data = asRecord(event.data);
    const members = Array.isArray(data?.texts) ? data.texts.length : Array.isArray(data?.args) ? data.args.length : 1;
    return event.seq0 + Math.max(0, members - 1);
  }
  return undefined;
}

function v0RefusalOf(event: Record<string, unknown>, id: string): EndsRefusal | undefined {
  const type = event.type;
  if (typeof type !== 'string' || PACKED_ROWS.has(type)) return undefined;
  if (REFUSED_TYPES.has(type)) return { rule: 'adopt', message: `session "${id}" contains the retired event type "${type}"` };
  if (!KNOWN_EVENT_TYPES.has(type) && event.ignorable !== true) {
    return {
      rule: 'known-types',
      message: `session "${id}" contains event type "${type}" (seq ${stringText(event.seq ?? event.seq0)}) unknown to this harness and not marked ignorable; refusing to interpret the log — it was likely written by a newer harness`,
    };
  }
  return undefined;
}

/**
 * The header of a later generation (v1 and on), decoded by that generation's codec: its refusal in
 * dsh's words when the codec refuses it or the version is newer than this build reads; undefined for
 * a v0 log (read by the v0 header guard).
 */
function laterGenerationHeader(text: string, nameVersion: number | undefined): HeaderRead | undefined {
  if (nameVersion === 0) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const version = asRecord(raw)?.version;
  const stored = typeof version === 'number' && Number.isSafeInteger(version) && version > 0 ? version : undefined;
  const read = nameVersion ?? stored;
  if (read === undefined || stored === undefined) return undefined;
  const header = generationHeader(raw);
  if (stored > CURRENT_FORMAT_VERSION)
    return {
      raw,
      header,
      problem: {
        rule: 'format.header',
        message: `stored Session uses newer format v${stored}; this build writes v${CURRENT_FORMAT_VERSION}`,
      },
    };
  try {
    findGeneration(stored)?.codec.decodeHeader(raw);
  } catch (error) {
    return { raw, header, problem: { rule: 'format.header', message: error instanceof Error ? error.message : String(error) } };
  }
  return { raw, header };
}

/** Reads what a listing needs from the two ends of a log. Never throws. */
export function readSessionEnds(input: EndsInput): SessionEnds {
  const out: SessionEnds = {};
  const headText = decoder.decode(input.head.subarray(0, Math.min(input.head.length, 64 * 1024 * 1024)));
  const firstBreak = headText.indexOf('\n');
  if (firstBreak < 0 && !input.headIsWhole) {
    out.refusal = { rule: 'header.line-shape', ...say('the header line is longer than the part of the file read for the listing') };
    return out;
  }
  const headerText = (firstBreak < 0 ? headText : headText.slice(0, firstBreak)).replace(/^\uFEFF/, '');
  if (headerText.trim() === '') {
    out.refusal = { rule: 'header.line-shape', message: 'empty or header-less session log' };
    return out;
  }
  const later = laterGenerationHeader(headerText, input.nameVersion);
  const header = later ?? readHeaderLine(headerText);
  out.header = header.header;
  if (asRecord(header.raw)?.type === 'session') out.headerLine = true;
  if (header.problem) out.refusal = { rule: header.problem.rule, message: header.problem.message };
  const id = header.header?.id ?? '';
  // A later generation's vocabulary is checked when the log is opened (its verdict needs the whole log).
  const refusalOf = later ? () => undefined : v0RefusalOf;

  // Lines after the header in the head window, then (when the head is not the whole log) the tail's.
  const headLines = completeLines(input.head, true).slice(1);
  const tailLines = input.headIsWhole || !input.tail ? [] : completeLines(input.tail, input.tailStartsAtLine === true);
  let generatedTitle: string | undefined;
  const consider = (event: Record<string, unknown>) => {
    const seq = lastSeq(event);
    if (seq !== undefined) out.events = Math.max(out.events ?? 0, seq + 1);
    if (typeof event.time === 'number') out.lastEventTime = event.time;
    else if (typeof event.time0 === 'number') out.lastEventTime = event.time0;
    const data = asRecord(event.data);
    if (typeof data?.turn === 'number') out.turns = Math.max(out.turns ?? 0, data.turn);
    if (event.type === 'session/title' && typeof data?.title === 'string') generatedTitle = oneLine(data.title);
    if (!out.refusal) out.refusal = refusalOf(event, id);
  };

  for (const line of headLines) {
    const event = parse(line);
    if (!event) continue;
    if (out.title === undefined) out.title = humanPrompt(event);
    consider(event);
  }
  // Without the end of a log its turns, events and state are unknown: the head's would be its start's.
  if (!input.headIsWhole && !input.tail) {
    delete out.turns;
    delete out.events;
    out.title ??= generatedTitle;
    return out;
  }
  // The turn state comes from the last window that holds the end of the log.
  const endLines = input.headIsWhole ? headLines : tailLines;
  let bracket: boolean | undefined;
  let sawTurnEvent = false;
  for (const line of tailLines) {
    const event = parse(line);
    if (event) consider(event);
  }
  for (const line of endLines) {
    const event = parse(line);
    if (!event) continue;
    if (event.type === 'turn/start') bracket = true;
    else if (event.type === 'turn/end') bracket = false;
    else if (typeof asRecord(event.data)?.turn === 'number') sawTurnEvent = true;
  }
  // No bracket in the window: events of a turn without its end mean the turn is still open.
  out.lastTurnOpen = bracket ?? (sawTurnEvent ? true : input.headIsWhole ? false : undefined);
  out.title ??= generatedTitle;
  return out;
}

/** How a session looks from its ends and its file's modification time. */
export type SessionState = 'live' | 'closed' | 'crashed' | 'refused' | 'unknown';

/** An open final turn written to within this long is an agent at work; older, it is a crash. */
export const LIVE_WINDOW_MS = 2 * 60 * 1000;

export function sessionState(ends: SessionEnds, mtimeMs: number, nowMs: number, liveWindowMs = LIVE_WINDOW_MS): SessionState {
  if (ends.refusal) return 'refused';
  if (ends.lastTurnOpen === false) return 'closed';
  if (ends.lastTurnOpen === undefined) return 'unknown';
  return nowMs - mtimeMs <= liveWindowMs ? 'live' : 'crashed';
}
