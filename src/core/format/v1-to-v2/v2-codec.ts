// The v2 physical layout: a header line with `isSeeded`, then exactly one event per row (no packed
// chunk rows any more), `sourceEventSeqs` range-encoded. The codec is neutral to event vocabulary and
// payloads; those are the restore's business.
import { SessionFormatError } from '../errors';
import type { EventSink, FormatCodec, FormatEvent, LogicalHeader, Recovery, RowDecoder } from '../types';
import { encodeSourceSeqs, expandSourceSpans, readSourceSpans, type SourceSpans } from './source-ranges';
import { decodeV2Header, encodeV2Header } from './v2-header';
import { formatCount, formatSafeInteger, isJsonObject, templateString, type JsonObject } from '../json';

const EVENT_FIELDS: ReadonlySet<string> = new Set(['type', 'seq', 'time', 'data', 'ignorable', 'sourceEventSeqs', 'surfaceOp']);
const REQUIRED_FIELDS = ['type', 'seq', 'time', 'data'];

/**
 * Checks one row's envelope (it returns only for an object). Every row of a log comes through here:
 * the messages' labels are written only for a refusal.
 */
function checkRowValue(value: unknown, rowIndex: number): value is JsonObject {
  const label = (): string => `released v2 row ${rowIndex}`;
  if (!isJsonObject(value)) throw new SessionFormatError(`${label()} must be an object`);
  for (const key of REQUIRED_FIELDS) if (!Object.hasOwn(value, key)) throw new SessionFormatError(`${label()} lacks required field ${key}`);
  for (const key in value) if (!EVENT_FIELDS.has(key)) throw new SessionFormatError(`${label()} has unexpected field ${key}`);
  if (typeof value.type !== 'string') throw new SessionFormatError(`${label()} type must be a string`);
  const time = value.time;
  if (!Number.isSafeInteger(time) || Object.is(time, -0)) formatSafeInteger(time, `${label()} time`);
  if (value.ignorable !== undefined && value.ignorable !== true)
    throw new SessionFormatError(`${label()} ignorable must be true when present`);
  return true;
}

/** A row's `sourceEventSeqs` (checked against its seq) as spans; undefined when it has none. */
function rowSources(row: JsonObject, rowIndex: number): SourceSpans | undefined {
  if (row.sourceEventSeqs === undefined) return undefined;
  const seq = formatCount(row.seq, `released v2 row ${rowIndex} seq`);
  return readSourceSpans(row.sourceEventSeqs, seq);
}

/**
 * Reads rows in order. A malformed row or a seq gap fails a strict read; a recoverable read keeps the
 * prefix before the first such issue and drops the rest, unless a later complete row is a `turn/end`
 * (a later turn boundary proves the damage is not a torn tail), which fails the read with that issue.
 */
export class V2RowDecoder implements RowDecoder {
  readonly headerInheritedEventCount = undefined;
  private rowIndex = 0;
  private eventCount = 0;
  private inheritedMarker: number | undefined;
  private issue: SessionFormatError | undefined;

  constructor(
    readonly header: LogicalHeader,
    private readonly recovery: Recovery,
  ) {}

  decodeRow(value: unknown, out: EventSink): void {
    const rowIndex = this.rowIndex++;
    let row: JsonObject;
    let sources: SourceSpans | undefined;
    try {
      checkRowValue(value, rowIndex);
      row = value as JsonObject;
      sources = rowSources(row, rowIndex);
    } catch (error) {
      const issue =
        error instanceof SessionFormatError ? error : new SessionFormatError(`released v2 row ${rowIndex} is malformed`, { cause: error });
      if (this.recovery === 'strict') throw issue;
      this.issue ??= issue;
      return;
    }
    if (this.issue !== undefined) {
      if (row.type === 'turn/end') throw this.issue;
      return;
    }
    if (row.seq !== this.eventCount) {
      this.issue = new SessionFormatError(
        `released v2 row ${rowIndex} has seq gap (expected ${this.eventCount}, got ${templateString(row.seq)})`,
      );
      if (this.recovery === 'strict' || row.type === 'turn/end') throw this.issue;
      return;
    }
    this.eventCount += 1;
    if (row.type === 'session/end-seed') {
      const data = row.data;
      if (!isJsonObject(data)) throw new SessionFormatError(`session/end-seed ${String(row.seq)} data must be an object`);
      if (data.inherited === true) this.inheritedMarker = row.seq as number;
    }
    const event = sources === undefined ? row : { ...row, sourceEventSeqs: expandSourceSpans(sources) };
    out.emitEvent(event as FormatEvent);
  }

  /** The inherited cut is the seq of the last `session/end-seed {inherited: true}`; the header says whether there must be one. */
  finish(): number {
    if (this.header.isSeeded && this.inheritedMarker === undefined)
      throw new SessionFormatError('released v2 seeded Session lacks an inherited end-seed marker');
    if (!this.header.isSeeded && this.inheritedMarker !== undefined)
      throw new SessionFormatError('released v2 unseeded Session contains an inherited end-seed marker');
    return this.inheritedMarker ?? 0;
  }

  /** The issue that ended the accepted prefix of a recoverable read, if any. */
  firstIssue(): SessionFormatError | undefined {
    return this.issue;
  }
}

/** One logical event to its row: the same object, `sourceEventSeqs` range-encoded. */
export function encodeV2Event(event: FormatEvent): Record<string, unknown> {
  if (event.sourceEventSeqs === undefined) return event;
  return { ...event, sourceEventSeqs: encodeSourceSeqs(event.sourceEventSeqs) };
}

export const v2Codec: FormatCodec = {
  version: 2,
  decodeHeader: decodeV2Header,
  createDecoder: (headerValue, recovery) => new V2RowDecoder(decodeV2Header(headerValue), recovery),
  encodeHeader: encodeV2Header,
  encodeEvent: encodeV2Event,
};
