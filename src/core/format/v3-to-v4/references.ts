// Same-log references after an inserted event (spec §5 "v3 → v4", sequence references): once the edge
// inserts an interrupted turn/end, every later event moves and the references that name events move
// with it. Only the audited fields are remapped; captured session references, delivery coordinates,
// turn and step numbers, indexes and arbitrary JSON keep their values.
import type { FormatEvent } from '../types';
import { SessionFormatError } from '../errors';
import { isJsonObject, formatCount, type JsonObject } from '../json';

function referenceContainer(value: unknown): JsonObject {
  if (!isJsonObject(value)) throw new SessionFormatError('V3 event reference container must be an object');
  return value;
}

/**
 * The event at target position `targetSeq`, its references mapped through `mapping` (target position
 * of every earlier source event). An event that does not move keeps every reference: nothing before
 * it moved either.
 */
export function remapReferences(event: FormatEvent, targetSeq: number, mapping: readonly number[]): FormatEvent {
  if (targetSeq === event.seq) return event;
  const one = (value: unknown): number => {
    const source = formatCount(value, 'V3 source event reference');
    const target = mapping[source];
    if (source >= event.seq || target === undefined) throw new SessionFormatError('V3 reference must name an earlier source event');
    return target;
  };
  const many = (value: unknown): number[] => {
    if (!Array.isArray(value)) throw new SessionFormatError('V3 event references must be an array');
    return value.map(one);
  };
  let data = event.data;
  switch (event.type) {
    case 'command/done': {
      const done = referenceContainer(data);
      if (done.sourceEventSeq !== undefined) data = { ...done, sourceEventSeq: one(done.sourceEventSeq) };
      break;
    }
    case 'compaction/summary':
    case 'compaction/prune': {
      const compaction = referenceContainer(data);
      const range = referenceContainer(compaction.shadowedRange);
      data = {
        ...compaction,
        shadowedRange: { ...range, start: one(range.start), end: one(range.end) },
        shadowedSeqs: many(compaction.shadowedSeqs),
      };
      break;
    }
    case 'session/title':
    case 'session/title-llm-request': {
      const title = referenceContainer(data);
      data = { ...title, messageSeqs: many(title.messageSeqs) };
      break;
    }
    case 'image/offload': {
      const offload = referenceContainer(data);
      if (!Array.isArray(offload.targets)) throw new SessionFormatError('V3 image offload targets must be an array');
      data = {
        ...offload,
        targets: offload.targets.map((target: unknown) => {
          const owner = referenceContainer(target);
          return { ...owner, seq: one(owner.seq) };
        }),
      };
      break;
    }
  }
  const moved: FormatEvent = { ...event, seq: targetSeq, data };
  if (event.sourceEventSeqs !== undefined) moved.sourceEventSeqs = many(event.sourceEventSeqs);
  const operation = event.surfaceOp;
  if (operation !== undefined && operation !== 'append') {
    const replace = referenceContainer(operation);
    moved.surfaceOp = { ...replace, startSeq: one(replace.startSeq), endSeq: one(replace.endSeq) };
  }
  return moved;
}
