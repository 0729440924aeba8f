// Tool calls across an assistant message, its tool/call starts and its tool-role results (spec §6
// relationships): a call is advertised once by a tool-call block, started at most once with the same
// name and arguments, and settled by one result; a result for a call that never started must be the
// exact TOOL_NOT_STARTED repair (dsh's crash closer, or a fork's).
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';
import { list, nonEmptyText, record } from './checks';

/** dsh's crash-repair text for a call that never started (spec §7), byte for byte. */
export const TOOL_NOT_STARTED_TEXT =
  'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.';

const CANONICAL_INTEGER = /^(0|[1-9]\d*)$/;

interface AdvertisedCall {
  readonly name: unknown;
  readonly arguments: unknown;
  started: boolean;
}

/** The calls advertised in the open turn and not settled yet. */
export class ToolCalls {
  private readonly pending = new Map<string, AdvertisedCall>();

  get size(): number {
    return this.pending.size;
  }

  firstPending(): string | undefined {
    return this.pending.keys().next().value;
  }

  clear(): void {
    this.pending.clear();
  }

  advertise(data: JsonObject): void {
    const message = record(data.message, 'assistant message');
    for (const value of list(message.content, 'assistant content')) {
      const block = record(value, 'assistant content block');
      if (block.type !== 'tool-call') continue;
      const id = nonEmptyText(block.id, 'tool call id');
      if (this.pending.has(id)) throw new SessionFormatError(`assistant/message repeats advertised tool call ${id}`);
      this.pending.set(id, { name: block.name, arguments: block.arguments, started: false });
    }
  }

  start(event: FormatEvent, data: JsonObject): void {
    const id = nonEmptyText(data.callId, 'tool call id');
    const call = this.advertised(event, id);
    if (call.started || call.name !== data.name || call.arguments !== data.arguments) {
      throw new SessionFormatError(`tool/call ${id} does not match one advertised tool call`);
    }
    call.started = true;
  }

  settle(event: FormatEvent, data: JsonObject): void {
    const message = record(data.message, 'tool result message');
    const id = nonEmptyText(message.toolCallId, 'tool call id');
    const call = this.advertised(event, id);
    if (!call.started && !isNotStartedRepair(event, data, message, id)) {
      throw new SessionFormatError(`tool/result ${id} is not the exact TOOL_NOT_STARTED repair`);
    }
    this.pending.delete(id);
  }

  private advertised(event: FormatEvent, id: string): AdvertisedCall {
    const call = this.pending.get(id);
    if (call === undefined) throw new SessionFormatError(`${event.type} ${id} has no advertised tool lifecycle`);
    return call;
  }
}

/**
 * A result settling a call that never started: a TOOL_NOT_STARTED error result citing nothing, whose
 * id is either a fork's (its own identity rules are checked per event) or dsh's crash closer
 * `interrupted-tool-result-<callId>-<integer>` with the exact closer text.
 */
function isNotStartedRepair(event: FormatEvent, data: JsonObject, message: JsonObject, callId: string): boolean {
  const error = record(data.error, 'not-started error');
  if (
    error.name !== 'ToolNotStartedError' ||
    error.code !== 'TOOL_NOT_STARTED' ||
    message.isError !== true ||
    event.sourceEventSeqs !== undefined
  ) {
    return false;
  }
  const id = nonEmptyText(message.id, 'not-started message id');
  if (id.startsWith(`forked-tool-result-${callId}-`)) return true;
  const prefix = `interrupted-tool-result-${callId}-`;
  const suffix = id.slice(prefix.length);
  const content = list(message.content, 'not-started content');
  const block = content[0];
  return (
    id.startsWith(prefix) &&
    CANONICAL_INTEGER.test(suffix) &&
    Number.isSafeInteger(Number(suffix)) &&
    content.length === 1 &&
    isJsonObject(block) &&
    block.type === 'text' &&
    block.text === TOOL_NOT_STARTED_TEXT
  );
}
