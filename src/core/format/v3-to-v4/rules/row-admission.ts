// The v4 rules a reader applies to each row before recovery may drop a damaged tail (spec §6,
// "validation entry points"): retired syntax, a system message's fields, a tool-role result, a fork
// result's identity, developer data and plugin-kind sources are refused even in a recoverable tail,
// so that a damaged line cannot hide them.
import type { FormatEvent } from '../../types';
import { SessionFormatError } from '../../errors';
import { isJsonObject } from '../../json';
import { assertNoRetiredSyntax } from './retired-syntax';
import { assertSystemMessageFields } from './system-message';
import { assertDeveloperRules } from './developer-message';
import { assertForkResultIdentity } from './fork-result';
import { assertToolRoleResult } from '../tool-role';

/** The message slots a row admission reads for a `plugin` source (a malformed slot is left to decoding). */
function rowMessages(type: unknown, data: Record<string, unknown>): unknown {
  switch (type) {
    case 'user/message':
      return [data];
    case 'system/message':
    case 'assistant/message':
    case 'tool/result':
      return [data.message];
    case 'agent/inbox/spliced':
      return data.inserted;
    case 'session/title-llm-request':
      return data.messages;
    default:
      return [];
  }
}

function refusePluginSources(row: Record<string, unknown>): void {
  if (!isJsonObject(row.data)) return;
  const messages = rowMessages(row.type, row.data);
  if (!Array.isArray(messages)) return;
  for (const message of messages) {
    if (isJsonObject(message) && isJsonObject(message.source) && message.source.kind === 'plugin') {
      throw new SessionFormatError('format v4 message requires a producer-owned source kind');
    }
  }
}

/**
 * Whether admission leaves the row to the restore: an ignorable developer/message, when admission
 * does not know v4's vocabulary (the codec's own admission of each row it decodes).
 */
export function admissionDefers(row: unknown, knownTypes?: ReadonlySet<string>): boolean {
  return isJsonObject(row) && row.type === 'developer/message' && row.ignorable === true && knownTypes?.has('developer/message') !== true;
}

/**
 * Throws when a parsed row breaks a rule v4 checks before recovery. `knownTypes`: the reader's
 * vocabulary; without it an ignorable developer/message is left for the restore to judge.
 */
export function assertV4RowAdmission(row: unknown, knownTypes?: ReadonlySet<string>): void {
  if (isJsonObject(row)) {
    if (admissionDefers(row, knownTypes)) return;
    assertDeveloperRules(row as unknown as FormatEvent);
    refusePluginSources(row);
  }
  assertNoRetiredSyntax(row);
  assertSystemMessageFields(row);
  if (!isJsonObject(row) || row.type !== 'tool/result') return;
  assertToolRoleResult(row as unknown as FormatEvent);
  assertForkResultIdentity(row);
}
