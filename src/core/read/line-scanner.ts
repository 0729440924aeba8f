// The line scanner: dsh's SessionLogScanner rules over the bytes of a log. It finds complete lines,
// parses each once, expands nothing (packed rows are handed on whole), and applies the committed-prefix
// rules: a final fragment without a newline is a torn tail; the first unparsable or out-of-sequence
// line is damage, after which nothing is kept, and a later turn/end proves the damage sits inside
// committed history. A line longer than the read limit stops the scan with a diagnostic before it is
// decoded.
//
// After the damage the work is bounded by what the verdict needs. dsh reads on only to learn whether a
// later complete line is a turn/end (or JSON null, which crashes its reader), and counts the packed rows
// it recognises. The first 10,000 lines after the damage are read in full (the view lists them); past
// them only lines that can matter are decoded — those holding `turn/end`, `null`, `-chunks` or a
// backslash (an escape could spell any of these) — found by the engine's byte search. No line is
// handed to JSON.parse unless it is JSON (a failing parse costs microseconds). A megabyte of empty lines,
// or a zstd frame inflating to gigabytes of them, costs a byte search, not a parse per line.
import type { Diagnostic, Stage } from '../types';
import { ByteStore, type Utf8Slicer } from './columns';
import { readHeaderLine, type HeaderRead } from './header';
import { isRowTagged, MalformedRowError, validateRow } from './chunk-rows';
import { nullReadMessage } from './json-values';
import type { Refusal } from './verdict';
import { stringText } from '../value-text';
import { say } from '../words';
import { isJsonText } from './json-syntax';

const NEWLINE = 0x0a;

/** Lines after the damage read in full for the view (beyond them, only the lines the verdict needs). */
const LINES_READ_BEYOND_DAMAGE = 10_000;

/** What a line after the damage must hold to matter (see the file comment). */
const CANDIDATES = ['turn/end', 'null', '-chunks', '\\'].map((text) => new TextEncoder().encode(text));

/** The longest line a string can hold in this engine (V8: 2^29 - 24 UTF-16 units); longer lines cannot be decoded. */
const ENGINE_MAX_LINE = 0x1fffffe8;

/** Where the scanner hands what it keeps and what it finds. */
export interface LineSink {
  /** The seq the next kept event must carry (the count of events kept so far). */
  readonly expectedSeq: number;
  /** The header line, read before any event line. */
  keepHeader(read: HeaderRead): void;
  /** One event line, parsed; `text` is its decoded line. */
  keepEvent(value: Record<string, unknown>, text: string, fileLine: number, start: number, length: number): void;
  /** One validated packed row of `members` assistant/chunk events. */
  keepRow(row: Record<string, any>, members: number, text: string, fileLine: number, start: number, length: number): void;
  refuse(stage: Stage, refusal: Refusal): void;
  hasRefusal(stage: Stage): boolean;
  report(d: Diagnostic): void;
}

/** A line after the damage that still reads as an event (or packed row), which dsh does not keep. */
export interface LineBeyondDamage {
  line: number;
  offset: number;
  length: number;
  type: string;
  seq?: number;
}

interface Damage {
  message: string;
  rule: string;
  line: number;
  offset: number;
}

export class LineScanner {
  readonly bytes: ByteStore;
  private readonly maxLineBytes: number;
  headerRead: HeaderRead | undefined;
  private scanPos = 0;
  /** Event lines read so far (dsh counts lines from 1 after the header). */
  private eventLine = 0;
  /** Bytes of the committed prefix: up to the end of the last kept line. */
  committed = 0;
  packedRows = 0;
  damage: Damage | undefined;
  /** Set when a line exceeded the limit: nothing after it is read, now or when the file grows. */
  private tooLong: { line: number; offset: number } | undefined;
  private readonly beyond = { count: 0, lines: [] as LineBeyondDamage[], more: false };
  /** Complete lines after the damaged one read in full so far. */
  private readBeyond = 0;
  /**
   * Where `eventLine` was last exact: past the lines read in full, lines are not counted as they go by
   * (a run of empty lines would cost a step each) but when a line number is needed.
   */
  private uncountedFrom: number | undefined;

  constructor(bytes: Uint8Array | ByteStore, maxLineBytes: number, slicer?: Utf8Slicer) {
    this.bytes = bytes instanceof ByteStore ? bytes : new ByteStore(bytes, slicer);
    this.maxLineBytes = Math.max(1, Math.min(maxLineBytes, ENGINE_MAX_LINE));
  }

  /** A scanner that goes on from where this one is, over a fork of its bytes (see ByteStore.fork). */
  fork(): LineScanner {
    const copy = new LineScanner(this.bytes.fork(), this.maxLineBytes);
    copy.headerRead = this.headerRead;
    copy.scanPos = this.scanPos;
    copy.eventLine = this.eventLine;
    copy.committed = this.committed;
    copy.packedRows = this.packedRows;
    copy.damage = this.damage;
    copy.tooLong = this.tooLong;
    copy.beyond.count = this.beyond.count;
    copy.beyond.lines = this.beyond.lines.slice();
    return copy;
  }

  /** Reads every complete line not read yet. `budgetMs` lets async callers yield between slices. */
  scan(sink: LineSink, budgetMs = Infinity, onProgress?: (fraction: number) => void): boolean {
    if (this.tooLong) return true;
    if (this.headerRead === undefined && !this.readHeader(sink)) return true;
    const started = budgetMs === Infinity ? 0 : Date.now();
    const bytes = this.bytes;
    let lines = 0;
    for (;;) {
      if (this.damage !== undefined && this.readBeyond >= LINES_READ_BEYOND_DAMAGE) {
        this.scanCandidates(sink);
        break;
      }
      const start = this.scanPos;
      const newline = bytes.indexOfBefore(NEWLINE, start, start + this.maxLineBytes + 1);
      if (newline === -1) {
        if (bytes.length - start > this.maxLineBytes) this.stopAtLongLine(sink, this.eventLine + 2, start);
        break;
      }
      this.consumeLine(sink, start, newline);
      this.scanPos = newline + 1;
      if (++lines % 4096 === 0) {
        onProgress?.(this.scanPos / Math.max(1, bytes.length));
        if (budgetMs !== Infinity && Date.now() - started > budgetMs) return false;
      }
    }
    onProgress?.(1);
    return true;
  }

  /** Reads the header line if it is not read yet; false while no complete header line is there. */
  readHeaderFirst(sink: LineSink): boolean {
    if (this.tooLong) return false;
    return this.headerRead !== undefined || this.readHeader(sink);
  }

  private readHeader(sink: LineSink): boolean {
    const end = this.bytes.indexOfBefore(NEWLINE, 0, this.maxLineBytes + 1);
    if (end === -1) {
      if (this.bytes.length > this.maxLineBytes) this.stopAtLongLine(sink, 1, 0);
      // No complete header line yet: refused as header-less for now, read when it completes.
      return false;
    }
    this.headerRead = readHeaderLine(this.bytes.text(0, end));
    this.scanPos = end + 1;
    this.committed = end + 1;
    sink.keepHeader(this.headerRead);
    return true;
  }

  /** A line longer than the limit: refused (dsh's verdict cannot be reached within the limit), and reading stops. */
  private stopAtLongLine(sink: LineSink, line: number, offset: number): void {
    this.tooLong = { line, offset };
    const limit = this.maxLineBytes;
    const said = say(
      'line {0} is longer than the read limit of {1} bytes (maxLineBytes); reading stopped at byte {2} without decoding it',
      line,
      limit,
      offset,
    );
    sink.refuse(line === 1 ? 'header' : 'parse', { dshError: said.message, errorName: 'Error', rule: 'limits.line-bytes', line });
    sink.report({ severity: 'error', rule: 'limits.line-bytes', ...said, line, offset });
  }

  /** Byte offset up to which complete lines have been read (the rest is a torn or growing tail). */
  get scannedBytes(): number {
    return this.scanPos;
  }

  /** Lines read after the header. */
  get linesRead(): number {
    this.countLinesTo(this.scanPos);
    return this.eventLine;
  }

  /** Brings `eventLine` up to the lines that end before `position` (see uncountedFrom). */
  private countLinesTo(position: number): void {
    if (this.uncountedFrom === undefined || position <= this.uncountedFrom) return;
    this.eventLine += this.bytes.count(NEWLINE, this.uncountedFrom, position);
    this.uncountedFrom = position;
  }

  get stoppedByLimit(): boolean {
    return this.tooLong !== undefined;
  }

  /**
   * Readable lines after the first damaged line (empty unless the scan stopped at damage), among the first
   * 10,000 lines after it; `more` when further lines follow, which are not listed or counted.
   */
  get linesBeyondDamage(): { count: number; lines: readonly LineBeyondDamage[]; more: boolean } {
    return this.beyond;
  }

  /** One complete line (without its newline): dsh's scanner rules for the committed prefix. */
  private consumeLine(sink: LineSink, start: number, end: number): void {
    this.eventLine += 1;
    const fileLine = this.eventLine + 1;
    if (this.damage !== undefined) {
      this.readBeyond += 1;
      return this.lineAfterDamage(sink, start, end, fileLine, true);
    }
    const text = this.bytes.text(start, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.damaged(sink, fileLine, start, end, 'jsonl.damaged-line', '');
    }
    let members = 0;
    if (isRowTagged(value)) {
      // dsh counts a row once it recognises the tag, before decoding it (a malformed row too).
      this.packedRows += 1;
      try {
        members = validateRow(value);
      } catch (error) {
        if (error instanceof MalformedRowError) return this.damaged(sink, fileLine, start, end, 'rows.decode', error.message);
        return this.damaged(sink, fileLine, start, end, 'jsonl.damaged-line', '');
      }
    }
    if (value === null) return this.parseTypeError(sink, 'seq', fileLine);
    const expected = sink.expectedSeq;
    const record = value as Record<string, any>;
    if (members > 0) {
      if (record.seq0 !== expected) return this.seqGap(sink, expected, record.seq0, fileLine, start, false, 'seq.contiguity');
      sink.keepRow(record, members, text, fileLine, start, end - start);
    } else {
      const seq = record.seq;
      if (seq !== expected) return this.seqGap(sink, expected, seq, fileLine, start, record.type === 'turn/end', gapRule(value));
      sink.keepEvent(record, text, fileLine, start, end - start);
    }
    this.committed = end + 1;
  }

  private damaged(sink: LineSink, fileLine: number, start: number, end: number, rule: string, why: string): void {
    sink.report({
      severity: 'warning',
      rule,
      ...(why ? say('line {0} cannot be read ({1})', fileLine, why) : say('line {0} cannot be read', fileLine)),
      line: fileLine,
      offset: start,
      length: end - start,
    });
    this.damage ??= {
      message: `corrupt session log: unparsable committed event at line ${this.eventLine}`,
      rule,
      line: fileLine,
      offset: start,
    };
  }

  /**
   * One complete line after the damage. dsh keeps nothing after it, but a later turn/end proves the damage
   * sits inside committed history, a later null crashes its reader, and it counts the packed rows it
   * recognises. `listed`: a line read in full, which the view lists when it reads as an event.
   */
  private lineAfterDamage(sink: LineSink, start: number, end: number, fileLine: number, listed: boolean): void {
    const text = this.bytes.text(start, end);
    if (!isJsonText(text)) return;
    const value: unknown = JSON.parse(text);
    let rowTagged = false;
    if (isRowTagged(value)) {
      // dsh counts a row once it recognises the tag, before decoding it (a malformed row too).
      this.packedRows += 1;
      rowTagged = true;
    }
    if (value === null) {
      if (!sink.hasRefusal('parse')) this.parseTypeError(sink, 'type', fileLine);
      return;
    }
    if (listed) this.noteBeyondDamage(value, rowTagged, fileLine, start, end);
    const damage = this.damage!;
    const endsTurn = !rowTagged && (value as { type?: unknown }).type === 'turn/end';
    if (endsTurn && !sink.hasRefusal('parse')) {
      sink.refuse('parse', { dshError: damage.message, errorName: 'Error', rule: damage.rule, line: damage.line });
      sink.report({
        severity: 'error',
        rule: 'jsonl.damaged-line',
        ...say('line {0} is damaged but line {1} closes a turn after it: the damage is inside committed history', damage.line, fileLine),
        line: damage.line,
        offset: damage.offset,
        related: [{ line: fileLine, ...say('the later turn/end') }],
      });
    }
  }

  /**
   * Lines after the damage that still read as events: dsh keeps none of them, but a view shows them
   * (type, seq, line) so the user sees what the damage cuts off. Capped: a summary, not a second index.
   */
  private noteBeyondDamage(value: unknown, rowTagged: boolean, line: number, offset: number, end: number): void {
    this.beyond.count += 1;
    const record = value as { type?: unknown; seq?: unknown; seq0?: unknown };
    const seq = rowTagged ? record.seq0 : record.seq;
    this.beyond.lines.push({
      line,
      offset,
      length: end - offset,
      type: rowTagged ? 'assistant/chunk' : typeof record.type === 'string' ? record.type : `(${typeof record.type})`,
      seq: typeof seq === 'number' ? seq : undefined,
    });
  }

  /**
   * Past the lines read in full: the complete lines that hold one of the CANDIDATES, found by byte search
   * and read in order; every other line is passed over unread (and uncounted until a number is needed).
   */
  private scanCandidates(sink: LineSink): void {
    const bytes = this.bytes;
    const end = bytes.lastIndexOf(NEWLINE, bytes.length, this.scanPos) + 1;
    if (this.uncountedFrom === undefined) this.uncountedFrom = this.scanPos;
    if (end > this.scanPos) this.beyond.more = true;
    // The next place of each candidate at or after `pos` (-1: none before `end`), kept between lines so
    // that no stretch of bytes is searched twice for the same candidate.
    const next = CANDIDATES.map(() => -2);
    let pos = this.scanPos;
    while (pos < end) {
      let hit = -1;
      for (let k = 0; k < CANDIDATES.length; k++) {
        if (next[k] !== -1 && next[k] < pos) next[k] = bytes.indexOfSequence(CANDIDATES[k], pos, end);
        if (next[k] !== -1 && (hit === -1 || next[k] < hit)) hit = next[k];
      }
      if (hit === -1) break;
      const lineStart = bytes.lastIndexOf(NEWLINE, hit, pos) + 1 || pos;
      const lineEnd = bytes.indexOf(NEWLINE, hit);
      if (lineEnd - lineStart > this.maxLineBytes) {
        this.countLinesTo(lineStart);
        this.scanPos = lineStart;
        return this.stopAtLongLine(sink, this.eventLine + 2, lineStart);
      }
      // Only an object (a turn/end, a packed row) or null can matter: anything else is passed over undecoded.
      const first = firstNonSpace(bytes, lineStart, lineEnd);
      if (first === 0x7b || first === 0x6e) {
        this.countLinesTo(lineStart);
        this.lineAfterDamage(sink, lineStart, lineEnd, this.eventLine + 2, false);
      }
      pos = lineEnd + 1;
    }
    this.scanPos = Math.max(this.scanPos, end);
    if (bytes.length - this.scanPos > this.maxLineBytes) {
      this.countLinesTo(this.scanPos);
      this.stopAtLongLine(sink, this.eventLine + 2, this.scanPos);
    }
  }

  private parseTypeError(sink: LineSink, prop: string, fileLine: number): void {
    sink.refuse('parse', { dshError: nullReadMessage(null, prop), errorName: 'TypeError', rule: 'jsonl.damaged-line', line: fileLine });
    sink.report({
      severity: 'error',
      rule: 'jsonl.damaged-line',
      ...say("line {0} is JSON null, which dsh's reader cannot read (it crashes)", fileLine),
      line: fileLine,
    });
  }

  private seqGap(sink: LineSink, expected: number, got: unknown, fileLine: number, offset: number, endsTurn: boolean, rule: string): void {
    const shown = stringText(got);
    const message = `corrupt session log: seq gap in committed region at line ${this.eventLine} (expected ${expected}, got ${shown})`;
    this.damage = { message, rule, line: fileLine, offset };
    sink.report({
      severity: 'warning',
      rule,
      ...say('line {0} has seq {1} where seq {2} was expected', fileLine, shown, expected),
      line: fileLine,
      offset,
    });
    if (endsTurn) sink.refuse('parse', { dshError: message, errorName: 'Error', rule, line: fileLine });
  }
}

/** The first byte of start..end that is not JSON white space (-1 if none). */
function firstNonSpace(bytes: ByteStore, start: number, end: number): number {
  for (let p = start; p < end; p++) {
    const c = bytes.at(p);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return c;
  }
  return -1;
}

/** Names a seq gap: a non-object line is damage; a row-shaped line (seq0, no seq) has a tag we cannot decode. */
function gapRule(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'jsonl.damaged-line';
  return 'seq0' in value && !('seq' in value) ? 'rows.decode' : 'seq.contiguity';
}
