// From a file's bytes to its header value and its rows with their physical line numbers, following
// dsh's v3-era JSONL persistence:
//   * zstd: concatenated frames, the first exactly the header line; a record may continue into the next
//     frame, but the complete frames must end on one; a torn final frame's complete records are kept
//     (the core's zstd decoder applies these rules);
//   * the header is the bytes up to the first LF; rows are the LF-terminated records after it, and the
//     bytes after the last LF are a torn tail, never parsed (a strict read refuses it);
//   * a row `JSON.parse` refuses is the first issue: no later row reaches a codec, and a later complete
//     row whose `type` is `turn/end` makes it fatal. A historical generation being migrated names the
//     row ("row N is not valid JSON"), the current generation the committed event ("unparsable
//     committed event at line N"); N counts event lines. CRLF needs nothing: JSON allows the `\r`.
// After the first issue only two things about a later line matter, whether it is a `turn/end` and
// (current generation) whether its generation's admission refuses it, so a line is parsed only when a
// cheap look at its text says it could matter.
import { decodeZstdLog } from '../zstd/decode';
import type { ZstdLimits } from '../zstd/decode-types';
import { isZstd } from '../zstd/frames';
import type { NativeZstd } from '../zstd/backend';
import { textDecoderSlicer, type Utf8Slicer } from '../read/columns';
import { isJsonObject } from './json';
import type { RowAdmission } from './types';

/** Where reading the container, the header line or the rows stopped, with dsh's message (a plain `Error` in dsh). */
export class PhysicalRefusal extends Error {
  override name = 'Error';
  constructor(
    readonly stage: 'bytes' | 'header' | 'jsonl',
    message: string,
    /** The physical line (1-based) the problem is on, when there is one. */
    readonly line?: number,
    /** The later line whose `turn/end` made a recoverable problem fatal. */
    readonly throwLine?: number,
  ) {
    super(message);
  }
}

export interface PhysicalOptions {
  zstdCodec?: NativeZstd;
  zstdLimits?: Partial<ZstdLimits>;
  utf8Slicer?: Utf8Slicer;
  /** A strict read (an isolated verifier): a torn final zstd frame is refused outright. */
  strict?: boolean;
}

/** A file opened: its text bytes, its header and where its complete rows are. */
export interface PhysicalLog {
  compressed: boolean;
  /** The JSONL text as bytes (a zstd file's decoded frames, then the records recovered from a torn frame). */
  text: Uint8Array;
  /** The header line's parsed value. */
  headerValue: unknown;
  /** Where the rows start (just after the header's LF) and end (just after the last LF). */
  bodyStart: number;
  bodyEnd: number;
  /** Bytes after the last LF, or a torn final zstd frame: what a strict read refuses. */
  tornTail: boolean;
  /** Decodes text[start, end) as UTF-8, invalid sequences replaced, a BOM kept. */
  slice(start: number, end: number): string;
}

const LF = 0x0a;
export const TORN_TAIL = 'current session generation has a torn physical tail';

/** The file's container and header line. Throws PhysicalRefusal. */
export function openPhysicalLog(file: Uint8Array, options: PhysicalOptions = {}): PhysicalLog {
  let text = file;
  let compressed = false;
  let tornTail: boolean;
  if (isZstd(file)) {
    compressed = true;
    const decoded = decodeZstdLog(file, { codec: options.zstdCodec, limits: options.zstdLimits, recordsAcrossFrames: true });
    if (options.strict && decoded.tornFrameStart !== undefined && decoded.frames > 0) throw new PhysicalRefusal('bytes', TORN_TAIL);
    if (decoded.error) throw new PhysicalRefusal('bytes', decoded.error.message);
    text = decoded.text;
    tornTail = decoded.tornFrameStart !== undefined;
  } else {
    tornTail = file.length > 0 && file[file.length - 1] !== LF;
  }
  const headerEnd = text.indexOf(LF);
  if (headerEnd === -1) throw new PhysicalRefusal('header', 'empty or header-less session log');
  const slice = (options.utf8Slicer ?? textDecoderSlicer)(text);
  let headerValue: unknown;
  try {
    headerValue = JSON.parse(slice(0, headerEnd));
  } catch {
    throw new PhysicalRefusal('header', 'corrupt session log: header line is not valid JSON', 1);
  }
  if (!isJsonObject(headerValue)) throw new PhysicalRefusal('header', 'corrupt session log: first line is not a JSON object', 1);
  const version = headerValue['version'];
  if (!Number.isSafeInteger(version) || (version as number) < 0 || Object.is(version, -0))
    throw new PhysicalRefusal('header', 'corrupt session log: header version is not a non-negative safe integer', 1);
  const bodyEnd = text.lastIndexOf(LF) + 1;
  return { compressed, text, headerValue, bodyStart: headerEnd + 1, bodyEnd, tornTail, slice };
}

export interface RowWalk {
  /**
   * `current`: the file is read as its own generation (dsh's log scanner); otherwise it is a
   * historical generation being migrated. Only the wording of an unparsable row and the admission of
   * rows after damage differ.
   */
  current: boolean;
  strict: boolean;
  /** The stored generation's admission, applied to rows after damage (current reads). */
  admission?: RowAdmission;
  /** Each parsed row before the first issue, with its physical line and where its text is (`end`: its LF). */
  row(value: unknown, line: number, start: number, end: number): void;
  /** The line of a row after damage that the admission is about to judge (so a refusal names it). */
  admitting?(line: number): void;
}

/** What recovery dropped silently: the first unparsable row and its line. */
export interface JsonlIssue {
  message: string;
  line: number;
}

/**
 * Walks the complete rows in order. Throws PhysicalRefusal('jsonl') for an unparsable row that a
 * strict read meets, or that a later `turn/end` proves committed; whatever `row` or the admission
 * throws passes through. Returns the issue recovery dropped the rest of the file for, if any.
 */
export function walkRows(log: PhysicalLog, walk: RowWalk): JsonlIssue | undefined {
  const { text, bodyEnd } = log;
  let issue: JsonlIssue | undefined;
  let line = 1;
  for (let start = log.bodyStart; start < bodyEnd;) {
    const rowStart = start;
    const end = text.indexOf(LF, start);
    // An empty row is not decoded: a file of blank lines costs one search per line, not one decode.
    const rowText = end === start ? '' : log.slice(start, end);
    start = end + 1;
    line += 1;
    if (issue === undefined) {
      let value: unknown;
      try {
        value = JSON.parse(rowText);
      } catch {
        const eventLine = line - 1;
        const message = walk.current
          ? `corrupt session log: unparsable committed event at line ${eventLine}`
          : `corrupt session log: row ${eventLine} is not valid JSON`;
        if (walk.strict) throw new PhysicalRefusal('jsonl', message, line);
        issue = { message, line };
        continue;
      }
      walk.row(value, line, rowStart, end);
      continue;
    }
    if (rowText.length === 0) continue;
    const admit = walk.current && walk.admission !== undefined && walk.admission.mayRefuse(rowText);
    if (!admit && !mayBeTurnEnd(rowText)) continue;
    let value: unknown;
    try {
      value = JSON.parse(rowText);
    } catch {
      continue;
    }
    if (admit) {
      walk.admitting?.(line);
      walk.admission!.admit(value);
    }
    if (isJsonObject(value) && value['type'] === 'turn/end') throw new PhysicalRefusal('jsonl', issue.message, issue.line, line);
  }
  return issue;
}

/**
 * Whether a line's text could parse to a `turn/end` row. Conservative: the word itself, or an escape
 * that could spell it (`\/`, `\u…`), which dsh's writer never produces.
 */
function mayBeTurnEnd(rowText: string): boolean {
  return rowText.includes('turn/end') || rowText.includes('\\/') || rowText.includes('\\u');
}
