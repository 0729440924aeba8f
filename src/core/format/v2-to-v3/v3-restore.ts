// The restore of a whole v3 artifact. v3's own rules first: every event admitted as v3, system
// messages in an open step, the protected head (the first surface node, when it is a system message,
// can be replaced only by a system message covering exactly it; no other replacement or compaction may
// touch it). Then the v2 rules and relationships run over a view of the events in the vocabulary they
// know (a system message as the user-role message it projects, PTC dispatches by their v2 names); the
// artifact itself is returned unchanged.
import { SessionFormatError } from '../errors';
import type { Artifact, FormatEvent } from '../types';
import { restoreV2Artifact } from '../v1-to-v2/v2-restore';
import type { JsonObject } from '../json';
import { hasEntry, objectAt } from '../v1-to-v2/v2-checks';
import { admitV3Event, refuseRetiredDispatch } from './v3-admission';
import { assertV3Header } from './v3-header';
import { FEEDBACK_TYPES, isRepairMessageId, PTC_DISPATCH_TYPES, RETIRED_DISPATCH_TYPES, V3_SURFACE_TYPES } from './v3-vocabulary';

/** Types v3 interprets beyond v2's inventory once PTC names are mapped back. */
const V3_INSTALLED_TYPES: ReadonlySet<string> = FEEDBACK_TYPES;
const V2_DISPATCH_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(RETIRED_DISPATCH_TYPES).map(([v2, v3]) => [v3, v2]),
);

interface Replace {
  startSeq: number;
  endSeq: number;
}

export function restoreV3Artifact(artifact: Artifact): Artifact {
  assertV3Header(artifact.header);
  let step: { turn: unknown; step: unknown } | undefined;
  let head: number | undefined;
  let hasSurface = false;
  const view = artifact.events.map((event) => {
    refuseRetiredDispatch(event);
    admitV3Event(event, V3_INSTALLED_TYPES);
    if (event.type === 'step/start') {
      const data = objectAt(event.data, event.type);
      step = { turn: data.turn, step: data.step };
    } else if (event.type === 'step/end' || event.type === 'turn/end') step = undefined;
    const surface = V3_SURFACE_TYPES.has(event.type);
    const replace = surface && event.surfaceOp !== 'append' ? (event.surfaceOp as Replace) : undefined;
    if (event.type === 'system/message') {
      const data = objectAt(event.data, 'system/message');
      if (step === undefined || step.turn !== data.turn || step.step !== data.step)
        throw new SessionFormatError('system/message does not match an open step');
      if (hasSurface && head === undefined) throw new SessionFormatError('system/message requires a protected first surface head');
      if (replace === undefined) {
        if (!hasSurface) head = event.seq;
      } else if (replace.startSeq === head || replace.endSeq === head) {
        if (replace.startSeq !== head || replace.endSeq !== head)
          throw new SessionFormatError('system/message must replace exactly the current system head');
        head = event.seq;
      }
    } else if (replace !== undefined && (replace.startSeq === head || replace.endSeq === head)) {
      throw new SessionFormatError('surface replacement cannot shadow the protected system head');
    }
    if (event.type === 'compaction/prune' || event.type === 'compaction/summary') {
      const shadowed = objectAt(event.data, event.type).shadowedSeqs;
      if (Array.isArray(shadowed) && shadowed.some((seq) => seq === head))
        throw new SessionFormatError('compaction cannot shadow the protected system head');
    }
    if (surface) hasSurface = true;
    const projected = relationshipView(event);
    return replace === undefined ? projected : { ...projected, surfaceOp: { op: 'replace', start: replace.startSeq, end: replace.endSeq } };
  });
  restoreV2Artifact({ ...artifact, header: { ...artifact.header, version: 2 }, events: view }, V3_INSTALLED_TYPES);
  return artifact;
}

/** The event as the v2 rules see it. */
function relationshipView(event: FormatEvent): FormatEvent {
  if (PTC_DISPATCH_TYPES.has(event.type)) return { ...event, type: V2_DISPATCH_NAMES[event.type] };
  // A retired name that got this far is ignorable: an opaque event to the v2 rules.
  if (hasEntry(RETIRED_DISPATCH_TYPES, event.type)) return { ...event, type: 'v3/opaque-released-event' };
  if (event.type === 'system/message') {
    const message = objectAt(objectAt(event.data, 'system data').message, 'system message');
    return { ...event, type: 'user/message', data: { ...message, role: 'user' } };
  }
  if (event.type !== 'tool/result') return event;
  // A TOOL_NOT_STARTED repair keeps the id it was written with; the v2 rules expect it to end in the
  // repair's own seq, which renumbering may have changed, so the view carries the current one.
  const data = objectAt(event.data, 'tool result');
  if (data.error === undefined || objectAt(data.error, 'tool error').code !== 'TOOL_NOT_STARTED') return event;
  const message = objectAt(data.message, 'tool message');
  const callId = objectAt(message.source, 'tool source').callId;
  if (!isRepairMessageId(message.id, callId)) return event;
  return {
    ...event,
    data: { ...data, message: { ...message, id: `interrupted-tool-result-${String(callId)}-${event.seq}` } } as JsonObject,
  };
}
