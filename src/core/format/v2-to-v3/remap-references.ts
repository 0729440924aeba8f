// The v2→v3 migration inserts system messages, so later events move and their declared same-session
// references follow: `sourceEventSeqs`, replace endpoints, `command/done.sourceEventSeq`, compaction
// ranges and lists, title `messageSeqs`. Every reference must name an earlier source event.
import { SessionFormatError } from '../errors';
import type { FormatEvent } from '../types';
import { formatCount, type JsonObject } from '../json';
import { objectAt } from '../v1-to-v2/v2-checks';

/** `event` at `targetSeq`, its references through `mapping` (source seq → target seq); keys keep their places. */
export function remapEvent(event: FormatEvent, targetSeq: number, mapping: readonly number[]): FormatEvent {
  const one = (value: unknown): number => {
    const source = formatCount(value, 'source event reference');
    const target = mapping[source];
    if (source >= event.seq || target === undefined) throw new SessionFormatError('reference must name an earlier source event');
    return target;
  };
  const list = (value: unknown): number[] => {
    if (!Array.isArray(value)) throw new SessionFormatError('sequence references must be an array');
    return value.map(one);
  };
  const range = (value: unknown): JsonObject => {
    const source = objectAt(value, 'sequence range');
    return { ...source, start: one(source.start), end: one(source.end) };
  };
  let data = objectAt(event.data, event.type);
  switch (event.type) {
    case 'command/done':
      if (data.sourceEventSeq !== undefined) data = { ...data, sourceEventSeq: one(data.sourceEventSeq) };
      break;
    case 'compaction/summary':
    case 'compaction/prune':
      data = { ...data, shadowedRange: range(data.shadowedRange), shadowedSeqs: list(data.shadowedSeqs) };
      break;
    case 'session/title':
    case 'session/title-llm-request':
      data = { ...data, messageSeqs: list(data.messageSeqs) };
      break;
  }
  const target: FormatEvent = { ...event, seq: targetSeq, data };
  if (event.sourceEventSeqs !== undefined) target.sourceEventSeqs = list(event.sourceEventSeqs);
  if (event.surfaceOp !== undefined && event.surfaceOp !== 'append') target.surfaceOp = range(event.surfaceOp);
  return target;
}
