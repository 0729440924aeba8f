// What follows the last complete line of a log and is not part of the session: a torn line (bytes
// with no newline yet), a torn final zstd frame, or everything from the first damaged line on. Said
// with sizes, a bounded preview and, for damage, which later lines dsh does not keep and why.
import type { SessionLog, LineBeyondDamage } from '../read/session-log';
import type { ZstdSummary } from '../read/load-file';
import { decodeZstdLog } from '../zstd/decode';
import { say, type Said, type Words } from '../words';

export type TornTailKind = 'torn-line' | 'torn-frame' | 'damaged-line';

/** Preview of a tail: at most this many characters, control and direction characters made visible. */
export const TAIL_PREVIEW_CHARS = 240;

export interface TailDamage {
  /** The first line dsh could not keep (1-based file line of the decompressed text). */
  line: number;
  rule: string;
  /** What is wrong with it, in our words. */
  message: string;
  words?: Words;
}

export interface TornTail {
  kind: TornTailKind;
  /** Size of the file as loaded (compressed size for a zstd log). */
  fileBytes: number;
  /** Bytes not part of the session: for plain logs after the last kept line; for zstd, text bytes after it (a torn frame: its compressed bytes). */
  droppedBytes: number;
  /** Text offset where the kept part ends (the safe truncation point of a plain log). */
  keptTextBytes: number;
  /** The 1-based line where the tail starts. */
  line: number;
  /** A bounded, printable preview of the tail's first bytes (hex for a compressed frame). */
  preview: string;
  previewTruncated: boolean;
  /** A torn zstd frame: where it starts in the file and the complete lines decoded from it (kept). */
  tornFrameStart?: number;
  recoveredTextBytes?: number;
  damage?: TailDamage;
  /** Complete lines after the damage that still read as events; dsh keeps none of them. */
  linesBeyond?: { count: number; lines: readonly LineBeyondDamage[] };
  /** True when dsh refuses the log because of it (a later turn/end puts the damage inside committed history). */
  refusesLog: boolean;
  /** Why the tail is not part of the session, in one sentence. */
  why: string;
  /** `why` as a template and its arguments, for a display in another language (see words.ts). */
  whyWords?: Words;
}

const DAMAGE_RULES = new Set(['jsonl.damaged-line', 'rows.decode', 'seq.contiguity', 'seq.gap']);

/** The file as loaded: its bytes and, for a zstd log, what the container held. */
export interface LoadedBytes {
  fileBytes: Uint8Array;
  zstd?: ZstdSummary;
  /** The decompressed text of a zstd log, when the caller has it (decoded again when needed otherwise). */
  text?: Uint8Array;
}

/** The tail of a loaded log, or undefined when every byte belongs to the session. */
export function reviewTornTail(log: SessionLog, source: LoadedBytes): TornTail | undefined {
  const scan = log.scan;
  const zstd = source.zstd;
  const tailText = (): { preview: string; previewTruncated: boolean } => {
    const text = !zstd ? source.fileBytes : (source.text ?? decodeZstdLog(source.fileBytes).text);
    return textPreview(
      text.subarray(scan.committedBytes, Math.min(text.length, scan.committedBytes + TAIL_PREVIEW_CHARS * 4)),
      text.length - scan.committedBytes,
    );
  };
  const refusesLog = !log.verdict.ok && log.verdict.stage === 'parse';
  if (scan.committedBytes < scan.fileBytes && scan.stoppedAt !== 'torn-tail') {
    const damage = findDamage(log, scan.committedBytes);
    const reason = damageReason(damage, String(scan.stoppedAt));
    const beyond = log.linesBeyondDamage;
    const preview = tailText();
    return {
      kind: 'damaged-line',
      fileBytes: zstd ? zstd.compressedBytes : scan.fileBytes,
      droppedBytes: scan.fileBytes - scan.committedBytes,
      keptTextBytes: scan.committedBytes,
      line: damage?.line ?? nextLine(log),
      ...preview,
      ...(damage ? { damage } : {}),
      linesBeyond: { count: beyond.count, lines: beyond.lines },
      refusesLog,
      ...why(
        refusesLog
          ? say(
              'line {0} cannot be read and a later line closes a turn, so the damage is inside committed history: dsh refuses the log',
              damage?.line ?? '?',
            )
          : reason === undefined
            ? say('line {0} cannot be read; dsh keeps only the events before it and drops every later line', damage?.line ?? '?')
            : say(
                'line {0} cannot be read ({1}); dsh keeps only the events before it and drops every later line',
                damage?.line ?? '?',
                reason,
              ),
      ),
    };
  }
  if (scan.committedBytes < scan.fileBytes) {
    const preview = tailText();
    return {
      kind: 'torn-line',
      fileBytes: zstd ? zstd.compressedBytes : scan.fileBytes,
      droppedBytes: scan.fileBytes - scan.committedBytes,
      keptTextBytes: scan.committedBytes,
      line: nextLine(log),
      ...preview,
      refusesLog: false,
      ...why(say('the last line has no newline: a write that stopped part way (dsh ignores it), or a line still being written')),
    };
  }
  if (zstd?.tornFrameStart !== undefined) {
    return {
      kind: 'torn-frame',
      fileBytes: zstd.compressedBytes,
      droppedBytes: zstd.compressedBytes - zstd.tornFrameStart,
      keptTextBytes: scan.committedBytes,
      line: nextLine(log),
      ...tornFramePreview(source.fileBytes, zstd.tornFrameStart),
      tornFrameStart: zstd.tornFrameStart,
      recoveredTextBytes: zstd.recoveredBytes ?? 0,
      refusesLog: false,
      ...why(
        say(
          'the last zstd frame ends before its last block: a write that stopped part way (dsh keeps the complete lines decoded from it and drops the rest)',
        ),
      ),
    };
  }
  return undefined;
}

/** The torn final frame's first bytes as hex: compressed bytes read as nothing else. */
function tornFramePreview(fileBytes: Uint8Array, tornFrameStart: number): { preview: string; previewTruncated: boolean } {
  return hexPreview(fileBytes.subarray(tornFrameStart, tornFrameStart + 48), fileBytes.length - tornFrameStart > 48);
}

function nextLine(log: SessionLog): number {
  const count = log.eventCount;
  return count > 0 ? (log.place(count - 1)?.line ?? 1) + 1 : 2;
}

function findDamage(log: SessionLog, offset: number): TailDamage | undefined {
  const found = log.diagnostics.find(
    (d) => DAMAGE_RULES.has(d.rule) && d.offset === offset && d.line !== undefined && d.severity !== 'info',
  );
  return found
    ? { line: found.line as number, rule: found.rule, message: found.message, ...(found.words ? { words: found.words } : {}) }
    : undefined;
}

/**
 * What makes the damaged line unreadable, for "line N cannot be read (…)": the reason its diagnostic
 * gives — not the diagnostic's whole sentence, which already says that the line cannot be read —
 * and nothing when it gives none (a line that is not JSON).
 */
function damageReason(damage: TailDamage | undefined, otherwise: string): Said | string | undefined {
  if (!damage) return otherwise;
  const words = damage.words;
  if (words?.template === 'line {0} cannot be read') return undefined;
  const reason = words?.template === 'line {0} cannot be read ({1})' ? words.args[1] : undefined;
  if (typeof reason === 'string') return reason;
  return words ? { message: damage.message, words } : damage.message;
}

/** A tail's `why` and its words. */
function why(said: Said): { why: string; whyWords: Words } {
  return { why: said.message, whyWords: said.words };
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Text made safe to show on one line: control characters, bidi controls and other invisible format
 * characters become \u escapes, so a tail cannot reorder or hide what surrounds it.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

function textPreview(bytes: Uint8Array, totalBytes: number): { preview: string; previewTruncated: boolean } {
  const chars = Array.from(decoder.decode(bytes));
  const truncated = chars.length > TAIL_PREVIEW_CHARS || bytes.length < totalBytes;
  return { preview: printable(chars.slice(0, TAIL_PREVIEW_CHARS).join('')), previewTruncated: truncated };
}

function hexPreview(bytes: Uint8Array, truncated = false): { preview: string; previewTruncated: boolean } {
  return { preview: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' '), previewTruncated: truncated };
}
