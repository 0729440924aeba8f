// The v4 physical layout (spec §1, §5 "v3 → v4" header and framing): v2's framing — a header line with
// `isSeeded`, one event per row, range-encoded `sourceEventSeqs` — under a header whose version is 4;
// dsh's v4 codec wraps the v2 one, so its physical messages say "released v2". Each row is admitted as
// v4 before recovery (rules/row-admission.ts).
import { SessionFormatError } from '../errors';
import type { EventSink, FormatCodec, FormatEvent, LogicalHeader, Recovery, RowAdmission, RowDecoder } from '../types';
import { encodeV2Event, V2RowDecoder } from '../v1-to-v2/v2-codec';
import { decodeV2Header, encodeV2Header } from '../v1-to-v2/v2-header';
import { isJsonObject } from '../json';
import { assertV4Header } from './header';
import { assertDeveloperRules } from './rules/developer-message';
import { assertNoRetiredSyntax } from './rules/retired-syntax';
import { assertV4RowAdmission } from './rules/row-admission';
import { V4_EVENT_TYPES } from './vocabulary';

/** The v4 header value as the v2 header it is laid out like. */
function asV2PhysicalHeader(value: unknown): Record<string, unknown> {
  if (!isJsonObject(value) || value.version !== 4) throw new SessionFormatError('expected format v4 physical header');
  return { ...value, version: 2 };
}

export function decodeV4Header(value: unknown): LogicalHeader {
  return { ...decodeV2Header(asV2PhysicalHeader(value)), version: 4 };
}

class V4RowDecoder implements RowDecoder {
  readonly headerInheritedEventCount = undefined;
  readonly header: LogicalHeader;
  private readonly rows: V2RowDecoder;

  constructor(headerValue: unknown, recovery: Recovery) {
    this.rows = new V2RowDecoder(decodeV2Header(asV2PhysicalHeader(headerValue)), recovery);
    this.header = { ...this.rows.header, version: 4 };
  }

  // Every row is admitted before it is decoded: the restore of a log read as v4 relies on it and does
  // not apply the row rules to its events again.
  decodeRow(row: unknown, out: EventSink): void {
    assertV4RowAdmission(row);
    this.rows.decodeRow(row, out);
  }

  finish(): number {
    return this.rows.finish();
  }

  firstIssue(): SessionFormatError | undefined {
    return this.rows.firstIssue();
  }
}

export function encodeV4Header(header: LogicalHeader, inheritedEventCount: number): Record<string, unknown> {
  assertV4Header(header);
  return { ...encodeV2Header({ ...header, version: 2 }, inheritedEventCount), version: 4 };
}

/** A v4 event to its row, admitted as v4 first so the encoder never writes what the reader refuses. */
export function encodeV4Event(event: FormatEvent): Record<string, unknown> {
  // The writer knows developer messages, so it checks an ignorable one a reader might defer.
  if (event.type === 'developer/message' && event.ignorable === true) {
    assertDeveloperRules(event);
    assertNoRetiredSyntax(event);
  }
  assertV4RowAdmission(event);
  return encodeV2Event(event);
}

/**
 * Admission as a native reader applies it, knowing v4's vocabulary (spec §6, validation entry points).
 * Rows of every surface type, request headers, inbox and title messages, compaction output, PTC
 * dispatches, attempts and retired dispatches can be refused; a line naming none of them, and written
 * without escapes, cannot.
 */
export const v4RowAdmission: RowAdmission = {
  admit: (row) => assertV4RowAdmission(row, V4_EVENT_TYPES),
  mayRefuse: (lineText) => lineText.includes('\\') || ADMITTED_TYPE_HINTS.some((hint) => lineText.includes(hint)),
};

/** Substrings of every event type row admission reads (see rules/row-admission.ts and rules/). */
const ADMITTED_TYPE_HINTS = [
  'message',
  'tool/result',
  'request/header',
  'spliced',
  'title-llm',
  'compaction/summary',
  'dispatch',
  'assistant/attempt',
];

export const v4Codec: FormatCodec = {
  version: 4,
  decodeHeader: decodeV4Header,
  createDecoder: (headerValue, recovery) => new V4RowDecoder(headerValue, recovery),
  admission: v4RowAdmission,
  encodeHeader: encodeV4Header,
  encodeEvent: encodeV4Event,
};
