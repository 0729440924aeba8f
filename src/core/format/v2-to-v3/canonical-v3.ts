// The last step of the v2→v3 migration for each event: v3's names and canonical forms, then v3
// admission. The PTC vocabulary is renamed (`tool/code-dispatch*` → `tool/ptc-dispatch*`, preset and
// plugin `code`/`tools-code-mode` → `ptc`/`tools-ptc` in the three message-source slots), a
// replacement's `{start, end}` becomes `{startSeq, endSeq}`, and empty optional request header fields
// are dropped.
import { SessionFormatError } from '../errors';
import type { FormatEvent } from '../types';
import { formatCount, isJsonObject, type JsonObject } from '../json';
import { objectAt } from '../v1-to-v2/v2-checks';
import { admitV3Event } from './v3-admission';
import { RETIRED_DISPATCH_TYPES } from './v3-vocabulary';

/** PTC renames of an admitted v2 event (its payload members are exact, so they are read directly). */
export function renamePtcVocabulary(event: FormatEvent): FormatEvent {
  const data = event.data as JsonObject;
  switch (event.type) {
    case 'agent-preset/selected':
      return data.agentPreset === 'code' ? { ...event, data: { ...data, agentPreset: 'ptc' } } : event;
    case 'tool/code-dispatch-start':
    case 'tool/code-dispatch':
      return { ...event, type: RETIRED_DISPATCH_TYPES[event.type] };
    case 'user/message': {
      const renamed = renameMessageSource(data);
      return renamed === data ? event : { ...event, data: renamed };
    }
    case 'agent/inbox/spliced':
    case 'session/title-llm-request': {
      const key = event.type === 'agent/inbox/spliced' ? 'inserted' : 'messages';
      const messages = data[key] as JsonObject[];
      const renamed = messages.map(renameMessageSource);
      return renamed.every((message, index) => message === messages[index]) ? event : { ...event, data: { ...data, [key]: renamed } };
    }
    default:
      return event;
  }
}

function renameMessageSource(message: JsonObject): JsonObject {
  const source = message.source as JsonObject;
  if (source.kind !== 'plugin' || source.plugin !== 'tools-code-mode') return message;
  return { ...message, source: { ...source, plugin: 'tools-ptc' } };
}

/** v3's canonical envelope and request header of a transformed event, admitted as v3. */
export function canonicalV3Event(event: FormatEvent): FormatEvent {
  const subject = `format v2 ${event.type} at seq ${event.seq}`;
  let target = event;
  const operation = event.surfaceOp;
  if (operation !== undefined && operation !== 'append') {
    const replace = objectAt(operation, `${subject} surfaceOp`);
    if (Object.keys(replace).length !== 3 || replace.op !== 'replace' || !Object.hasOwn(replace, 'start') || !Object.hasOwn(replace, 'end'))
      throw new SessionFormatError(`${subject} requires exact replace fields op/start/end`);
    target = {
      ...event,
      surfaceOp: {
        op: 'replace',
        startSeq: formatCount(replace.start, `${subject} replace start`),
        endSeq: formatCount(replace.end, `${subject} replace end`),
      },
    };
  }
  if (event.type === 'request/header') {
    const data = objectAt(event.data, `format v2 request/header at seq ${event.seq} data`);
    const header = objectAt(data.header, `format v2 request/header at seq ${event.seq} header`);
    const isEmptyOptional = (key: string): boolean =>
      (key === 'tools' && Array.isArray(header.tools) && header.tools.length === 0) ||
      (key === 'adapterDefaults' && isJsonObject(header.adapterDefaults) && Object.keys(header.adapterDefaults).length === 0);
    if (Object.keys(header).some(isEmptyOptional)) {
      const canonical: JsonObject = {};
      for (const [key, value] of Object.entries(header)) if (!isEmptyOptional(key)) canonical[key] = value;
      target = { ...target, data: { ...data, header: canonical } };
    }
  }
  admitV3Event(target);
  return target;
}
