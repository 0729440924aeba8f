// Session titles (spec §6 relationships): a title cites the distinct earlier human `user/message`
// events it was made from (none exactly when the user typed it), and a title request sends exactly
// one user-role text message attributed to `dsh-session-title-llm`.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';
import { earlierSeq, list, record } from './checks';
import type { EarlierEvents } from './earlier-events';

export function checkTitleSources(earlier: EarlierEvents, event: FormatEvent, data: JsonObject, knownTypes: ReadonlySet<string>): void {
  const references = list(data.messageSeqs, 'title messageSeqs');
  if (event.type === 'session/title' && (references.length === 0) !== (record(data.source, 'title source').kind === 'user')) {
    throw new SessionFormatError('session/title messageSeqs must be empty exactly for a user title');
  }
  const seen = new Set<number>();
  for (const value of references) {
    const seq = earlierSeq(value, event.seq, 'title messageSeqs');
    if (seen.has(seq) || !earlier.isUserMessage(seq) || !knownTypes.has('user/message') || !earlier.isHumanInput(seq)) {
      throw new SessionFormatError(`${event.type} messageSeqs must cite distinct earlier human user/message events`);
    }
    seen.add(seq);
  }
  if (event.type !== 'session/title-llm-request') return;
  const messages = list(data.messages, 'title messages');
  const message = record(messages[0], 'title message');
  const content = list(message.content, 'title content');
  const block = content[0];
  if (
    references.length === 0 ||
    messages.length !== 1 ||
    message.role !== 'user' ||
    record(message.source, 'title source').kind !== 'dsh-session-title-llm' ||
    content.length !== 1 ||
    !isJsonObject(block) ||
    block.type !== 'text'
  ) {
    throw new SessionFormatError('session/title-llm-request messages do not represent messageSeqs');
  }
}
