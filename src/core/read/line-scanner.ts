// The line scanner: dsh's SessionLogScanner rules over the bytes of a log. It finds complete lines,
// parses each once, expands nothing (packed rows are handed on whole), and applies the committed-prefix
// rules: a final fragment without a newline is a torn tail; the first unparsable or out-of-sequence
// line is damage, after which nothing is kept, and a later turn/end proves the damage sits inside
// committed history. A line longer than the read limit stops the scan with a diagnostic before it is
// decoded.
import type { Diagnostic, Stage } from '../types';
import { ByteStore, type Utf8Slicer } from './columns';
import { readHeaderLine, type HeaderRead } from './header';
import { isRowTagged, MalformedRowError, validateRow } from './chunk-rows';
import { nullReadMessage } from './json-values';
import type { Refusal } from './verdict';
import { stringText } from '../value-text';
import { say } from '../words';

const NEWLINE = 0x0a;

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
  private readonly beyond = { count: 0, lines: [] as LineBeyondDamage[] };

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
    return this.eventLine;
  }

  get stoppedByLimit(): boolean {
    return this.tooLong !== undefined;
  }

  /** Readable lines after the first damaged line (empty unless the scan stopped at damage). */
  get linesBeyondDamage(): { count: number; lines: readonly LineBeyondDamage[] } {
    return this.beyond;
  }

  /** One complete line (without its newline): dsh's scanner rules for the committed prefix. */
  private consumeLine(sink: LineSink, start: number, end: number): void {
    this.eventLine += 1;
    const fileLine = this.eventLine + 1;
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
    if (this.damage !== undefined) return this.afterDamage(sink, value, members > 0, fileLine, start, end);
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

  /** After damage dsh keeps nothing; a later turn/end proves the damage sits inside committed history. */
  private afterDamage(sink: LineSink, value: unknown, rowTagged: boolean, fileLine: number, start: number, end: number): void {
    const damage = this.damage!;
    if (value === null) return this.parseTypeError(sink, 'type', fileLine);
    const endsTurn = !rowTagged && (value as { type?: unknown }).type === 'turn/end';
    this.noteBeyondDamage(value, rowTagged, fileLine, start, end);
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
    if (this.beyond.lines.length >= 10_000) return;
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

/** Names a seq gap: a non-object line is damage; a row-shaped line (seq0, no seq) has a tag we cannot decode. */
function gapRule(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'jsonl.damaged-line';
  return 'seq0' in value && !('seq' in value) ? 'rows.decode' : 'seq.contiguity';
}
