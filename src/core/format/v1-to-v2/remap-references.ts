// Dense renumbering: the v1→v2 migration drops chunk events and inserts events, so every surviving
// event gets a new seq and every declared same-session reference follows it: `sourceEventSeqs`,
// replace endpoints, `command/done.sourceEventSeq`, compaction ranges and lists, title `messageSeqs`.
// A reference to a consumed chunk has no new seq; the migration refuses rather than redirect it.
import { SessionFormatUnsupportedMigrationError } from '../errors';
import type { FormatEvent } from '../types';
import { templateString, type JsonObject } from '../json';

export type SeqMapping = ReadonlyMap<unknown, number>;

/** `event` at `targetSeq` with its references in target seqs (key order as dsh writes it). */
export function remapEvent(event: FormatEvent, targetSeq: number, mapping: SeqMapping): FormatEvent {
  const { sourceEventSeqs, surfaceOp, ...rest } = event;
  const subject = `${event.type} ${event.seq}`;
  const target: FormatEvent = { ...rest, seq: targetSeq, data: remapPayload(event, mapping) };
  if (sourceEventSeqs !== undefined) target.sourceEventSeqs = mapAll(sourceEventSeqs, mapping, `${subject} sources`);
  if (surfaceOp !== undefined && surfaceOp !== 'append') {
    const replace = surfaceOp as JsonObject;
    target.surfaceOp = {
      op: 'replace',
      start: mapOne(replace.start, mapping, `${subject} surface start`),
      end: mapOne(replace.end, mapping, `${subject} surface end`),
    };
  } else if (surfaceOp !== undefined) target.surfaceOp = surfaceOp;
  return target;
}

function remapPayload(event: FormatEvent, mapping: SeqMapping): unknown {
  const data = event.data as JsonObject;
  const subject = `${event.type} ${event.seq}`;
  switch (event.type) {
    case 'command/done':
      return data.sourceEventSeq === undefined
        ? data
        : { ...data, sourceEventSeq: mapOne(data.sourceEventSeq, mapping, `${subject} sourceEventSeq`) };
    case 'compaction/prune':
    case 'compaction/summary': {
      const range = data.shadowedRange as JsonObject;
      return {
        ...data,
        shadowedRange: {
          start: mapOne(range.start, mapping, `${subject} shadowedRange start`),
          end: mapOne(range.end, mapping, `${subject} shadowedRange end`),
        },
        shadowedSeqs: mapAll(data.shadowedSeqs as unknown[], mapping, `${subject} shadowedSeqs`),
      };
    }
    case 'session/title':
    case 'session/title-llm-request':
      return { ...data, messageSeqs: mapAll(data.messageSeqs as unknown[], mapping, `${subject} messageSeqs`) };
    default:
      return data;
  }
}

function mapAll(values: readonly unknown[], mapping: SeqMapping, label: string): number[] {
  return values.map((value) => mapOne(value, mapping, label));
}

function mapOne(value: unknown, mapping: SeqMapping, label: string): number {
  const mapped = mapping.get(value);
  if (mapped === undefined)
    throw new SessionFormatUnsupportedMigrationError(`${label} targets consumed assistant/chunk ${templateString(value)}`);
  return mapped;
}
