// Session titles cite the human user messages they were made from; a title request's one framed
// message must be exactly those messages' text (unless the generation keeps the source's framing).
import { SessionFormatError } from '../../errors';
import { jsonObject, templateString, type JsonObject } from '../../json';
import type { FormatEvent } from '../../types';

const TITLE_PROMPT = 'Generate the session title from this JSON array of human messages:\n';

/** `value[key]` with JavaScript's failure on null and undefined (what dsh meets in an unchecked payload). */
export function property(value: unknown, key: string): unknown {
  if (value === null || value === undefined) throw new TypeError(`Cannot read properties of ${String(value)} (reading '${key}')`);
  return (value as Record<string, unknown>)[key];
}

/** The event a seq names, looked up as a JavaScript index would (a numeric string names the same event). */
function eventAt(events: readonly FormatEvent[], seq: unknown): FormatEvent | undefined {
  if (typeof seq === 'number') return events[seq];
  const key = templateString(seq);
  return /^(0|[1-9][0-9]*)$/.test(key) ? events[Number(key)] : undefined;
}

export function assertTitleSources(
  events: readonly FormatEvent[],
  event: FormatEvent,
  data: JsonObject,
  validateFramedText: boolean,
): void {
  const seqs = data['messageSeqs'];
  if (event.type === 'session/title') {
    const titleSource = jsonObject(data['source'], `session/title ${event.seq} source`);
    if ((property(seqs, 'length') === 0) !== (titleSource['kind'] === 'user'))
      throw new SessionFormatError(`session/title ${event.seq} messageSeqs must be empty exactly for a user title`);
  }
  if (!Array.isArray(seqs) && typeof seqs !== 'string') throw new TypeError('seqs is not iterable');
  const notHuman = (): SessionFormatError =>
    new SessionFormatError(`${event.type} ${event.seq} messageSeqs must cite earlier human user/message events`);
  const selected: { seq: unknown; text: string }[] = [];
  for (const seq of seqs as Iterable<unknown>) {
    const source = eventAt(events, seq);
    if (source?.type !== 'user/message') throw notHuman();
    const sourceData = jsonObject(source.data, `${source.type} ${templateString(seq)} data`);
    if (jsonObject(sourceData['source'], `${source.type} ${templateString(seq)} source`)['kind'] !== 'user') throw notHuman();
    const content = sourceData['content'];
    if (!Array.isArray(content)) throw new TypeError('content.flatMap is not a function');
    const texts: string[] = [];
    for (const block of content as unknown[]) {
      if (block === null || block === undefined) throw new TypeError(`Cannot read properties of ${String(block)} (reading 'type')`);
      const b = block as JsonObject;
      if (b['type'] === 'text' && typeof b['text'] === 'string') texts.push(b['text']);
    }
    selected.push({ seq, text: texts.join('\n') });
  }
  if (event.type !== 'session/title-llm-request') return;
  const represents = (): SessionFormatError => new SessionFormatError('session/title-llm-request messages do not represent messageSeqs');
  const messages = data['messages'] as unknown[];
  const message = Array.isArray(messages) ? (messages[0] as JsonObject | undefined) : undefined;
  const content = message?.['content'] as unknown[] | undefined;
  const source = message === undefined ? undefined : jsonObject(message['source'], 'session/title-llm-request message source');
  if (
    !Array.isArray(messages) ||
    messages.length !== 1 ||
    message?.['role'] !== 'user' ||
    content?.length !== 1 ||
    source?.['kind'] !== 'plugin' ||
    source['plugin'] !== 'dsh-session-title-llm'
  )
    throw represents();
  const framed = content[0] as JsonObject | undefined;
  if (framed === undefined || framed === null || framed['type'] !== 'text') throw represents();
  if (validateFramedText && framed['text'] !== `${TITLE_PROMPT}${JSON.stringify(selected)}`) throw represents();
}
