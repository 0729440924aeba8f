// A developer message's tool additions and the request header they bind to (spec §6): `headerSeq`
// names an earlier known request/header in which each added tool has exactly one definition, with a
// string description and object parameters. The binding is what was recorded, never the latest header.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';
import { earlierSeq, list, record } from './checks';
import type { EarlierEvents } from './earlier-events';

export function checkDeveloperBinding(earlier: EarlierEvents, event: FormatEvent, data: JsonObject, knownTypes: ReadonlySet<string>): void {
  if (data.headerSeq === undefined) return;
  const headerSeq = earlierSeq(data.headerSeq, event.seq, 'developer/message headerSeq');
  const header = earlier.requestHeader(headerSeq);
  if (header === undefined) throw new SessionFormatError('developer/message headerSeq must reference an earlier request/header');
  if (!knownTypes.has(header.type)) throw new SessionFormatError('developer/message headerSeq must reference a known request/header');
  const tools = record(record(header.data, 'request/header data').header, 'request header').tools;
  const content = list(record(data.message, 'developer message').content, 'developer content');
  for (const block of content) {
    if (!isJsonObject(block) || block.type !== 'tool-addition') continue;
    const toolName = block.toolName as string;
    const definitions = Array.isArray(tools) ? tools.filter((tool: unknown) => isJsonObject(tool) && tool.name === toolName) : [];
    if (definitions.length !== 1) {
      throw new SessionFormatError(`developer/message tool-addition "${toolName}" must name exactly one tool in headerSeq ${headerSeq}`);
    }
    const definition = definitions[0] as JsonObject;
    if (typeof definition.description !== 'string' || !isJsonObject(definition.parameters)) {
      throw new SessionFormatError(
        `developer/message tool-addition "${toolName}" requires a complete tool definition in headerSeq ${headerSeq}`,
      );
    }
  }
}
