// The v3 physical layout is v2's (dsh's v3 codec wraps the v2 one, so its physical messages say
// "released v2"), plus v3 row admission. Structural rules (retired `header.system`, system message
// payloads, required retired PTC events) fail a read wherever they appear, even in a tail recovery would
// drop; the other envelope rules are recoverable issues like a malformed row.
import { SessionFormatError } from '../errors';
import type { EventSink, FormatCodec, FormatEvent, LogicalHeader, Recovery, RowAdmission, RowDecoder } from '../types';
import { encodeV2Event, V2RowDecoder } from '../v1-to-v2/v2-codec';
import { decodeV2Header, encodeV2Header } from '../v1-to-v2/v2-header';
import { isJsonObject, isLosslessJson } from '../json';
import { admitStructuralRow, admitV3Event, refuseRetiredDispatch } from './v3-admission';
import { assertV3Header } from './v3-header';

/** The v3 header value as the v2 header it is laid out like. */
function asV2PhysicalHeader(value: unknown): Record<string, unknown> {
  if (!isLosslessJson(value)) throw new SessionFormatError('format v3 physical header is not lossless JSON');
  if (!isJsonObject(value) || value.version !== 3) throw new SessionFormatError('expected format v3 physical Session header');
  return { ...value, version: 2 };
}

export function decodeV3Header(value: unknown): LogicalHeader {
  return { ...decodeV2Header(asV2PhysicalHeader(value)), version: 3 };
}

class V3RowDecoder implements RowDecoder {
  readonly headerInheritedEventCount = undefined;
  readonly header: LogicalHeader;
  private readonly rows: V2RowDecoder;
  /** The first v3 admission failure of a recoverable read; events after it are dropped. */
  private issue: Error | undefined;
  private earliestIssue: Error | undefined;
  private acceptedInheritedCut: number | undefined;
  private readonly admitted: EventSink;
  private out: EventSink | undefined;

  constructor(
    headerValue: unknown,
    private readonly recovery: Recovery,
  ) {
    this.rows = new V2RowDecoder(decodeV2Header(asV2PhysicalHeader(headerValue)), recovery);
    this.header = { ...this.rows.header, version: 3 };
    this.admitted = {
      emitEvent: (event) => this.admit(event),
      emitRun: (run) => this.out?.emitRun(run),
    };
  }

  decodeRow(row: unknown, out: EventSink): void {
    admitRow(row);
    this.out = out;
    this.rows.decodeRow(row, this.admitted);
    this.earliestIssue ??= this.issue ?? this.rows.firstIssue();
  }

  private admit(event: FormatEvent): void {
    refuseRetiredDispatch(event);
    if (this.issue === undefined) {
      try {
        admitV3Event(event);
      } catch (error) {
        if (this.recovery === 'strict') throw error;
        this.issue = error instanceof Error ? error : new SessionFormatError(String(error));
      }
    }
    if (this.issue !== undefined) {
      if (event.type === 'turn/end') throw this.issue;
      return;
    }
    if (event.type === 'session/end-seed' && isJsonObject(event.data) && event.data.inherited === true)
      this.acceptedInheritedCut = event.seq;
    this.out?.emitEvent(event);
  }

  finish(): number {
    if (this.issue === undefined) return this.rows.finish();
    if (this.header.isSeeded && this.acceptedInheritedCut === undefined)
      throw new SessionFormatError('format v3 seeded Session lacks an accepted inherited end-seed marker');
    if (!this.header.isSeeded && this.acceptedInheritedCut !== undefined)
      throw new SessionFormatError('format v3 unseeded Session contains an inherited end-seed marker');
    return this.acceptedInheritedCut ?? 0;
  }

  /** The first issue that ended the accepted prefix of a recoverable read, if any. */
  firstIssue(): Error | undefined {
    return this.earliestIssue;
  }
}

export function encodeV3Header(header: LogicalHeader, inheritedEventCount: number): Record<string, unknown> {
  assertV3Header(header);
  return { ...encodeV2Header({ ...header, version: 2 }, inheritedEventCount), version: 3 };
}

/** A v3 event to its row: admitted as v3 first, so the encoder never writes what the reader refuses. */
export function encodeV3Event(event: FormatEvent): Record<string, unknown> {
  refuseRetiredDispatch(event);
  admitV3Event(event);
  return encodeV2Event(event);
}

/** The v3 rules that refuse a row wherever it is, even after damage recovery would drop. */
function admitRow(row: unknown): void {
  admitStructuralRow(row);
  if (isJsonObject(row)) refuseRetiredDispatch(row);
}

export const v3RowAdmission: RowAdmission = {
  admit: admitRow,
  // Only request headers, system messages and retired dispatch rows can be refused; a line that
  // spells its type with escapes is looked at whole.
  mayRefuse: (lineText) =>
    lineText.includes('\\') ||
    lineText.includes('request/header') ||
    lineText.includes('system/message') ||
    lineText.includes('code-dispatch'),
};

export const v3Codec: FormatCodec = {
  version: 3,
  decodeHeader: decodeV3Header,
  createDecoder: (headerValue, recovery) => new V3RowDecoder(headerValue, recovery),
  admission: v3RowAdmission,
  encodeHeader: encodeV3Header,
  encodeEvent: encodeV3Event,
};
